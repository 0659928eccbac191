-- Cash at OXXO that is never lost, and a balance in the shop ('saldo a favor').
--
--   store_credit_accounts     one row per shopper with a balance: the row every change locks, and
--                             the balance in centavos (never negative), always the sum of its
--                             entries.
--   store_credit_entries      the ledger, append-only: every credit (+) and debit (-) in centavos,
--                             why, the order and the charge it came from, who made it, when.
--   orders.credit_applied     the part of the order paid with the balance (pesos, like total); the
--                             provider charges total - credit_applied. When the order is cancelled,
--                             expires or is refunded, that part returns to the balance.
--   payment_refunds           'manual' ('Requiere atención manual'): a refund that failed
--                             MAX attempts times stops being retried; restock: whether a refund of
--                             a shipped order puts its units back on sale.
--   payment_attempts          next_check_at: the sweeper backs off an attempt it could not close.
--
-- OXXO payments cannot be refunded through Stripe: money for an order that can no longer take it
-- becomes a credit (store_credit_post with the charge as reference, once per charge). Only
-- database functions change the balance; a shopper reads their own entries, admins read all.

alter table public.orders drop constraint if exists orders_payment_method_check;
alter table public.orders add constraint orders_payment_method_check
  check (payment_method is null or payment_method in ('card', 'oxxo', 'paypal', 'store_credit'));
alter table public.orders
  add column credit_applied numeric(12, 2) not null default 0
    check (credit_applied >= 0 and credit_applied <= total);

create table public.store_credit_accounts (
  user_id uuid primary key references auth.users (id) on delete cascade,
  balance bigint not null default 0 check (balance >= 0),
  updated_at timestamptz not null default now()
);

create table public.store_credit_entries (
  id bigint generated always as identity primary key,
  user_id uuid not null references public.store_credit_accounts (user_id) on delete cascade,
  -- Centavos: positive adds to the balance, negative spends it.
  amount bigint not null check (amount <> 0),
  balance_after bigint not null check (balance_after >= 0),
  -- oxxo_payment: cash at OXXO that its order could not take (late, second payment, order no
  -- longer possible); refund: an order refunded to the balance; order_payment: spent on an order;
  -- order_returned: the part of an order paid with the balance, back after it was cancelled,
  -- expired or refunded; adjustment: set by an admin.
  reason text not null check (reason in ('oxxo_payment', 'refund', 'order_payment', 'order_returned', 'adjustment')),
  order_id uuid references public.orders (id) on delete set null,
  payment_provider text,
  payment_ref text check (payment_ref is null or length(payment_ref) between 1 and 255),
  -- The signed-in user who caused it (an admin); null for the shop itself.
  actor uuid references auth.users (id) on delete set null,
  note text check (note is null or length(note) <= 500),
  created_at timestamptz not null default now()
);
create index store_credit_entries_user_idx on public.store_credit_entries (user_id, created_at desc, id desc);
-- A charge becomes a credit at most once, whoever reports it.
create unique index store_credit_entries_charge_once on public.store_credit_entries (payment_provider, payment_ref)
  where payment_ref is not null;

alter table public.store_credit_accounts enable row level security;
alter table public.store_credit_entries enable row level security;
create policy "Store credit: read own or admin" on public.store_credit_accounts
  for select to authenticated using (user_id = (select auth.uid()) or public.is_admin());
create policy "Store credit entries: read own or admin" on public.store_credit_entries
  for select to authenticated using (user_id = (select auth.uid()) or public.is_admin());
revoke all on public.store_credit_accounts, public.store_credit_entries from anon, authenticated;
grant select on public.store_credit_accounts, public.store_credit_entries to authenticated;
-- Even the shop's server changes the balance only through the functions below: the ledger stays
-- append-only and the balance the sum of its entries.
revoke insert, update, delete, truncate on public.store_credit_accounts, public.store_credit_entries from service_role;
grant select on public.store_credit_accounts, public.store_credit_entries to service_role;

/**
 * The one way the balance changes: locks the shopper's account row, refuses to go below zero
 * (detail 'insufficient_credit'), appends the entry. A credit that names a charge
 * (p_provider, p_ref) is made once: asking again answers the first entry with created = false.
 * Returns {id, created, balance}.
 */
