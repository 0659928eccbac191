-- Preorder campaigns: a sealed product (or one offer of a single whose set is not out yet) sold
-- before it is in the shop's hands. A campaign says when it comes out, when orders open and close,
-- how many units the shop expects (the allocation: a cap on units sold, 0 = no cap) and how many
-- units one order and one shopper may take. Shoppers pay at order time; a preorder line takes no
-- stock (there is none yet): it is counted against the allocation and waits, in preorder_lines,
-- for the goods to arrive (20261129002100_preorder_arrivals.sql fills, waitlists or refunds it).
create table public.preorder_campaigns (
  id uuid primary key default gen_random_uuid(),
  product_id text not null references public.products (id) on update cascade on delete cascade,
  -- One offer of a single; null for a sealed product as a whole.
  offer_id uuid references public.card_offers (id) on delete cascade,
  release_date date not null,
  opens_at timestamptz not null,
  closes_at timestamptz not null,
  allocation integer not null default 0 check (allocation between 0 and 1000000),
  per_customer_limit integer not null check (per_customer_limit between 1 and 10000),
  per_order_limit integer not null check (per_order_limit between 1 and 10000),
  published boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (closes_at > opens_at)
);
comment on table public.preorder_campaigns is 'Preorder campaigns: release date, order window, allocation (0 = no cap) and limits of a product or offer.';
create unique index preorder_campaigns_one_per_product on public.preorder_campaigns (product_id) where offer_id is null;
create unique index preorder_campaigns_one_per_offer on public.preorder_campaigns (offer_id) where offer_id is not null;

