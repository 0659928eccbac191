-- Favorites saved to the shopper's account: the heart on a product page (or on one offer of a
-- single: a shopper may want only the Spanish NM copy) keeps the product here, so the Favoritos tab
-- lists it on every device. Each shopper reads, adds and removes only their own; nobody edits one
-- (a favorite is there or not). Realtime tells the shopper's other tabs and devices.
create table public.favorites (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  product_id text not null references public.products (id) on update cascade on delete cascade,
  -- One offer of a single card; null for the product as a whole.
  offer_id uuid references public.card_offers (id) on delete cascade,
  created_at timestamptz not null default now()
);
-- A product (or one of its offers) is a favorite once per shopper, however often the heart is tapped.
create unique index favorites_once on public.favorites (user_id, product_id, coalesce(offer_id, '00000000-0000-0000-0000-000000000000'::uuid));
create index favorites_user_idx on public.favorites (user_id, created_at desc);

-- The offer, when there is one, must be of that product.
create function public.favorites_offer_of_product() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.offer_id is not null and not exists (
    select 1 from public.card_offers o where o.id = new.offer_id and o.product_id = new.product_id
  ) then
    raise exception 'La opción elegida no es de este producto.' using errcode = '23514';
  end if;
  return new;
end;
$$;
create trigger favorites_offer_of_product before insert on public.favorites
  for each row execute function public.favorites_offer_of_product();

alter table public.favorites enable row level security;
create policy "Favorites: read own" on public.favorites
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Favorites: add own" on public.favorites
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy "Favorites: remove own" on public.favorites
  for delete to authenticated using (user_id = (select auth.uid()));
revoke all on public.favorites from anon, authenticated;
grant select, delete on public.favorites to authenticated;
grant insert (product_id, offer_id) on public.favorites to authenticated;

do $$
begin
  if not exists (
    select 1 from pg_publication_tables
     where pubname = 'supabase_realtime' and schemaname = 'public' and tablename = 'favorites'
  ) then
    alter publication supabase_realtime add table public.favorites;
  end if;
end
$$;