create or replace function public.store_credit_post(
  p_user uuid,
  p_amount bigint,
  p_reason text,
  p_order uuid default null,
  p_provider text default null,
  p_ref text default null,
  p_actor uuid default null,
  p_note text default null
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_balance bigint;
  v_id bigint;
begin
  if p_amount is null or p_amount = 0 then
    raise exception 'El monto no puede ser cero.' using errcode = 'P0001', detail = 'invalid_amount';
  end if;
  insert into public.store_credit_accounts (user_id) values (p_user) on conflict (user_id) do nothing;
  select a.balance into v_balance from public.store_credit_accounts a where a.user_id = p_user for update;
  if p_ref is not null then
    select e.id into v_id from public.store_credit_entries e
     where e.payment_provider is not distinct from p_provider and e.payment_ref = p_ref;
    if v_id is not null then
      return jsonb_build_object('id', v_id, 'created', false, 'balance', v_balance);
    end if;
  end if;
  if v_balance + p_amount < 0 then
    raise exception 'Tu saldo a favor no alcanza.' using errcode = 'P0001', detail = 'insufficient_credit';
  end if;
  update public.store_credit_accounts a set balance = v_balance + p_amount, updated_at = now() where a.user_id = p_user;
  insert into public.store_credit_entries (user_id, amount, balance_after, reason, order_id, payment_provider, payment_ref, actor, note)
  values (p_user, p_amount, v_balance + p_amount, p_reason, p_order, p_provider, p_ref, p_actor, left(p_note, 500))
  returning id into v_id;
  return jsonb_build_object('id', v_id, 'created', true, 'balance', v_balance + p_amount);
end
$$;

/** The caller's balance in centavos (0 without an account). */
create or replace function public.my_store_credit() returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select a.balance from public.store_credit_accounts a where a.user_id = (select auth.uid())), 0)
$$;

/**
 * Pays a pending order with the shopper's balance: as much as the balance covers of what is still
 * due (total - credit_applied). When it covers all of it, the order is 'Pagado' at once (provider
 * 'store_credit'). Refused while the order has an OXXO voucher (detail 'oxxo_voucher_open': the
 * voucher is for the whole amount). Returns {applied, credit, due, status} in centavos.
 */
create or replace function public.apply_store_credit(p_order_id uuid, p_user uuid) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_due bigint;
  v_balance bigint;
  v_use bigint;
  v_status text;
begin
  select * into v_order from public.orders o where o.id = p_order_id and o.user_id = p_user for update;
  if not found then
    raise exception 'Pedido no encontrado.' using errcode = 'P0001', detail = 'order_not_found';
  end if;
  if v_order.status <> 'Pendiente' or (v_order.expires_at is not null and v_order.expires_at <= now()) then
    raise exception 'Este pedido ya no se puede pagar: la reserva expiró o fue cancelado.'
      using errcode = 'P0001', detail = 'order_not_payable';
  end if;
  if v_order.payment_method = 'oxxo' and v_order.oxxo_voucher is not null then
    raise exception 'Tienes una ficha de OXXO pendiente para este pedido.'
      using errcode = 'P0001', detail = 'oxxo_voucher_open';
  end if;
  v_due := round((v_order.total - v_order.credit_applied) * 100)::bigint;
  insert into public.store_credit_accounts (user_id) values (p_user) on conflict (user_id) do nothing;
  select a.balance into v_balance from public.store_credit_accounts a where a.user_id = p_user for update;
  v_use := least(v_balance, v_due);
  if v_use <= 0 then
    raise exception 'No tienes saldo a favor.' using errcode = 'P0001', detail = 'no_credit';
  end if;
  perform public.store_credit_post(p_user, -v_use, 'order_payment', v_order.id, null, null, null, null);
  update public.orders o set credit_applied = o.credit_applied + v_use / 100.0 where o.id = v_order.id;
  v_status := 'Pendiente';
  if v_use = v_due then
    perform public.mark_order_paid(v_order.id, 'store_credit', 'saldo-' || v_order.id::text);
    update public.orders o set payment_method = 'store_credit', installments = null where o.id = v_order.id;
    v_status := 'Pagado';
  end if;
  return jsonb_build_object('applied', v_use, 'credit', round((v_order.credit_applied) * 100)::bigint + v_use, 'due', v_due - v_use, 'status', v_status);
end
$$;

/**
 * Gives back the balance applied to a pending order (the shopper chose to pay it all another
 * way). Returns the centavos returned (0 when none was applied).
 */
