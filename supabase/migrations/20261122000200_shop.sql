-- Shoppers: profiles (with the admin flag), addresses, rewards, coupons and newsletter.
--
-- Who may do what (row-level security plus column grants):
--   profiles     a user reads and edits only their own row, and only username, name, lastname
--                and phone; nobody but the service role sets is_admin or stripe_customer_id.
--                A profile is created for every new auth user by a trigger (is_admin false).
--   addresses    a user reads and changes only their own; one default per user, kept by triggers.
--                Refusal when deleting the user's only address: 'Debes tener al menos una dirección'.
--   rewards,     a user reads only their own; points and coupons are granted by the shop (service
--   coupons      role), never by the user.
--   newsletter   anyone may subscribe (insert an e-mail); nobody but the service role reads it.
--   catalogue    admins (public.is_admin()) insert, update and delete.

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  username text check (username is null or length(btrim(username)) between 1 and 50),
  name text check (name is null or length(name) <= 100),
  lastname text check (lastname is null or length(lastname) <= 100),
  phone text check (phone is null or phone ~ '^[0-9 ()+-]{7,20}$'),
  is_admin boolean not null default false,
  created_at timestamptz not null default now(),
  stripe_customer_id text
);
-- 'AnaGarcia' and 'anagarcia' are the same username.
create unique index profiles_username_lower_key on public.profiles (lower(username));

/** Whether the caller is an admin. Security definer so policies can ask without recursion. */
create or replace function public.is_admin() returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select p.is_admin from public.profiles p where p.id = (select auth.uid())),
    false
  )
$$;
revoke execute on function public.is_admin() from public;
grant execute on function public.is_admin() to anon, authenticated, service_role;

alter table public.profiles enable row level security;

create policy "Profiles: read own" on public.profiles
  for select to authenticated using (id = (select auth.uid()));
create policy "Profiles: insert own, never admin" on public.profiles
  for insert to authenticated with check (id = (select auth.uid()) and is_admin = false);
create policy "Profiles: update own" on public.profiles
  for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

-- Column grants are what stop a user from making themself admin: RLS filters rows, not columns.
revoke all on public.profiles from anon, authenticated;
grant select on public.profiles to authenticated;
-- is_admin is insertable only so a client may send is_admin false; the policy refuses true.
grant insert (id, username, name, lastname, phone, is_admin, created_at) on public.profiles to authenticated;
grant update (username, name, lastname, phone) on public.profiles to authenticated;

-- Admin writes on the catalogue.
do $$
declare
  t text;
begin
  foreach t in array array['franchises', 'collections', 'expansions', 'product_types', 'products'] loop
    execute format('create policy "Catalogue: admins insert" on public.%I for insert to authenticated with check ((select public.is_admin()))', t);
    execute format('create policy "Catalogue: admins update" on public.%I for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()))', t);
    execute format('create policy "Catalogue: admins delete" on public.%I for delete to authenticated using ((select public.is_admin()))', t);
  end loop;
end
$$;

-- Addresses ----------------------------------------------------------------------------------

create table public.addresses (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  label text check (label is null or length(label) <= 60),
  street text not null check (length(btrim(street)) between 1 and 200),
  city text not null check (length(btrim(city)) between 1 and 100),
  state text not null check (length(btrim(state)) between 1 and 100),
  zip text not null check (zip ~ '^[0-9]{1,5}$'),
  country text not null default 'México' check (length(btrim(country)) between 1 and 60),
  is_default boolean not null default false,
  created_at timestamptz not null default now()
);
-- The list order of the account page and checkout: default first, newest next.
create index addresses_user_id_idx on public.addresses (user_id, is_default desc, created_at desc);
create unique index addresses_one_default_per_user on public.addresses (user_id) where is_default;

/** Keeps one default address per user: the first is default, a new default clears the others. */
create or replace function public.addresses_before_write() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' then
    if new.id is distinct from old.id or new.user_id is distinct from old.user_id then
      raise exception 'Una dirección no puede cambiar de dueño.' using errcode = '42501';
    end if;
  end if;
  -- Serialises address writes of one user so two first addresses cannot both become default.
  perform pg_advisory_xact_lock(hashtextextended('addresses:' || new.user_id::text, 0));
  if tg_op = 'INSERT' and not exists (
    select 1 from public.addresses a where a.user_id = new.user_id
  ) then
    new.is_default := true;
  end if;
  if new.is_default and (tg_op = 'INSERT' or not old.is_default) then
    update public.addresses a
       set is_default = false
     where a.user_id = new.user_id and a.id <> new.id and a.is_default;
  end if;
  return new;
end
$$;

/** Refuses to delete a user's only address (unless the user itself is being deleted). */
create or replace function public.addresses_before_delete() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from auth.users u where u.id = old.user_id)
     and not exists (select 1 from public.addresses a where a.user_id = old.user_id and a.id <> old.id)
  then
    raise exception 'Debes tener al menos una dirección'
      using errcode = 'P0001', detail = 'last_address';
  end if;
  return old;
end
$$;

/** Deleting the default promotes the first remaining address in list order. */
create or replace function public.addresses_after_delete() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.is_default and not exists (
    select 1 from public.addresses a where a.user_id = old.user_id and a.is_default
  ) then
    update public.addresses a
       set is_default = true
     where a.id = (
       select b.id from public.addresses b
        where b.user_id = old.user_id
        order by b.is_default desc, b.created_at desc, b.id
        limit 1
     );
  end if;
  return null;
