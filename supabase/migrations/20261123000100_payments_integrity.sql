-- Money that stays right: every charge ends as a paid order or a refund.
--
--   orders.status 'Reembolsado'   a payment was refunded (late payment after the order was
--                                 cancelled or expired, or a refund by the shop); refunded_at and
--                                 refund_ref record it.
--   orders.shipping_address       the address the order ships to, copied (label, street, city,
--                                 state, zip, country) when the payment starts and again when the
--                                 order is paid; editing or deleting the address book never
--                                 changes it afterwards.
--   orders.points_awarded         the reward points this order gave (one per whole peso of
--                                 subtotal - discount), granted by mark_order_paid in the same
--                                 transaction, taken back when the order is refunded.
--   order_events                  every status change of every order: from, to, who, when, note.
--   payment_attempts              every provider payment the server opened for an order (Stripe
--                                 PaymentIntent, PayPal order, their simulated twins), so the
--                                 sweeper can cancel those of orders that are no longer payable.
--   payment_refunds               refunds the shop owes or made; a row that is not 'succeeded' is
--                                 a payment needing attention (payments_needing_attention) and is
--                                 retried with backoff by the sweeper.
--   sweeper_leases                one sweeper at a time, whatever the number of server processes.
--
-- Only the service role (the shop's server) writes these; admins read them; a shopper reads the
-- events of their own orders.

alter table public.orders drop constraint if exists orders_status_check;
alter table public.orders add constraint orders_status_check
  check (status in ('Pendiente', 'Pagado', 'Procesando', 'Enviado', 'Completado', 'Cancelado', 'Fallido', 'Reembolsado'));
alter table public.orders
  add column refunded_at timestamptz,
  add column refund_ref text,
  add column shipping_address jsonb
    check (shipping_address is null or jsonb_typeof(shipping_address) = 'object'),
  add column points_awarded integer not null default 0 check (points_awarded >= 0);

-- A shopper may point only a pending order at an address (a paid order keeps its copy).
drop policy "Orders: choose own shipping address" on public.orders;
create policy "Orders: choose own shipping address" on public.orders
  for update to authenticated
  using (user_id = (select auth.uid()) and status = 'Pendiente')
  with check (
    user_id = (select auth.uid())
    and status = 'Pendiente'
    and (
      shipping_address_id is null
      or exists (
        select 1 from public.addresses a
         where a.id = shipping_address_id and a.user_id = (select auth.uid())
      )
    )
  );

create or replace function public.orders_guard_update() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') and (
    new.id is distinct from old.id
    or new.user_id is distinct from old.user_id
    or new.created_at is distinct from old.created_at
    or new.status is distinct from old.status
    or new.paid_at is distinct from old.paid_at
    or new.subtotal is distinct from old.subtotal
    or new.discount is distinct from old.discount
    or new.shipping is distinct from old.shipping
    or new.total is distinct from old.total
    or new.coupon_code is distinct from old.coupon_code
    or new.payment_provider is distinct from old.payment_provider
    or new.payment_ref is distinct from old.payment_ref
    or new.expires_at is distinct from old.expires_at
    or new.refunded_at is distinct from old.refunded_at
    or new.refund_ref is distinct from old.refund_ref
    or new.shipping_address is distinct from old.shipping_address
    or new.points_awarded is distinct from old.points_awarded
  ) then
    raise exception 'Solo se puede cambiar la dirección de envío de un pedido.' using errcode = '42501';
  end if;
  return new;
end
$$;

-- Order history -------------------------------------------------------------------------------

create table public.order_events (
  id bigint generated always as identity primary key,
  order_id uuid not null references public.orders (id) on delete cascade,
  created_at timestamptz not null default now(),
  from_status text,
  to_status text not null,
  -- The signed-in user who caused it; null for the shop itself (payments, sweeper).
  actor uuid references auth.users (id) on delete set null,
  note text check (note is null or length(note) <= 500)
);
create index order_events_order_id_idx on public.order_events (order_id, created_at);
alter table public.order_events enable row level security;
create policy "Order events: read own or admin" on public.order_events
  for select to authenticated using (
    public.is_admin()
    or exists (select 1 from public.orders o where o.id = order_id and o.user_id = (select auth.uid()))
  );
revoke all on public.order_events from anon, authenticated;
grant select on public.order_events to authenticated;

/** Records every status change; a function may explain it with set_config('app.order_note', …, true). */
create or replace function public.orders_record_event() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' or new.status is distinct from old.status then
    insert into public.order_events (order_id, from_status, to_status, actor, note)
    values (
      new.id,
      case when tg_op = 'INSERT' then null else old.status end,
      new.status,
      (select auth.uid()),
      nullif(current_setting('app.order_note', true), '')
    );
  end if;
  return new;