create or replace function public.release_store_credit(p_order_id uuid, p_user uuid) returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_amount bigint;
begin
  select * into v_order from public.orders o where o.id = p_order_id and o.user_id = p_user for update;
  if not found then
    raise exception 'Pedido no encontrado.' using errcode = 'P0001', detail = 'order_not_found';
  end if;
  if v_order.status <> 'Pendiente' then
    raise exception 'Este pedido ya no se puede pagar: la reserva expiró o fue cancelado.'
      using errcode = 'P0001', detail = 'order_not_payable';
  end if;
  v_amount := round(v_order.credit_applied * 100)::bigint;
  if v_amount = 0 then
    return 0;
  end if;
  update public.orders o set credit_applied = 0 where o.id = v_order.id;
  perform public.store_credit_post(p_user, v_amount, 'order_returned', v_order.id, null, null, null, 'Saldo liberado del pedido');
  return v_amount;
end
$$;

/**
 * When an order that held balance is cancelled, expires, fails or is refunded, the balance it
 * used returns to the shopper, in the same transaction (whoever made the change).
 */
create or replace function public.orders_return_store_credit() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.credit_applied > 0
     and old.status in ('Pendiente', 'Pagado', 'Procesando', 'Enviado', 'Completado')
     and new.status in ('Cancelado', 'Fallido', 'Reembolsado') then
    perform public.store_credit_post(
      new.user_id, round(new.credit_applied * 100)::bigint, 'order_returned', new.id, null, null,
      (select auth.uid()),
      case when new.status = 'Reembolsado' then 'Reembolso del pedido' else 'Pedido cancelado' end);
  end if;
  return new;
end
$$;
create trigger orders_return_store_credit
  after update of status on public.orders
  for each row execute function public.orders_return_store_credit();
revoke execute on function public.orders_return_store_credit() from public, anon, authenticated;

-- Refunds --------------------------------------------------------------------------------------

alter table public.payment_refunds drop constraint if exists payment_refunds_status_check;
alter table public.payment_refunds add constraint payment_refunds_status_check
  check (status in ('processing', 'failed', 'succeeded', 'manual'));
alter table public.payment_refunds add column restock boolean not null default false;

/**
 * Closes an order as refunded, however the money went back (provider, balance, bank transfer):
 * reward points taken back, 'Reembolsado', the note in its history. Its units go back on sale
 * when it had not left the shop (paid or processing), or when p_restock says they came back.
 */
create or replace function public.finish_order_refund(p_order_id uuid, p_refund_ref text, p_note text, p_restock boolean)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  r record;
begin
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if v_order.status = 'Reembolsado' then
    return v_order.status;
  end if;
  if v_order.status in ('Pendiente', 'Pagado', 'Procesando')
     or (p_restock and v_order.status in ('Enviado', 'Completado')) then
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
  perform set_config('app.order_note', p_note, true);
  update public.orders o
     set status = 'Reembolsado', refunded_at = now(), refund_ref = p_refund_ref,
         points_awarded = 0, expires_at = null
   where o.id = v_order.id;
  perform set_config('app.order_note', '', true);
  return 'Reembolsado';
end
$$;

/** As before, through finish_order_refund (a shipped order's units return only when restocked). */
create or replace function public.complete_refund(p_refund_id uuid, p_refund_ref text) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_refund public.payment_refunds%rowtype;
  v_order public.orders%rowtype;
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
  -- A late payment refunds an order already cancelled, whose stock came back then.
  return public.finish_order_refund(
    v_order.id, p_refund_ref,
    case v_refund.reason when 'late_payment' then 'Pago recibido después de cancelar o expirar el pedido; reembolsado'
                         else 'Reembolsado por la tienda' end,
    v_refund.restock);
end
$$;

/**
 * The back office refunds without the provider: to the shopper's balance ('store_credit', the
 * way back for cash paid at OXXO, or by the admin's choice) or by a bank transfer the shop made
 * ('bank_transfer', with its reference). The part of the order the provider took is credited or
 * recorded; the part paid with the balance returns through orders_return_store_credit.
 */