end
$$;

create trigger addresses_before_write
  before insert or update on public.addresses
  for each row execute function public.addresses_before_write();
create trigger addresses_before_delete
  before delete on public.addresses
  for each row execute function public.addresses_before_delete();
create trigger addresses_after_delete
  after delete on public.addresses
  for each row execute function public.addresses_after_delete();

/** Makes one of the caller's addresses the default, atomically. */
create or replace function public.set_default_address(address_id uuid) returns void
language plpgsql
security invoker
set search_path = ''
as $$
begin
  update public.addresses a set is_default = true
   where a.id = address_id and a.user_id = (select auth.uid());
  if not found then
    raise exception 'Dirección no encontrada.' using errcode = 'P0002', detail = 'address_not_found';
  end if;
end
$$;
revoke execute on function public.set_default_address(uuid) from public, anon;
grant execute on function public.set_default_address(uuid) to authenticated, service_role;

alter table public.addresses enable row level security;

create policy "Addresses: read own" on public.addresses
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Addresses: insert own" on public.addresses
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy "Addresses: update own" on public.addresses
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
create policy "Addresses: delete own" on public.addresses
  for delete to authenticated using (user_id = (select auth.uid()));

revoke all on public.addresses from anon, authenticated;
grant select, delete on public.addresses to authenticated;
-- id and user_id are writable so an upsert on id works; the trigger keeps them unchanged.
grant insert (id, user_id, label, street, city, state, zip, country, is_default)
  on public.addresses to authenticated;
grant update (id, user_id, label, street, city, state, zip, country, is_default)
  on public.addresses to authenticated;

-- Rewards and coupons -----------------------------------------------------------------------

create table public.rewards (
  user_id uuid primary key references auth.users (id) on delete cascade,
  points integer not null default 0 check (points >= 0),
  updated_at timestamptz not null default now()
);
create trigger rewards_set_updated_at
  before update on public.rewards
  for each row execute function public.set_updated_at();

create table public.coupons (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  code text not null check (code = upper(btrim(code)) and length(code) between 1 and 40),
  description text,
  kind text not null default 'percent' check (kind in ('percent', 'shipping')),
  value numeric(12, 2) not null default 0 check (value >= 0),
  expires_at timestamptz,
  used_at timestamptz,
  created_at timestamptz not null default now(),
  unique (user_id, code)
);
create index coupons_user_id_idx on public.coupons (user_id);

alter table public.rewards enable row level security;
alter table public.coupons enable row level security;
create policy "Rewards: read own" on public.rewards
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Coupons: read own" on public.coupons
  for select to authenticated using (user_id = (select auth.uid()));
revoke all on public.rewards, public.coupons from anon, authenticated;
grant select on public.rewards, public.coupons to authenticated;

-- Newsletter --------------------------------------------------------------------------------

create table public.newsletter_subscribers (
  id uuid primary key default gen_random_uuid(),
  email text not null unique
    check (email = lower(btrim(email)) and length(email) <= 254 and email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  created_at timestamptz not null default now()
);

/**
 * Stores e-mails lower-cased and turns a repeated subscription into a silent no-op, so the
 * answer never reveals whether an address was already subscribed.
 */
create or replace function public.newsletter_before_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.email := lower(btrim(new.email));
  if exists (select 1 from public.newsletter_subscribers s where s.email = new.email) then
    return null;
  end if;
  return new;
end
$$;
create trigger newsletter_before_insert
  before insert on public.newsletter_subscribers
  for each row execute function public.newsletter_before_insert();

alter table public.newsletter_subscribers enable row level security;
create policy "Newsletter: anyone subscribes" on public.newsletter_subscribers
  for insert to anon, authenticated with check (true);
revoke all on public.newsletter_subscribers from anon, authenticated;
grant insert (email) on public.newsletter_subscribers to anon, authenticated;

-- New users ---------------------------------------------------------------------------------

/**
 * Creates the profile and the rewards row of a new auth user from the sign-up metadata.
 * is_admin is always false, whatever the metadata says; a taken or empty username becomes null.
 */
create or replace function public.handle_new_user() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  v_username text := nullif(btrim(coalesce(meta ->> 'username', '')), '');
  v_name text := left(nullif(btrim(coalesce(meta ->> 'name', '')), ''), 100);
  v_lastname text := left(nullif(btrim(coalesce(meta ->> 'lastname', '')), ''), 100);
  v_phone text := nullif(btrim(coalesce(meta ->> 'phone', '')), '');
begin
  if v_username is not null and (
    length(v_username) > 50
    or exists (select 1 from public.profiles p where lower(p.username) = lower(v_username))
  ) then
    v_username := null;
  end if;
  if v_phone is not null and v_phone !~ '^[0-9 ()+-]{7,20}$' then
    v_phone := null;
  end if;
  begin
    insert into public.profiles (id, username, name, lastname, phone, is_admin)
    values (new.id, v_username, v_name, v_lastname, v_phone, false)
    on conflict (id) do nothing;
  exception when unique_violation then
    -- Someone took the username between the check and the insert.
    insert into public.profiles (id, username, name, lastname, phone, is_admin)
    values (new.id, null, v_name, v_lastname, v_phone, false)
    on conflict (id) do nothing;
  end;
  insert into public.rewards (user_id, points) values (new.id, 0) on conflict (user_id) do nothing;
  return new;
end
$$;
revoke execute on function public.handle_new_user() from public, anon, authenticated;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function public.handle_new_user();
