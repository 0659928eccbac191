-- The buylist's editor in the back office ('Lista de compra', docs/buylist.md).
--
--   buylist_settings      + the shop's receiving address for the cards shoppers send (name, street
--                         and number, colonia, CP, municipio, estado, phone, counter hours):
--                         everyone reads it, admins write it; unpublished (all null) until the
--                         owner fills it, and then complete.
--   buylist_rule_events   every change of the rules and the entries, append-only: what changed
--                         (each column from / to), who, when. Written by triggers; admins read it.
--   admin_buylist_entries()    the entries with their printing's name and number, searched and
--                         paginated, for admins.
--   search_card_printings()    printings by name or collector number, bounded, to add one.

-- ---------------------------------------------------------------------------------------------
-- The receiving address

alter table public.buylist_settings
  add column ship_name text check (ship_name is null or (ship_name = btrim(ship_name) and length(ship_name) between 1 and 100)),
  add column ship_street text check (ship_street is null or (ship_street = btrim(ship_street) and length(ship_street) between 1 and 150)),
  add column ship_colonia text check (ship_colonia is null or (ship_colonia = btrim(ship_colonia) and length(ship_colonia) between 1 and 100)),
  add column ship_zip text check (ship_zip is null or ship_zip ~ '^[0-9]{5}$'),
  add column ship_municipio text check (ship_municipio is null or (ship_municipio = btrim(ship_municipio) and length(ship_municipio) between 1 and 100)),
  add column ship_state text check (ship_state is null or (ship_state = btrim(ship_state) and length(ship_state) between 1 and 60)),
  add column ship_phone text check (ship_phone is null or ship_phone ~ '^[0-9]{10}$'),
  add column ship_hours text check (ship_hours is null or (ship_hours = btrim(ship_hours) and length(ship_hours) between 1 and 200)),
  -- Published complete (name, street, colonia, CP, municipio, estado) or not at all.
  add constraint buylist_settings_ship_to_complete check (
    num_nulls(ship_name, ship_street, ship_colonia, ship_zip, ship_municipio, ship_state) in (0, 6)
    and (ship_name is not null or (ship_phone is null and ship_hours is null))
  );

grant update (ship_name, ship_street, ship_colonia, ship_zip, ship_municipio, ship_state, ship_phone, ship_hours)
  on public.buylist_settings to authenticated;

-- ---------------------------------------------------------------------------------------------
-- The history of the rules and the entries