create or replace function public.refund_order_without_provider(
  p_order_id uuid, p_way text, p_restock boolean, p_actor uuid, p_reference text default null
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_amount bigint;
  v_ref text;
  v_status text;
begin
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found then
    raise exception 'Pedido no encontrado.' using errcode = 'P0001', detail = 'order_not_found';
  end if;
  if v_order.status not in ('Pagado', 'Procesando', 'Enviado', 'Completado') then
    raise exception 'Solo se reembolsa un pedido pagado, en proceso, enviado o completado; este está «%».', v_order.status
      using errcode = 'P0001', detail = 'order_not_refundable';
  end if;
  -- A provider refund still being tried could go through later: refunding another way now would
  -- pay the shopper twice. One that stopped ('manual') is settled by this refund instead.
  if exists (
    select 1 from public.payment_refunds r
     where r.order_id = v_order.id and r.reason = 'shop' and r.status in ('processing', 'failed')
  ) then
    raise exception 'Hay un reembolso por el proveedor en curso para este pedido; espera a que termine o a que pase a atención manual.'
      using errcode = 'P0001', detail = 'refund_in_progress';
  end if;
  v_amount := round((v_order.total - v_order.credit_applied) * 100)::bigint;
  if p_way = 'store_credit' then
    v_ref := 'saldo-' || v_order.id::text;
    if v_amount > 0 then
      perform public.store_credit_post(
        v_order.user_id, v_amount, 'refund', v_order.id, 'refund:' || coalesce(v_order.payment_provider, 'tienda'),
        coalesce(v_order.payment_ref, v_order.id::text), p_actor, 'Reembolso del pedido a tu saldo a favor');
    end if;
    v_status := public.finish_order_refund(v_order.id, v_ref, 'Reembolsado a saldo a favor', p_restock);
  elsif p_way = 'bank_transfer' then
    if p_reference is null or length(trim(p_reference)) not between 4 and 100 then
      raise exception 'Escribe la referencia de la transferencia (de 4 a 100 caracteres).'
        using errcode = 'P0001', detail = 'reference_required';
    end if;
    v_ref := 'transferencia:' || trim(p_reference);
    v_status := public.finish_order_refund(v_order.id, v_ref, 'Reembolsado por transferencia bancaria (' || trim(p_reference) || ')', p_restock);
  else
    raise exception 'Forma de reembolso no válida.' using errcode = 'P0001', detail = 'invalid_refund_way';
  end if;
  update public.payment_refunds r
     set status = 'succeeded', refund_ref = v_ref, last_error = 'Resuelto por la tienda: ' || v_ref
   where r.order_id = v_order.id and r.status = 'manual';
  return jsonb_build_object('status', v_status, 'amount', v_amount, 'ref', v_ref);
end
$$;

/** Refund claims carry whether a shipped order's units come back. */
drop function if exists public.claim_refund(uuid, text, text, numeric, text);
create or replace function public.claim_refund(
  p_order_id uuid, p_provider text, p_payment_ref text, p_amount numeric, p_reason text, p_restock boolean default false
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id uuid;
begin
  insert into public.payment_refunds (order_id, provider, payment_ref, amount, reason, restock)
  values (p_order_id, p_provider, p_payment_ref, p_amount, p_reason, coalesce(p_restock, false))
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
 * A refund attempt failed: retried with backoff (1, 2, 4 … 60 minutes) up to p_max_attempts
 * attempts, then 'manual' ('Requiere atención manual'): nobody retries it any more.
 */
drop function if exists public.fail_refund(uuid, text);
create or replace function public.fail_refund(p_refund_id uuid, p_error text, p_max_attempts integer default 8) returns text
language sql
security definer
set search_path = ''
as $$
  update public.payment_refunds r
     set status = case when r.attempts >= p_max_attempts then 'manual' else 'failed' end,
         last_error = left(p_error, 1000),
         next_attempt_at = now() + least(interval '1 minute' * power(2, greatest(r.attempts - 1, 0)), interval '60 minutes')
   where r.id = p_refund_id and r.status not in ('succeeded', 'manual')
  returning r.status
$$;

/** Refunds due for another attempt, of the providers the calling server has (p_providers). */
drop function if exists public.claim_due_refunds(integer);
create or replace function public.claim_due_refunds(p_limit integer default 20, p_providers text[] default '{}')
returns setof public.payment_refunds
language sql
security definer
set search_path = ''
as $$
  update public.payment_refunds r
     set status = 'processing', attempts = r.attempts + 1
   where r.id in (
     select d.id from public.payment_refunds d
      where d.provider = any (p_providers)
        and ((d.status = 'failed' and d.next_attempt_at <= now())
          or (d.status = 'processing' and d.updated_at <= now() - interval '5 minutes'))
      order by d.next_attempt_at
      limit greatest(p_limit, 0)
      for update skip locked
   )
  returning r.*
$$;

/** What an admin must look at: refunds not done, with whose money it is. Admins only. */
create or replace function public.admin_refunds_to_review() returns jsonb
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
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', r.id, 'order_id', r.order_id, 'provider', r.provider, 'amount', r.amount,
             'status', r.status, 'attempts', r.attempts, 'last_error', r.last_error,
             'next_attempt_at', r.next_attempt_at,
             'customer_name', nullif(trim(concat_ws(' ', p.name, p.lastname)), ''),
             'customer_email', u.email) order by (r.status = 'manual') desc, r.created_at), '[]'::jsonb)
      from public.payment_refunds r
      join public.orders o on o.id = r.order_id
      left join public.profiles p on p.id = o.user_id
      left join auth.users u on u.id = o.user_id
     where r.status <> 'succeeded'
  );