end
$$;
create trigger orders_record_event
  after insert or update of status on public.orders
  for each row execute function public.orders_record_event();
revoke execute on function public.orders_record_event() from public, anon, authenticated;

-- Provider payments and refunds ---------------------------------------------------------------

create table public.payment_attempts (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  provider text not null check (provider in ('stripe', 'paypal', 'simulated-card', 'simulated-paypal')),
  ref text not null check (length(ref) between 1 and 255),
  status text not null default 'open' check (status in ('open', 'succeeded', 'canceled')),
  last_error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (provider, ref)
);
create index payment_attempts_open_idx on public.payment_attempts (order_id) where status = 'open';
create trigger payment_attempts_set_updated_at
  before update on public.payment_attempts
  for each row execute function public.set_updated_at();

create table public.payment_refunds (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  provider text not null check (provider in ('stripe', 'paypal', 'simulated-card', 'simulated-paypal')),
  -- The charge being refunded: Stripe PaymentIntent id, PayPal capture id.
  payment_ref text not null check (length(payment_ref) between 1 and 255),
  amount numeric(12, 2) not null check (amount > 0),
  -- late_payment: money arrived for an order no longer payable; duplicate: a second payment of a
  -- paid order; mismatch: a charge that does not match the order; shop: refunded by the shop.
  reason text not null check (reason in ('late_payment', 'duplicate', 'mismatch', 'shop')),
  status text not null default 'processing' check (status in ('processing', 'failed', 'succeeded')),
  refund_ref text,
  attempts integer not null default 1,
  last_error text,
  next_attempt_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (provider, payment_ref)
);
create index payment_refunds_due_idx on public.payment_refunds (next_attempt_at) where status <> 'succeeded';
create trigger payment_refunds_set_updated_at
  before update on public.payment_refunds
  for each row execute function public.set_updated_at();

alter table public.payment_attempts enable row level security;
alter table public.payment_refunds enable row level security;
create policy "Payment attempts: admins read" on public.payment_attempts
  for select to authenticated using (public.is_admin());
create policy "Payment refunds: admins read" on public.payment_refunds
  for select to authenticated using (public.is_admin());
revoke all on public.payment_attempts, public.payment_refunds from anon, authenticated;
grant select on public.payment_attempts, public.payment_refunds to authenticated;

/** Refunds that have not gone through yet: what an admin must keep an eye on. */
create view public.payments_needing_attention with (security_invoker = true) as
  select r.id, r.order_id, r.provider, r.payment_ref, r.amount, r.reason, r.status, r.attempts,
         r.last_error, r.next_attempt_at, r.created_at
    from public.payment_refunds r
   where r.status <> 'succeeded';
revoke all on public.payments_needing_attention from anon, authenticated;
grant select on public.payments_needing_attention to authenticated;

/** The address row as the order's copy. */
create or replace function public.address_snapshot(address_id uuid) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
           'label', a.label, 'street', a.street, 'city', a.city, 'state', a.state,
           'zip', a.zip, 'country', a.country)
    from public.addresses a
   where a.id = address_snapshot.address_id
$$;

/**
 * Marks an order paid once the payment provider confirmed it. Idempotent: returns true when it
 * changed the order, false when the order was already paid (or further along). In the same
 * transaction it copies the shipping address onto the order and grants the reward points.
 */
create or replace function public.mark_order_paid(order_id uuid, provider text, ref text) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_points integer;
begin
  select * into v_order from public.orders o where o.id = mark_order_paid.order_id for update;
  if not found then
    raise exception 'Pedido no encontrado.' using errcode = 'P0001', detail = 'order_not_found';
  end if;
  if v_order.status in ('Cancelado', 'Fallido', 'Reembolsado') then
    raise exception 'El pedido está cancelado; el pago debe reembolsarse.'
      using errcode = 'P0001', detail = 'order_cancelled';
  end if;
  if v_order.status <> 'Pendiente' or v_order.paid_at is not null then
    return false;
  end if;
  v_points := greatest(floor(v_order.subtotal - v_order.discount), 0)::integer;
  perform set_config('app.order_note', 'Pago confirmado por ' || provider, true);
  update public.orders o
     set status = 'Pagado', paid_at = now(), payment_provider = provider, payment_ref = ref,
         expires_at = null,
         shipping_address = coalesce(public.address_snapshot(v_order.shipping_address_id), v_order.shipping_address),
         points_awarded = v_points
   where o.id = v_order.id;
  perform set_config('app.order_note', '', true);
  if v_points > 0 then
    insert into public.rewards as r (user_id, points) values (v_order.user_id, v_points)
    on conflict (user_id) do update set points = r.points + excluded.points;
  end if;
  return true;
