-- Who changed an order, chargebacks on orders paid with the balance, and one open OXXO voucher per
-- shopper held by the database.
--
--   order_events.actor,        a change the system makes (a reservation that expired, swept by
--   store_credit_entries.actor whichever request came first: a shopper's create_order, the
--                              sweeper) records no actor. A shopper is recorded only on their own
--                              order; an admin on any.
--   order_chargebacks          a chargeback (PayPal PAYMENT.CAPTURE.REVERSED, Stripe
--                              charge.dispute.created) on an order that used the balance
--                              (credit_applied > 0): the balance it used is held, not returned,
--                              until an admin decides (admin_resolve_chargeback). An order with a
--                              chargeback never returns its balance by itself, whatever happens to
--                              it later. Open ones are listed by admin_refunds_to_review and
--                              counted in admin_summary's refundsToReview.
--   orders_one_open_oxxo_voucher
--                              at most one pending order with an OXXO voucher per shopper, however
--                              many requests ask at once.

-- Who made a change of an order: nobody while the system is changing orders ('app.system_change'),
-- the signed-in user on their own order, an admin on any; otherwise nobody.
create or replace function public.order_change_actor(p_owner uuid)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_actor uuid := (select auth.uid());
begin
  if v_actor is null or coalesce(current_setting('app.system_change', true), '') = 'on' then
    return null;
  end if;
  if v_actor = p_owner or exists (select 1 from public.profiles p where p.id = v_actor and p.is_admin) then
    return v_actor;
  end if;
  return null;
end
$$;

revoke execute on function public.order_change_actor(uuid) from public, anon, authenticated;
grant execute on function public.order_change_actor(uuid) to service_role;

create or replace function public.orders_record_event()
returns trigger
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
      public.order_change_actor(new.user_id),
      nullif(current_setting('app.order_note', true), '')
    );
  end if;
  return new;
end
$$;

-- Reservations that ran out are cancelled by the system, whoever's request found them.
create or replace function public.cancel_expired_orders()
returns jsonb
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
       group by i.product_id
    ) s;
  select coalesce(jsonb_object_agg(s.offer_id::text, s.quantity), '{}'::jsonb) into v_offers
    from (
      select i.offer_id, sum(i.quantity)::integer as quantity
        from public.order_items i
       where i.order_id = any (v_orders) and i.offer_id is not null
       group by i.offer_id
    ) s;
  return jsonb_build_object('orders', cardinality(v_orders), 'stock', v_stock, 'offers', v_offers);
end
$$;

revoke all on function public.cancel_expired_orders() from public, anon, authenticated;

-- Chargebacks ----------------------------------------------------------------------------------