create table public.buylist_rule_events (
  id bigint generated always as identity primary key,
  subject text not null check (subject in ('settings', 'entry')),
  action text not null check (action in ('added', 'updated', 'removed')),
  -- The entry (no foreign key: a removed entry keeps its history) and its printing.
  entry_id uuid,
  product_id text,
  -- {"column": {"from": old, "to": new}} for every column that changed.
  changes jsonb not null,
  -- The signed-in admin; null for the shop itself (a printing removed from the catalogue).
  actor uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
create index buylist_rule_events_at_idx on public.buylist_rule_events (created_at desc, id desc);
create index buylist_rule_events_entry_idx on public.buylist_rule_events (entry_id, created_at desc) where entry_id is not null;

/** The columns of `old` and `new` that differ among `p_columns`, as {"column": {"from", "to"}}. */
create function public.buylist_rule_changes(p_old jsonb, p_new jsonb, p_columns text[]) returns jsonb
language sql
immutable
set search_path = ''
as $$
  select coalesce(jsonb_object_agg(c, jsonb_build_object('from', p_old -> c, 'to', p_new -> c)), '{}'::jsonb)
    from unnest(p_columns) as c
   where (p_old -> c) is distinct from (p_new -> c)
$$;
revoke execute on function public.buylist_rule_changes(jsonb, jsonb, text[]) from public, anon, authenticated;

/** Records a change of the buylist's rules or of an entry (reserved and bought are the submissions' own history). */
create function public.buylist_record_rule_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_columns text[];
  v_old jsonb := case when tg_op = 'INSERT' then '{}'::jsonb else to_jsonb(old) end;
  v_new jsonb := case when tg_op = 'DELETE' then '{}'::jsonb else to_jsonb(new) end;
  v_changes jsonb;
  v_actor uuid := auth.uid();
begin
  if tg_table_name = 'buylist_settings' then
    v_columns := array['share_lp', 'share_mp', 'share_hp', 'share_dmg', 'default_percent', 'credit_bonus_percent',
                       'min_submission', 'default_limit_per_shopper', 'reservation_days', 'ship_name', 'ship_street',
                       'ship_colonia', 'ship_zip', 'ship_municipio', 'ship_state', 'ship_phone', 'ship_hours'];
  else
    v_columns := array['product_id', 'language', 'finish', 'active', 'wanted', 'nm_price', 'limit_per_shopper'];
  end if;
  v_changes := public.buylist_rule_changes(v_old, v_new, v_columns);
  if v_changes = '{}'::jsonb then
    return null;
  end if;
  if v_actor is not null and not exists (select 1 from auth.users u where u.id = v_actor) then
    v_actor := null;
  end if;
  insert into public.buylist_rule_events (subject, action, entry_id, product_id, changes, actor)
  values (
    case when tg_table_name = 'buylist_settings' then 'settings' else 'entry' end,
    case tg_op when 'INSERT' then 'added' when 'DELETE' then 'removed' else 'updated' end,
    case when tg_table_name = 'buylist_entries' then coalesce(v_new ->> 'id', v_old ->> 'id')::uuid end,
    case when tg_table_name = 'buylist_entries' then coalesce(v_new ->> 'product_id', v_old ->> 'product_id') end,
    v_changes,
    v_actor
  );
  return null;
end
$$;
revoke execute on function public.buylist_record_rule_change() from public, anon, authenticated;

create trigger buylist_settings_record_change
  after update on public.buylist_settings
  for each row execute function public.buylist_record_rule_change();
create trigger buylist_entries_record_change
  after insert or update or delete on public.buylist_entries
  for each row execute function public.buylist_record_rule_change();

alter table public.buylist_rule_events enable row level security;
create policy "Buylist rule events: admins read" on public.buylist_rule_events
  for select to authenticated using ((select public.is_admin()));
revoke all on public.buylist_rule_events from anon, authenticated, service_role;
grant select on public.buylist_rule_events to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- The editor's reads

/**
 * The buylist's entries for the back office, newest first: each with its printing's name, set and
 * collector number, and the NM price it pays now (its own or the default rule's; null: none).
 * p_search matches part of the name (the product's, in English or in Spanish) or of the collector
 * number (letters and digits only, as collector_key). total_count: all rows matching.
 */
create function public.admin_buylist_entries(
  p_search text default null,
  p_limit integer default 25,
  p_offset integer default 0
) returns table (
  id uuid,
  product_id text,
  name text,
  expansion text,
  collector_number text,
  language text,
  finish text,
  active boolean,
  wanted integer,
  reserved integer,
  bought integer,
  nm_price numeric,
  effective_nm_price numeric,
  limit_per_shopper integer,
  created_at timestamptz,
  total_count bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_search text := nullif(btrim(coalesce(p_search, '')), '');
  v_key text;
begin
  if not public.is_admin() then
    raise exception 'Solo un administrador puede hacer esto.' using errcode = '42501', detail = 'not_admin';
  end if;
  v_key := nullif(lower(regexp_replace(coalesce(v_search, ''), '[^A-Za-z0-9]', '', 'g')), '');
  return query
    select e.id, e.product_id, p.name, cp.expansion, cp.collector_number, e.language, e.finish, e.active,
           e.wanted, e.reserved, e.bought, e.nm_price, public.buylist_entry_nm_price(e), e.limit_per_shopper,
           e.created_at, count(*) over ()
      from public.buylist_entries e
      join public.card_printings cp on cp.product_id = e.product_id
      join public.products p on p.id = e.product_id
     where v_search is null
        or p.name ilike '%' || v_search || '%'
        or cp.name_en ilike '%' || v_search || '%'
        or cp.name_es ilike '%' || v_search || '%'
        or (v_key is not null and cp.collector_key like '%' || v_key || '%')
     order by e.created_at desc, e.id
     limit least(greatest(coalesce(p_limit, 25), 1), 200)
    offset greatest(coalesce(p_offset, 0), 0);
end
$$;
revoke execute on function public.admin_buylist_entries(text, integer, integer) from public, anon;
grant execute on function public.admin_buylist_entries(text, integer, integer) to authenticated, service_role;

/**
 * Printings whose name (the product's, in English or Spanish) contains p_search or whose
 * collector number starts with it (letters and digits only), at most p_limit (1–50), exact
 * numbers first. Public catalogue data: the caller's row-level security applies.
 */
create function public.search_card_printings(p_search text, p_limit integer default 20)
returns table (product_id text, name text, franchise_id text, expansion text, collector_number text, rarity text)
language sql
stable
set search_path = ''
as $$
  with q as (
    select nullif(btrim(coalesce(p_search, '')), '') as term,
           nullif(lower(regexp_replace(coalesce(p_search, ''), '[^A-Za-z0-9]', '', 'g')), '') as key
  )
  select cp.product_id, p.name, p.franchise_id, cp.expansion, cp.collector_number, cp.rarity
    from public.card_printings cp
    join public.products p on p.id = cp.product_id
    cross join q
   where q.term is not null
     and length(q.term) >= 2
     and (p.name ilike '%' || q.term || '%'
          or cp.name_en ilike '%' || q.term || '%'
          or cp.name_es ilike '%' || q.term || '%'
          or (q.key is not null and cp.collector_key like q.key || '%'))
   order by (cp.collector_key = q.key) desc, p.name, cp.product_id
   limit least(greatest(coalesce(p_limit, 20), 1), 50)
$$;
grant execute on function public.search_card_printings(text, integer) to anon, authenticated, service_role;