end
$$;

/**
 * Claims the refund of one charge: true for exactly one caller per (provider, payment_ref); every
 * other caller gets false and must not call the provider.
 */
create or replace function public.claim_refund(
  p_order_id uuid, p_provider text, p_payment_ref text, p_amount numeric, p_reason text
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id uuid;
begin
  insert into public.payment_refunds (order_id, provider, payment_ref, amount, reason)
  values (p_order_id, p_provider, p_payment_ref, p_amount, p_reason)
  on conflict (provider, payment_ref) do nothing
  returning id into v_id;
  if v_id is not null then
    return jsonb_build_object('id', v_id, 'claimed', true);
  end if;
  select r.id into v_id from public.payment_refunds r
   where r.provider = p_provider and r.payment_ref = p_payment_ref;
  return jsonb_build_object('id', v_id, 'claimed', false);
end
$$;

/**
 * The provider refunded the charge: the refund is recorded and, unless it only undid a duplicate or
 * mismatched payment, the order becomes 'Reembolsado' (its reward points taken back, and its stock returned
 * when the order still held it).
 */
create or replace function public.complete_refund(p_refund_id uuid, p_refund_ref text) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_refund public.payment_refunds%rowtype;
  v_order public.orders%rowtype;
  r record;
begin
  select * into v_refund from public.payment_refunds where id = p_refund_id for update;
  if not found then
    raise exception 'Reembolso no encontrado.' using errcode = 'P0001', detail = 'refund_not_found';
  end if;
  select * into v_order from public.orders o where o.id = v_refund.order_id for update;
  update public.payment_refunds
     set status = 'succeeded', refund_ref = p_refund_ref, last_error = null
   where id = v_refund.id;
  if v_refund.reason in ('duplicate', 'mismatch') or v_order.status = 'Reembolsado' then
    return v_order.status;
  end if;
  if v_order.status not in ('Cancelado', 'Fallido') then
    -- The order still held its stock: it goes back on sale.
    for r in
      select i.product_id, sum(i.quantity)::integer as quantity
        from public.order_items i
       where i.order_id = v_order.id and i.product_id is not null
       group by i.product_id
       order by i.product_id
    loop
      update public.products p set stock = p.stock + r.quantity where p.id = r.product_id;
    end loop;
  end if;
  if v_order.points_awarded > 0 then
    update public.rewards w set points = greatest(w.points - v_order.points_awarded, 0)
     where w.user_id = v_order.user_id;
  end if;
  perform set_config('app.order_note',
    case v_refund.reason when 'late_payment' then 'Pago recibido después de cancelar o expirar el pedido; reembolsado'
                         else 'Reembolsado por la tienda' end, true);
  update public.orders o
     set status = 'Reembolsado', refunded_at = now(), refund_ref = p_refund_ref,
         points_awarded = 0, expires_at = null
   where o.id = v_order.id;
  perform set_config('app.order_note', '', true);
  return 'Reembolsado';
end
$$;

/** A refund attempt failed: it stays visible and is retried with backoff (1, 2, 4 … 60 minutes). */
create or replace function public.fail_refund(p_refund_id uuid, p_error text) returns void
language sql
security definer
set search_path = ''
as $$
  update public.payment_refunds r
     set status = 'failed',
         last_error = left(p_error, 1000),
         next_attempt_at = now() + least(interval '1 minute' * power(2, greatest(r.attempts - 1, 0)), interval '60 minutes')
   where r.id = p_refund_id and r.status <> 'succeeded'
$$;

/**
 * Refunds due for another attempt (failed and due, or stuck in processing for 5 minutes), taken
 * with skip locked so two sweepers never retry the same one.
 */
create or replace function public.claim_due_refunds(p_limit integer default 20) returns setof public.payment_refunds
language sql
security definer
set search_path = ''
as $$
  update public.payment_refunds r
     set status = 'processing', attempts = r.attempts + 1
   where r.id in (
     select d.id from public.payment_refunds d
      where (d.status = 'failed' and d.next_attempt_at <= now())
         or (d.status = 'processing' and d.updated_at <= now() - interval '5 minutes')
      order by d.next_attempt_at
      limit greatest(p_limit, 0)
      for update skip locked
   )
  returning r.*
$$;

-- The sweeper ------------------------------------------------------------------------------------

/** As before, and the order history says why: 'La reserva expiró'. */
create or replace function public.cancel_expired_orders() returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_orders uuid[];
  v_stock jsonb;
begin
  select coalesce(array_agg(due.id order by due.id), '{}') into v_orders
    from (
      select e.id from public.orders e
       where e.status = 'Pendiente' and e.expires_at is not null and e.expires_at <= now()
       order by e.id
       for update
    ) due;
  if cardinality(v_orders) = 0 then
    return jsonb_build_object('orders', 0, 'stock', '{}'::jsonb);
  end if;
  perform set_config('app.order_note', 'La reserva expiró', true);
  update public.orders o set status = 'Cancelado' where o.id = any (v_orders);
  perform set_config('app.order_note', '', true);

  select coalesce(jsonb_object_agg(s.product_id, s.quantity), '{}'::jsonb) into v_stock
    from (
      select i.product_id, sum(i.quantity)::integer as quantity
        from public.order_items i
       where i.order_id = any (v_orders) and i.product_id is not null
       group by i.product_id
    ) s;
  return jsonb_build_object('orders', cardinality(v_orders), 'stock', v_stock);
end
$$;
revoke execute on function public.cancel_expired_orders() from public, anon, authenticated, service_role;

create table public.sweeper_leases (
  name text primary key,
  holder text not null,
  expires_at timestamptz not null
);
alter table public.sweeper_leases enable row level security;
revoke all on public.sweeper_leases from anon, authenticated;

/**
 * One sweep: takes the 'payments' lease for p_seconds (only one holder at a time across server
 * processes), then releases the expired reservations. Returns {"leader": bool, "released": n}; a
 * caller that is not the leader does nothing else.
 */
create or replace function public.sweep_expired_orders(p_holder text, p_seconds integer default 50) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_holder text;
begin
  insert into public.sweeper_leases as l (name, holder, expires_at)
  values ('payments', p_holder, now() + make_interval(secs => p_seconds))
  on conflict (name) do update
     set holder = excluded.holder, expires_at = excluded.expires_at
   where l.expires_at <= now() or l.holder = excluded.holder
  returning holder into v_holder;
  if v_holder is null then
    return jsonb_build_object('leader', false, 'released', 0);
  end if;
  return jsonb_build_object('leader', true, 'released', public.release_expired_orders());
end
$$;

/** Gives the lease back at the end of a sweep, so the next one does not wait for it to expire. */
create or replace function public.end_sweep(p_holder text) returns void
language sql
security definer
set search_path = ''
as $$
  delete from public.sweeper_leases where name = 'payments' and holder = p_holder
$$;

revoke execute on function public.address_snapshot(uuid) from public, anon, authenticated;
revoke execute on function public.claim_refund(uuid, text, text, numeric, text) from public, anon, authenticated;
revoke execute on function public.complete_refund(uuid, text) from public, anon, authenticated;
revoke execute on function public.fail_refund(uuid, text) from public, anon, authenticated;
revoke execute on function public.claim_due_refunds(integer) from public, anon, authenticated;
revoke execute on function public.sweep_expired_orders(text, integer) from public, anon, authenticated;
revoke execute on function public.end_sweep(text) from public, anon, authenticated;
grant execute on function public.address_snapshot(uuid) to service_role;
grant execute on function public.claim_refund(uuid, text, text, numeric, text) to service_role;
grant execute on function public.complete_refund(uuid, text) to service_role;
grant execute on function public.fail_refund(uuid, text) to service_role;
grant execute on function public.claim_due_refunds(integer) to service_role;
grant execute on function public.sweep_expired_orders(text, integer) to service_role;
grant execute on function public.end_sweep(text) to service_role;
grant select, insert, update on public.payment_attempts, public.payment_refunds to service_role;
grant select on public.order_events, public.payments_needing_attention to service_role;

-- The Orders tab and the account summary follow rewards live.
do $$
begin
  if not exists (
    select 1 from pg_publication_tables
     where pubname = 'supabase_realtime' and schemaname = 'public' and tablename = 'rewards'
  ) then
    alter publication supabase_realtime add table public.rewards;
  end if;
end
$$;

-- The simulated provider keeps its refunds too, and finds a PayPal order by its capture.
alter table simulated_payments.objects drop constraint if exists objects_kind_check;
alter table simulated_payments.objects add constraint objects_kind_check
  check (kind in ('customer', 'payment_method', 'payment_intent', 'paypal_order', 'refund'));

create or replace function public.simulated_payments_find_capture(p_capture_id text) returns text
language sql
stable
security definer
set search_path = ''
as $$
  select o.id from simulated_payments.objects o
   where o.kind = 'paypal_order' and o.data ->> 'capture_id' = p_capture_id
   limit 1
$$;
revoke execute on function public.simulated_payments_find_capture(text) from public, anon, authenticated;
grant execute on function public.simulated_payments_find_capture(text) to service_role;