create table public.order_chargebacks (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  provider text not null check (provider in ('stripe', 'paypal', 'simulated-card', 'simulated-paypal')),
  -- The charge it takes back (the order's payment_ref) and the provider's id of the chargeback
  -- (Stripe's dispute, PayPal's reversal): one row per chargeback, however often it is notified.
  payment_ref text not null check (length(payment_ref) between 1 and 255),
  dispute_ref text not null check (length(dispute_ref) between 1 and 255),
  -- What the provider takes back, and the part of the order paid with the balance (held), in pesos.
  amount numeric(12, 2) check (amount is null or amount >= 0),
  credit_held numeric(12, 2) not null check (credit_held > 0),
  note text check (note is null or length(note) <= 500),
  -- 'open' until an admin decides: 'credit_returned' (the held balance went back to the shopper)
  -- or 'credit_kept'.
  status text not null default 'open' check (status in ('open', 'credit_returned', 'credit_kept')),
  resolved_by uuid references auth.users (id) on delete set null,
  resolved_at timestamptz,
  created_at timestamptz not null default now(),
  unique (provider, dispute_ref)
);
create index order_chargebacks_order_id_idx on public.order_chargebacks (order_id);
create index order_chargebacks_open_idx on public.order_chargebacks (created_at) where status = 'open';

alter table public.order_chargebacks enable row level security;
create policy "Order chargebacks: admins read" on public.order_chargebacks
  for select to authenticated using ((select public.is_admin()));
revoke all on public.order_chargebacks from anon, authenticated;
grant select on public.order_chargebacks to authenticated;
revoke insert, update, delete, truncate on public.order_chargebacks from service_role;
grant select on public.order_chargebacks to service_role;

-- A chargeback the provider confirmed on an order: recorded once (by the provider's id of it) when
-- the order used the balance, so that balance is held for an admin. {id, recorded, credit_held};
-- id null when the order used no balance (nothing to hold).
create or replace function public.record_chargeback(
  p_order_id uuid,
  p_provider text,
  p_payment_ref text,
  p_dispute_ref text,
  p_amount numeric default null,
  p_note text default null
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_id uuid;
begin
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found then
    raise exception 'Pedido no encontrado.' using errcode = 'P0001', detail = 'order_not_found';
  end if;
  if v_order.credit_applied <= 0 then
    return jsonb_build_object('id', null, 'recorded', false, 'credit_held', 0);
  end if;
  insert into public.order_chargebacks (order_id, provider, payment_ref, dispute_ref, amount, credit_held, note)
  values (v_order.id, p_provider, p_payment_ref, p_dispute_ref, p_amount, v_order.credit_applied, left(p_note, 500))
  on conflict (provider, dispute_ref) do nothing
  returning id into v_id;
  if v_id is not null then
    return jsonb_build_object('id', v_id, 'recorded', true, 'credit_held', v_order.credit_applied);
  end if;
  select c.id into v_id from public.order_chargebacks c where c.provider = p_provider and c.dispute_ref = p_dispute_ref;
  return jsonb_build_object('id', v_id, 'recorded', false, 'credit_held', v_order.credit_applied);
end
$$;

revoke execute on function public.record_chargeback(uuid, text, text, text, numeric, text) from public, anon, authenticated;
grant execute on function public.record_chargeback(uuid, text, text, text, numeric, text) to service_role;

-- The balance of a cancelled, expired or refunded order goes back to the shopper, unless the order
-- had a chargeback: then an admin decides (admin_resolve_chargeback).
create or replace function public.orders_return_store_credit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.credit_applied > 0
     and old.status in ('Pendiente', 'Pagado', 'Procesando', 'Enviado', 'Completado')
     and new.status in ('Cancelado', 'Fallido', 'Reembolsado')
     and not exists (select 1 from public.order_chargebacks c where c.order_id = new.id) then
    perform public.store_credit_post(
      new.user_id, round(new.credit_applied * 100)::bigint, 'order_returned', new.id, null, null,
      public.order_change_actor(new.user_id),
      case when new.status = 'Reembolsado' then 'Reembolso del pedido' else 'Pedido cancelado' end);
  end if;
  return new;
end
$$;

revoke execute on function public.orders_return_store_credit() from public, anon, authenticated;

-- An admin's decision on a chargeback: return the held balance to the shopper (once), or keep it.
create or replace function public.admin_resolve_chargeback(p_id uuid, p_return_credit boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_chargeback public.order_chargebacks%rowtype;
  v_user uuid;
  v_status text;
begin
  if not public.is_admin() then
    raise exception 'Solo un administrador puede resolver un contracargo.' using errcode = '42501', detail = 'not_admin';
  end if;
  select * into v_chargeback from public.order_chargebacks c where c.id = p_id for update;
  if not found then
    raise exception 'Contracargo no encontrado.' using errcode = 'P0001', detail = 'chargeback_not_found';
  end if;
  if v_chargeback.status <> 'open' then
    raise exception 'Este contracargo ya se resolvió.' using errcode = 'P0001', detail = 'chargeback_resolved';
  end if;
  v_status := case when coalesce(p_return_credit, false) then 'credit_returned' else 'credit_kept' end;
  if v_status = 'credit_returned' then
    select o.user_id into v_user from public.orders o where o.id = v_chargeback.order_id;
    perform public.store_credit_post(
      v_user, round(v_chargeback.credit_held * 100)::bigint, 'order_returned', v_chargeback.order_id,
      'contracargo', v_chargeback.id::text, (select auth.uid()),
      'Saldo a favor del pedido devuelto por la tienda');
  end if;
  update public.order_chargebacks c
     set status = v_status, resolved_by = (select auth.uid()), resolved_at = now()
   where c.id = v_chargeback.id;
  return jsonb_build_object('id', v_chargeback.id, 'status', v_status);
end
$$;

revoke execute on function public.admin_resolve_chargeback(uuid, boolean) from public, anon;
grant execute on function public.admin_resolve_chargeback(uuid, boolean) to authenticated, service_role;

-- What the back office must look at: refunds that have not gone through, and chargebacks that hold
-- a balance ('chargeback': amount is the balance held, last_error says what happened).
create or replace function public.admin_refunds_to_review()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'Solo un administrador puede ver los reembolsos.' using errcode = '42501', detail = 'not_admin';
  end if;
  return (
    select coalesce(jsonb_agg(x.row order by x.rank, x.created_at), '[]'::jsonb)
      from (
        select jsonb_build_object(
                 'id', r.id, 'order_id', r.order_id, 'provider', r.provider, 'amount', r.amount,
                 'status', r.status, 'attempts', r.attempts, 'last_error', r.last_error,
                 'next_attempt_at', r.next_attempt_at,
                 'customer_name', nullif(trim(concat_ws(' ', p.name, p.lastname)), ''),
                 'customer_email', u.email) as row,
               case when r.status = 'manual' then 0 else 2 end as rank,
               r.created_at
          from public.payment_refunds r
          join public.orders o on o.id = r.order_id
          left join public.profiles p on p.id = o.user_id
          left join auth.users u on u.id = o.user_id
         where r.status <> 'succeeded'
        union all
        select jsonb_build_object(
                 'id', c.id, 'order_id', c.order_id, 'provider', c.provider, 'amount', c.credit_held,
                 'status', 'chargeback', 'attempts', 0, 'last_error', c.note,
                 'next_attempt_at', null,
                 'customer_name', nullif(trim(concat_ws(' ', p.name, p.lastname)), ''),
                 'customer_email', u.email),
               1,
               c.created_at
          from public.order_chargebacks c
          join public.orders o on o.id = c.order_id
          left join public.profiles p on p.id = o.user_id
          left join auth.users u on u.id = o.user_id
         where c.status = 'open'
      ) x
  );
end
$$;

revoke execute on function public.admin_refunds_to_review() from public, anon;
grant execute on function public.admin_refunds_to_review() to authenticated, service_role;

-- The 'Reembolsos por revisar' counter of the summary counts the chargebacks listed there too.
create or replace function public.admin_summary()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_today date := (now() at time zone 'America/Mexico_City')::date;
begin
  if not public.is_admin() then
    raise exception 'Solo un administrador puede ver el resumen de la tienda.'
      using errcode = '42501', detail = 'not_admin';
  end if;
  return jsonb_build_object(
    'sales', (
      select coalesce(jsonb_agg(jsonb_build_object('day', d.day::date::text, 'orders', coalesce(s.orders, 0), 'total', coalesce(s.total, 0)) order by d.day), '[]'::jsonb)
        from generate_series(v_today - 29, v_today, interval '1 day') as d(day)
        left join (
          select (o.paid_at at time zone 'America/Mexico_City')::date as day, count(*)::integer as orders, sum(o.total) as total
            from public.orders o
           where o.paid_at is not null
             and o.status in ('Pagado', 'Procesando', 'Enviado', 'Completado')
             and o.paid_at >= (v_today - 30)::timestamp at time zone 'America/Mexico_City'
           group by 1
        ) s on s.day = d.day::date
    ),
    'toShip', (select count(*) from public.orders o where o.status in ('Pagado', 'Procesando')),
    'pendingPayment', (select count(*) from public.orders o where o.status = 'Pendiente'),
    'refundsToReview', (select count(*) from public.payment_refunds r where r.status <> 'succeeded')
                       + (select count(*) from public.order_chargebacks c where c.status = 'open'),
    'lowStock', (
      select coalesce(jsonb_agg(jsonb_build_object('id', x.id, 'name', x.name, 'stock', x.stock) order by x.stock, x.name), '[]'::jsonb)
        from (
          select p.id, p.name, p.stock from public.products p
           where p.stock <= 3 and p.available
           order by p.stock, p.name
           limit 50
        ) x
    ),
    'lowStockCount', (select count(*) from public.products p where p.stock <= 3 and p.available)
  );
end
$$;

revoke execute on function public.admin_summary() from public, anon;
grant execute on function public.admin_summary() to authenticated, service_role;

-- One open OXXO voucher per shopper ------------------------------------------------------------

do $$
begin
  if exists (
    select 1 from public.orders o
     where o.status = 'Pendiente' and o.payment_method = 'oxxo' and o.oxxo_voucher is not null
     group by o.user_id having count(*) > 1
  ) then
    raise exception 'Hay compradores con más de una ficha de OXXO pendiente; cancela o libera las sobrantes antes de esta migración.';
  end if;
end
$$;

create unique index orders_one_open_oxxo_voucher on public.orders (user_id)
  where status = 'Pendiente' and payment_method = 'oxxo' and oxxo_voucher is not null;
