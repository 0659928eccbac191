-- Single cards as card shops sell them: what is printed on the card, and the copies on sale.
--
--   public.card_printings    one row per single-card product: the set code ('sv08', 'op05',
--                            'ogn'), the collector number as printed ('199/165', 'OP05-119',
--                            'OGN-042'), the rarity and the card's English and Spanish names.
--                            collector_key is the collector number in lower case with only
--                            letters and digits ('op05119', '199165'), so a search for
--                            'op05 119' or 'OP05-119' finds the same card;
--                            normalizeCollectorNumber in src/domain/singles.ts computes the same.
--   public.card_condition    'NM', 'LP', 'MP', 'HP', 'DMG' (the condition guide, /guia-de-condiciones).
--   public.grading_company   'PSA', 'BGS', 'CGC'.
--   public.card_offers       the copies of one card on sale: a raw copy has a condition, a
--                            language and a finish; a graded slab has a grading company, a grade
--                            (1 to 10 in half points) and the certificate number printed on its
--                            label, and no condition. One raw offer per condition, language and
--                            finish of a product; a certificate is on sale at most once.
--
-- products.id is text, so the product_id columns are text as well. Nothing reads these tables
-- yet: the cart, create_order and the product page still sell products.
-- Both tables follow the catalogue's rules: everyone reads them, only admins write them.

create type public.card_condition as enum ('NM', 'LP', 'MP', 'HP', 'DMG');
create type public.grading_company as enum ('PSA', 'BGS', 'CGC');

create table public.card_printings (
  product_id text primary key references public.products (id) on update cascade on delete cascade,
  franchise text,
  expansion text,
  collector_number text not null check (length(btrim(collector_number)) between 1 and 40),
  collector_key text generated always as (lower(regexp_replace(collector_number, '[^A-Za-z0-9]', '', 'g'))) stored,
  rarity text not null check (length(btrim(rarity)) between 1 and 40),
  name_en text,
  name_es text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index card_printings_collector_key_idx on public.card_printings (collector_key);
create index card_printings_expansion_idx on public.card_printings (expansion, collector_key);

create trigger card_printings_set_updated_at
  before update on public.card_printings
  for each row execute function public.set_updated_at();

create table public.card_offers (
  id uuid primary key default gen_random_uuid(),
  product_id text not null references public.products (id) on update cascade on delete cascade,
  condition public.card_condition,
  language text not null check (language ~ '^[a-z]{2}$'),
  finish text not null check (finish ~ '^[a-z][a-z0-9-]{0,39}$'),
  price numeric(10,2) not null check (price >= 0),
  original_price numeric(10,2) check (original_price > price),
  stock integer not null default 0 check (stock >= 0),
  grading_company public.grading_company,
  grade numeric(3,1) check (grade between 1 and 10 and grade * 2 = floor(grade * 2)),
  certificate_number text unique check (length(btrim(certificate_number)) between 1 and 40),
  images text[] not null default '{}',
  position integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- A slab: company, grade and certificate, no condition. A raw copy: a condition, no slab fields.
  constraint card_offers_slab_or_raw check (
    (grading_company is not null and grade is not null and certificate_number is not null and condition is null)
    or (grading_company is null and grade is null and certificate_number is null and condition is not null)
  )
);
create index card_offers_product_id_idx on public.card_offers (product_id, position);
create unique index card_offers_raw_unique_idx on public.card_offers (product_id, condition, language, finish)
  where grading_company is null;

create trigger card_offers_set_updated_at
  before update on public.card_offers
  for each row execute function public.set_updated_at();

alter table public.card_printings enable row level security;
alter table public.card_offers enable row level security;

create policy "Catalogue is public" on public.card_printings for select to anon, authenticated using (true);
create policy "Catalogue: admins insert" on public.card_printings for insert to authenticated
  with check ((select public.is_admin()));
create policy "Catalogue: admins update" on public.card_printings for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "Catalogue: admins delete" on public.card_printings for delete to authenticated
  using ((select public.is_admin()));

create policy "Catalogue is public" on public.card_offers for select to anon, authenticated using (true);
create policy "Catalogue: admins insert" on public.card_offers for insert to authenticated
  with check ((select public.is_admin()));
create policy "Catalogue: admins update" on public.card_offers for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "Catalogue: admins delete" on public.card_offers for delete to authenticated
  using ((select public.is_admin()));

-- The same grants as public.products: anonymous visitors only ever read.
revoke insert, update, delete, truncate on public.card_printings, public.card_offers from anon;
revoke truncate on public.card_printings, public.card_offers from authenticated;
