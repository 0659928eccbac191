-- Mexico's postal-code catalogue (SEPOMEX, Correos de México's "Código Postal" download,
-- CPdescarga.txt): one row per settlement (asentamiento: colonia, barrio, fraccionamiento, …); a
-- postal code has one or many. `npm run sepomex:import -- FILE` replaces the whole table in one
-- transaction (scripts/sepomex-import.ts); the local stack starts with a small sample
-- (supabase/local/seed/sepomex_sample.sql).
--
-- Nobody reads the table directly: the address form asks postal_code_lookup for one code at a
-- time, so the catalogue never travels to the browser whole.
create table public.postal_settlements (
  id bigint generated always as identity primary key,
  -- d_codigo: the postal code, 5 digits with leading zeros.
  postal_code text not null check (postal_code ~ '^[0-9]{5}$'),
  -- d_asenta, d_tipo_asenta: the settlement's name and type ('Colonia', 'Barrio', …).
  settlement text not null check (btrim(settlement) <> ''),
  settlement_type text not null check (btrim(settlement_type) <> ''),
  -- D_mnpio, d_estado, d_ciudad (empty for many rural settlements).
  municipality text not null check (btrim(municipality) <> ''),
  state text not null check (btrim(state) <> ''),
  city text check (city is null or btrim(city) <> ''),
  -- c_estado (INEGI, 2 digits), c_mnpio (INEGI, 3 digits within the state), id_asenta_cpcons
  -- (unique within the municipality), c_tipo_asenta, c_cve_ciudad, d_zona, c_oficina.
  state_key text not null check (state_key ~ '^[0-9]{2}$'),
  municipality_key text not null check (municipality_key ~ '^[0-9]{3}$'),
  settlement_key text not null check (settlement_key ~ '^[0-9]{1,6}$'),
  settlement_type_key text check (settlement_type_key is null or settlement_type_key ~ '^[0-9]{1,3}$'),
  city_key text check (city_key is null or city_key ~ '^[0-9]{1,3}$'),
  zone text check (zone is null or btrim(zone) <> ''),
  office_code text check (office_code is null or office_code ~ '^[0-9]{5}$')
);

comment on table public.postal_settlements is
  'SEPOMEX postal-code catalogue, one row per settlement; replaced whole by npm run sepomex:import.';

create index postal_settlements_postal_code_idx on public.postal_settlements (postal_code);

alter table public.postal_settlements enable row level security;
-- No policy and no grant for the API roles: the lookup function below is the only way in. The
-- service role keeps Supabase's full access (the import itself connects as the database owner).
revoke all on public.postal_settlements from public, anon, authenticated;
grant all on public.postal_settlements to service_role;

-- What the address form needs for one postal code: its state, municipality (alcaldía in Mexico
-- City) and city, and its settlements by name (Spanish order: accents ignored, ñ after n). Null
-- for a code that is not 5 digits or that the catalogue does not know. A code whose settlements
-- disagree on the state or municipality (the catalogue has a few codes across a boundary) answers
-- with the one most of its settlements name.
create or replace function public.postal_code_lookup(p_code text)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with s as (
    select p.settlement, p.settlement_type, p.municipality, p.state, p.city
    from public.postal_settlements p
    where p_code ~ '^[0-9]{5}$' and p.postal_code = p_code
  ),
  names as (
    select distinct s.settlement, s.settlement_type from s
  )
  select jsonb_build_object(
    'code', p_code,
    'state', (select mode() within group (order by s.state) from s),
    'municipality', (select mode() within group (order by s.municipality) from s),
    'city', (select mode() within group (order by s.city) from s where s.city is not null),
    'settlements', (
      select jsonb_agg(jsonb_build_object('name', n.settlement, 'type', n.settlement_type)
                       order by replace(translate(lower(n.settlement), 'áéíóúüàèìòùâêîôû', 'aeiouuaeiouaeiou'), 'ñ', 'n{') collate "C",
                                n.settlement collate "C", n.settlement_type collate "C")
      from names n
    )
  )
  where exists (select 1 from s);
$$;

revoke all on function public.postal_code_lookup(text) from public;
grant execute on function public.postal_code_lookup(text) to anon, authenticated, service_role;
