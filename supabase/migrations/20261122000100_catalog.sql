-- Catalogue: franchises, collections, expansions, product types and products.
-- Everyone (anon and signed-in) reads the catalogue; writes are for admins and come with the
-- shop migration, which defines public.is_admin().

create or replace function public.set_updated_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;

create table public.franchises (
  id text primary key check (id ~ '^[a-z0-9][a-z0-9-]{0,63}$'),
  name text not null check (length(btrim(name)) > 0),
  logo text,
  created_at timestamptz not null default now()
);

create table public.collections (
  id text primary key check (id ~ '^[a-z0-9][a-z0-9-]{0,63}$'),
  name text not null check (length(btrim(name)) > 0),
  franchise_id text not null references public.franchises (id) on update cascade,
  created_at timestamptz not null default now()
);
create index collections_franchise_id_idx on public.collections (franchise_id);

create table public.expansions (
  id text primary key check (id ~ '^[a-z0-9][a-z0-9-]{0,63}$'),
  name text not null check (length(btrim(name)) > 0),
  franchise_id text not null references public.franchises (id) on update cascade,
  collection_id text references public.collections (id) on update cascade,
  image text,
  release_date date,
  created_at timestamptz not null default now()
);
-- The expansion picker lists a franchise's expansions by name.
create index expansions_franchise_id_name_idx on public.expansions (franchise_id, name);
create index expansions_collection_id_idx on public.expansions (collection_id);

create table public.product_types (
  id text primary key check (id ~ '^[a-z0-9][a-z0-9-]{0,63}$'),
  name text not null check (length(btrim(name)) > 0),
  franchise_id text not null references public.franchises (id) on update cascade,
  image text,
  created_at timestamptz not null default now()
);
create index product_types_franchise_id_idx on public.product_types (franchise_id);

create table public.products (
  -- 'franchise-type-expansion', e.g. 'pk-boosterbox-journey-together'.
  id text primary key check (id ~ '^[A-Za-z0-9][A-Za-z0-9_-]{0,199}$'),
  name text not null check (length(btrim(name)) between 1 and 300),
  description text not null default '',
  price numeric(12, 2) not null check (price >= 0),
  original_price numeric(12, 2) check (original_price is null or original_price >= 0),
  discount boolean not null default false,
  preorder boolean not null default false,
  stock integer not null default 0 check (stock >= 0),
  limit_per_customer integer not null default 1 check (limit_per_customer >= 1),
  available boolean not null default true,
  release_date date,
  image text,
  images text[] not null default '{}',
  tags text[] not null default '{}',
  type text,
  franchise_id text not null references public.franchises (id) on update cascade,
  collection_id text references public.collections (id) on update cascade,
  expansion_id text references public.expansions (id) on update cascade,
  product_type_id text references public.product_types (id) on update cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- Listings filter by franchise plus expansion or type; the home page by type and discount.
create index products_franchise_id_idx on public.products (franchise_id);
create index products_expansion_id_idx on public.products (expansion_id);
create index products_product_type_id_idx on public.products (product_type_id);
create index products_type_idx on public.products (type) where type is not null;
create index products_name_lower_idx on public.products (lower(name));

create trigger products_set_updated_at
  before update on public.products
  for each row execute function public.set_updated_at();

alter table public.franchises enable row level security;
alter table public.collections enable row level security;
alter table public.expansions enable row level security;
alter table public.product_types enable row level security;
alter table public.products enable row level security;

create policy "Catalogue is public" on public.franchises for select to anon, authenticated using (true);
create policy "Catalogue is public" on public.collections for select to anon, authenticated using (true);
create policy "Catalogue is public" on public.expansions for select to anon, authenticated using (true);
create policy "Catalogue is public" on public.product_types for select to anon, authenticated using (true);
create policy "Catalogue is public" on public.products for select to anon, authenticated using (true);

-- Anonymous visitors only ever read the catalogue.
revoke insert, update, delete, truncate on
  public.franchises, public.collections, public.expansions, public.product_types, public.products
  from anon;
revoke truncate on
  public.franchises, public.collections, public.expansions, public.product_types, public.products
  from authenticated;