end
$$;

-- Provider payments the sweeper could not close wait before the next look.
alter table public.payment_attempts
  add column next_check_at timestamptz not null default now(),
  add column checks integer not null default 0;

/** The sweeper could not close an attempt: look again after 1, 2, 4 … 60 minutes. */
create or replace function public.defer_payment_attempt(p_attempt_id uuid, p_error text) returns void
language sql
security definer
set search_path = ''
as $$
  update public.payment_attempts a
     set checks = a.checks + 1,
         last_error = left(p_error, 1000),
         next_check_at = now() + least(interval '1 minute' * power(2, a.checks), interval '60 minutes')
   where a.id = p_attempt_id
$$;

revoke execute on function public.store_credit_post(uuid, bigint, text, uuid, text, text, uuid, text) from public, anon, authenticated;
revoke execute on function public.apply_store_credit(uuid, uuid) from public, anon, authenticated;
revoke execute on function public.release_store_credit(uuid, uuid) from public, anon, authenticated;
revoke execute on function public.finish_order_refund(uuid, text, text, boolean) from public, anon, authenticated;
revoke execute on function public.refund_order_without_provider(uuid, text, boolean, uuid, text) from public, anon, authenticated;
revoke execute on function public.claim_refund(uuid, text, text, numeric, text, boolean) from public, anon, authenticated;
revoke execute on function public.fail_refund(uuid, text, integer) from public, anon, authenticated;
revoke execute on function public.claim_due_refunds(integer, text[]) from public, anon, authenticated;
revoke execute on function public.defer_payment_attempt(uuid, text) from public, anon, authenticated;
revoke execute on function public.my_store_credit() from public, anon;
revoke execute on function public.admin_refunds_to_review() from public, anon;
grant execute on function public.store_credit_post(uuid, bigint, text, uuid, text, text, uuid, text) to service_role;
grant execute on function public.apply_store_credit(uuid, uuid) to service_role;
grant execute on function public.release_store_credit(uuid, uuid) to service_role;
grant execute on function public.finish_order_refund(uuid, text, text, boolean) to service_role;
grant execute on function public.refund_order_without_provider(uuid, text, boolean, uuid, text) to service_role;
grant execute on function public.claim_refund(uuid, text, text, numeric, text, boolean) to service_role;
grant execute on function public.fail_refund(uuid, text, integer) to service_role;
grant execute on function public.claim_due_refunds(integer, text[]) to service_role;
grant execute on function public.defer_payment_attempt(uuid, text) to service_role;
grant execute on function public.my_store_credit() to authenticated, service_role;
grant execute on function public.admin_refunds_to_review() to authenticated;

-- The account follows its balance live.
do $$
begin
  if not exists (
    select 1 from pg_publication_tables
     where pubname = 'supabase_realtime' and schemaname = 'public' and tablename = 'store_credit_entries'
  ) then
    alter publication supabase_realtime add table public.store_credit_entries;
  end if;
end
$$;

/**
 * As before, but an order waiting for its OXXO voucher is not cancelled from the browser: the
 * voucher may already be paid at the store. The shop's server cancels it (POST
 * /api/payments/oxxo/cancel) only once Stripe has cancelled the voucher.
 */
create or replace function public.cancel_order(order_id uuid) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  r record;
begin
  select * into v_order from public.orders o
   where o.id = cancel_order.order_id and o.user_id = (select auth.uid())
   for update;
  if not found then
    raise exception 'Pedido no encontrado.' using errcode = 'P0001', detail = 'order_not_found';
  end if;
  if v_order.status <> 'Pendiente' then
    raise exception 'Solo se puede cancelar un pedido pendiente.'
      using errcode = 'P0001', detail = 'order_not_cancellable';
  end if;
  if v_order.payment_method = 'oxxo' and v_order.oxxo_voucher is not null then
    raise exception 'Tienes una ficha de OXXO pendiente para este pedido.'
      using errcode = 'P0001', detail = 'oxxo_voucher_open';
  end if;
  update public.orders o set status = 'Cancelado' where o.id = v_order.id;
  for r in
    select i.product_id, sum(i.quantity)::integer as quantity
      from public.order_items i
     where i.order_id = v_order.id and i.product_id is not null
     group by i.product_id
     order by i.product_id
  loop
    update public.products p set stock = p.stock + r.quantity where p.id = r.product_id;
  end loop;
  return true;
end
$$;