-- Each preorder line of an order: its units wait here for the goods. 'awaiting' until an arrival
-- decides it: 'allocated' (filled), 'waitlisted' (the shopper chose to wait for the next shipment)
-- or 'refunded' (paid back: no units for it).
create table public.preorder_lines (
  order_id uuid not null references public.orders (id) on delete cascade,
  campaign_id uuid not null references public.preorder_campaigns (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  product_id text not null,
  offer_id uuid,
  quantity integer not null check (quantity between 1 and 10000),
  -- 'Si no alcanza, mantenerme en lista de espera', chosen at checkout.
  waitlist boolean not null default false,
  status text not null default 'awaiting' check (status in ('awaiting', 'allocated', 'waitlisted', 'refunded')),
  arrival_id uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (order_id, campaign_id)
);
create index preorder_lines_campaign_idx on public.preorder_lines (campaign_id, status);
create index preorder_lines_user_idx on public.preorder_lines (user_id);

-- Every arrival of goods for a campaign, once per idempotency key (a repeated click replays it).
create table public.preorder_arrivals (
  id uuid primary key default gen_random_uuid(),
  campaign_id uuid not null references public.preorder_campaigns (id) on delete cascade,
  idempotency_key text not null unique check (length(idempotency_key) between 8 and 100),
  quantity integer not null check (quantity between 0 and 1000000),
  actor uuid references auth.users (id) on delete set null,
  result jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);
create index preorder_arrivals_campaign_idx on public.preorder_arrivals (campaign_id, created_at);
alter table public.preorder_lines
  add constraint preorder_lines_arrival_fkey foreign key (arrival_id) references public.preorder_arrivals (id) on delete set null;

-- Every change of a preorder line's status, and every campaign saved.
create table public.preorder_events (
  id bigint generated always as identity primary key,
  campaign_id uuid not null references public.preorder_campaigns (id) on delete cascade,
  order_id uuid references public.orders (id) on delete cascade,
  arrival_id uuid references public.preorder_arrivals (id) on delete set null,
  from_status text,
  to_status text not null,
  actor uuid references auth.users (id) on delete set null,
  note text check (note is null or length(note) <= 500),
  created_at timestamptz not null default now()
);
create index preorder_events_campaign_idx on public.preorder_events (campaign_id, created_at);

alter table public.preorder_campaigns enable row level security;
alter table public.preorder_lines enable row level security;
alter table public.preorder_arrivals enable row level security;
alter table public.preorder_events enable row level security;
create policy "Preorder campaigns: read published" on public.preorder_campaigns
  for select to anon, authenticated using (published);
create policy "Preorder campaigns: admins read" on public.preorder_campaigns
  for select to authenticated using ((select public.is_admin()));
create policy "Preorder lines: read own" on public.preorder_lines
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Preorder lines: admins read" on public.preorder_lines
  for select to authenticated using ((select public.is_admin()));
create policy "Preorder arrivals: admins read" on public.preorder_arrivals
  for select to authenticated using ((select public.is_admin()));
create policy "Preorder events: admins read" on public.preorder_events
  for select to authenticated using ((select public.is_admin()));
revoke all on public.preorder_campaigns, public.preorder_lines, public.preorder_arrivals, public.preorder_events from anon, authenticated;
grant select on public.preorder_campaigns to anon, authenticated;
grant select on public.preorder_lines, public.preorder_arrivals, public.preorder_events to authenticated;
grant all on public.preorder_campaigns, public.preorder_lines, public.preorder_arrivals, public.preorder_events to service_role;

do $$
begin
  if not exists (
    select 1 from pg_publication_tables
     where pubname = 'supabase_realtime' and schemaname = 'public' and tablename = 'preorder_lines'
  ) then
    alter publication supabase_realtime add table public.preorder_lines;
  end if;
end
$$;

-- Units of a campaign in live orders: paid (not refunded) or pending and not expired. What the
-- allocation caps.
create function public.preorder_units_taken(p_campaign_id uuid) returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(sum(l.quantity), 0)::integer
    from public.preorder_lines l
    join public.orders o on o.id = l.order_id
   where l.campaign_id = p_campaign_id
     and l.status <> 'refunded'
     and (
       o.status in ('Pagado', 'Procesando', 'Enviado', 'Completado')
       or (o.status = 'Pendiente' and (o.expires_at is null or o.expires_at > now()))
     );
$$;
revoke all on function public.preorder_units_taken(uuid) from public, anon, authenticated;
grant execute on function public.preorder_units_taken(uuid) to service_role;

-- What the product page shows live: each published campaign of the product (and its offers), its
-- window, release date and the units still open (null when there is no cap).
create function public.preorder_availability(p_product_id text)
returns table (
  campaign_id uuid, offer_id uuid, release_date date, opens_at timestamptz, closes_at timestamptz, remaining integer
)
language sql
stable
security definer
set search_path = ''
as $$
  select c.id, c.offer_id, c.release_date, c.opens_at, c.closes_at,
         case when c.allocation = 0 then null
              else greatest(c.allocation - public.preorder_units_taken(c.id), 0) end
    from public.preorder_campaigns c
   where c.product_id = p_product_id and c.published
   order by c.offer_id nulls first;
$$;
revoke all on function public.preorder_availability(text) from public;
grant execute on function public.preorder_availability(text) to anon, authenticated, service_role;

-- The back office creates or edits a campaign (one per product, or per offer of a single). The
-- product is marked as a preorder with its release date, so the catalogue shows it as one.
create function public.admin_save_preorder_campaign(
  p_product_id text,
  p_offer_id uuid,
  p_release_date date,
  p_opens_at timestamptz,
  p_closes_at timestamptz,
  p_allocation integer,
  p_per_customer_limit integer,
  p_per_order_limit integer,
  p_published boolean default true
) returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id uuid;
  v_single boolean;
  v_taken integer;
begin
  if not public.is_admin() then
    raise exception 'Solo un administrador puede editar preventas.' using errcode = '42501', detail = 'not_admin';
  end if;
  if p_release_date is null or p_opens_at is null or p_closes_at is null then
    raise exception 'Faltan las fechas de la preventa.' using errcode = 'P0001', detail = 'dates_required';
  end if;
  if p_closes_at <= p_opens_at then
    raise exception 'La preventa debe cerrar después de abrir.' using errcode = 'P0001', detail = 'window_invalid';
  end if;
  if p_allocation is null or p_allocation < 0 or p_allocation > 1000000 then
    raise exception 'La asignación debe ser un entero entre 0 y 1000000 (0 = sin límite).'
      using errcode = 'P0001', detail = 'allocation_invalid';
  end if;
  if p_per_customer_limit is null or p_per_customer_limit not between 1 and 10000
     or p_per_order_limit is null or p_per_order_limit not between 1 and 10000 then
    raise exception 'Los límites por cliente y por pedido deben ser enteros entre 1 y 10000.'
      using errcode = 'P0001', detail = 'limits_invalid';
  end if;
  if p_per_order_limit > p_per_customer_limit then
    raise exception 'El límite por pedido no puede ser mayor que el límite por cliente.'
      using errcode = 'P0001', detail = 'limits_invalid';
  end if;

  perform 1 from public.products p where p.id = p_product_id for update;
  if not found then
    raise exception 'El producto «%» no existe.', p_product_id using errcode = 'P0001', detail = 'product_not_found';
  end if;
  v_single := exists (select 1 from public.card_printings c where c.product_id = p_product_id);
  if p_offer_id is null and v_single then
    raise exception 'Elige la oferta de la carta que sale en preventa.' using errcode = 'P0001', detail = 'offer_required';
  end if;
  if p_offer_id is not null and not exists (
    select 1 from public.card_offers o where o.id = p_offer_id and o.product_id = p_product_id
  ) then
    raise exception 'La oferta elegida no es de este producto.' using errcode = 'P0001', detail = 'offer_not_found';
  end if;

  select c.id into v_id from public.preorder_campaigns c
   where c.product_id = p_product_id and c.offer_id is not distinct from p_offer_id
   for update;
  if found then
    v_taken := public.preorder_units_taken(v_id);
    if p_allocation > 0 and p_allocation < v_taken then
      raise exception 'Ya hay % unidades apartadas: la asignación no puede ser menor.', v_taken
        using errcode = 'P0001', detail = 'allocation_below_orders', hint = v_taken::text;
    end if;
    update public.preorder_campaigns c
       set release_date = p_release_date, opens_at = p_opens_at, closes_at = p_closes_at,
           allocation = p_allocation, per_customer_limit = p_per_customer_limit,
           per_order_limit = p_per_order_limit, published = coalesce(p_published, true), updated_at = now()
     where c.id = v_id;
  else
    insert into public.preorder_campaigns
      (product_id, offer_id, release_date, opens_at, closes_at, allocation, per_customer_limit, per_order_limit, published)
    values (p_product_id, p_offer_id, p_release_date, p_opens_at, p_closes_at, p_allocation,
            p_per_customer_limit, p_per_order_limit, coalesce(p_published, true))
    returning id into v_id;
  end if;
  if p_offer_id is null then
    update public.products p set preorder = coalesce(p_published, true), release_date = p_release_date
     where p.id = p_product_id
       and (p.preorder is distinct from coalesce(p_published, true) or p.release_date is distinct from p_release_date);
  end if;
  insert into public.preorder_events (campaign_id, to_status, actor, note)
  values (v_id, 'saved', (select auth.uid()),
          format('Ventana %s – %s, asignación %s, límites %s por cliente y %s por pedido',
                 p_opens_at, p_closes_at, p_allocation, p_per_customer_limit, p_per_order_limit));
  return v_id;
end;
$$;
revoke all on function public.admin_save_preorder_campaign(text, uuid, date, timestamptz, timestamptz, integer, integer, integer, boolean) from public, anon, authenticated;
grant execute on function public.admin_save_preorder_campaign(text, uuid, date, timestamptz, timestamptz, integer, integer, integer, boolean) to authenticated, service_role;

-- A preorder line took no stock when it was ordered, so an expired, cancelled or refunded order
-- gives none back for it, unless an arrival filled it (then its units are in the shop's hands).
-- Same bodies as before, with that one filter.
create or replace function public.cancel_expired_orders() returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_orders uuid[];
  v_stock jsonb;
  v_offers jsonb;
begin
  select coalesce(array_agg(due.id order by due.id), '{}') into v_orders
    from (
      select e.id from public.orders e
       where e.status = 'Pendiente' and e.expires_at is not null and e.expires_at <= now()
       order by e.id
       for update
    ) due;
  if cardinality(v_orders) = 0 then
    return jsonb_build_object('orders', 0, 'stock', '{}'::jsonb, 'offers', '{}'::jsonb);
  end if;
  perform set_config('app.order_note', 'La reserva expiró', true);
  perform set_config('app.system_change', 'on', true);
  update public.orders o set status = 'Cancelado' where o.id = any (v_orders);
  perform set_config('app.system_change', '', true);
  perform set_config('app.order_note', '', true);

  select coalesce(jsonb_object_agg(s.product_id, s.quantity), '{}'::jsonb) into v_stock
    from (
      select i.product_id, sum(i.quantity)::integer as quantity
        from public.order_items i
       where i.order_id = any (v_orders) and i.product_id is not null
         and i.offer_id is null and i.offer_label is null
         and not public.order_item_is_unfilled_preorder(i.order_id, i.product_id, i.offer_id)
       group by i.product_id
    ) s;
  select coalesce(jsonb_object_agg(s.offer_id::text, s.quantity), '{}'::jsonb) into v_offers
    from (
      select i.offer_id, sum(i.quantity)::integer as quantity
        from public.order_items i
       where i.order_id = any (v_orders) and i.offer_id is not null
         and not public.order_item_is_unfilled_preorder(i.order_id, i.product_id, i.offer_id)
       group by i.offer_id
    ) s;
  return jsonb_build_object('orders', cardinality(v_orders), 'stock', v_stock, 'offers', v_offers);
end
$$;

create function public.order_item_is_unfilled_preorder(p_order_id uuid, p_product_id text, p_offer_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.preorder_lines l
     where l.order_id = p_order_id and l.product_id = p_product_id
       and l.offer_id is not distinct from p_offer_id and l.status <> 'allocated'
  );
$$;
revoke all on function public.order_item_is_unfilled_preorder(uuid, text, uuid) from public, anon, authenticated;
grant execute on function public.order_item_is_unfilled_preorder(uuid, text, uuid) to service_role;

create or replace function public.restock_order_items(p_orders uuid[]) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  r record;
begin
  for r in
    select i.product_id, sum(i.quantity)::integer as quantity
      from public.order_items i
     where i.order_id = any (p_orders) and i.product_id is not null
       and i.offer_id is null and i.offer_label is null
       and not public.order_item_is_unfilled_preorder(i.order_id, i.product_id, i.offer_id)
     group by i.product_id
     order by i.product_id
  loop
    update public.products p set stock = p.stock + r.quantity where p.id = r.product_id;
  end loop;
  for r in
    select i.offer_id, sum(i.quantity)::integer as quantity
      from public.order_items i
     where i.order_id = any (p_orders) and i.offer_id is not null
       and not public.order_item_is_unfilled_preorder(i.order_id, i.product_id, i.offer_id)
     group by i.offer_id
     order by i.offer_id
  loop
    update public.card_offers c set stock = c.stock + r.quantity where c.id = r.offer_id;
  end loop;
end
$$;
