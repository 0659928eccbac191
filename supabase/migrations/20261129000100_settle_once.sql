-- A charge is settled once, the amount is checked under the order's lock, and an order is refunded once.
--
-- 1. mark_order_paid takes the amount charged (centavos) and its currency, and decides everything
--    under the order's row lock:
--    - a charge that is the order's recorded payment (payment_provider, payment_ref) is already
--      settled, whatever the order's status is now (paid, shipped, refunded to the balance or by
--      bank transfer, cancelled by the shop): it answers false and nothing happens, so a repeated
--      confirmation, webhook, capture or sweep never refunds or credits that charge again;
--    - a cancelled, failed or refunded order refuses any other charge (order_cancelled: refund it);
--    - an order already paid by another charge refuses this one (order_paid_other: a duplicate);
--    - a charge that is not exactly what the order still owes (total - credit_applied), in MXN,
--      is refused (amount_mismatch), so releasing the balance while a card or PayPal payment for
--      the rest is being confirmed can never leave the order paid for less than its total.
-- 2. release_store_credit refuses while a provider payment attempt of the order is open (the
--    server first closes the attempts it can, at the provider).
-- 3. Every way the shop refunds an order (claim_refund through the provider, and
--    refund_order_without_provider to the balance or by bank transfer) starts with
--    lock_order_for_refund: it locks the order and refuses one that is already refunded, has a
--    refund in progress or is not paid. A refund without the provider records the order's charge
--    as refunded in payment_refunds, so no later path can refund or credit it again.

drop function public.mark_order_paid(uuid, text, text);

create function public.mark_order_paid(order_id uuid, provider text, ref text, amount bigint, currency text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_points integer;
  v_due bigint;
begin
  select * into v_order from public.orders o where o.id = mark_order_paid.order_id for update;
  if not found then
    raise exception 'Pedido no encontrado.' using errcode = 'P0001', detail = 'order_not_found';
  end if;
  -- The order's own payment: settled when it was recorded, whatever became of the order since.
  if v_order.payment_provider = mark_order_paid.provider and v_order.payment_ref = mark_order_paid.ref then
    return false;
  end if;
  if v_order.status in ('Cancelado', 'Fallido', 'Reembolsado') then
    raise exception 'El pedido está cancelado; el pago debe reembolsarse.'
      using errcode = 'P0001', detail = 'order_cancelled';
  end if;
  if v_order.status <> 'Pendiente' or v_order.paid_at is not null then
    raise exception 'El pedido ya está pagado con otro cargo; este debe reembolsarse.'
      using errcode = 'P0001', detail = 'order_paid_other';
  end if;
  v_due := round((v_order.total - v_order.credit_applied) * 100)::bigint;
  if mark_order_paid.amount is distinct from v_due or lower(coalesce(mark_order_paid.currency, '')) <> 'mxn' then
    raise exception 'El cargo no coincide con lo que debe el pedido; debe reembolsarse.'
      using errcode = 'P0001', detail = 'amount_mismatch';
  end if;
  v_points := greatest(floor(v_order.subtotal - v_order.discount), 0)::integer;
  perform set_config('app.order_note', 'Pago confirmado por ' || mark_order_paid.provider, true);
  update public.orders o
     set status = 'Pagado', paid_at = now(), payment_provider = mark_order_paid.provider, payment_ref = mark_order_paid.ref,
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
end;
$$;

revoke all on function public.mark_order_paid(uuid, text, text, bigint, text) from public, anon, authenticated;
grant execute on function public.mark_order_paid(uuid, text, text, bigint, text) to service_role;

create or replace function public.apply_store_credit(p_order_id uuid, p_user uuid)
returns jsonb
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
    -- Nothing is left to charge: the balance pays the whole order.
    perform public.mark_order_paid(v_order.id, 'store_credit', 'saldo-' || v_order.id::text, 0, 'mxn');
    update public.orders o set payment_method = 'store_credit', installments = null where o.id = v_order.id;
    v_status := 'Pagado';
  end if;
  return jsonb_build_object('applied', v_use, 'credit', round((v_order.credit_applied) * 100)::bigint + v_use, 'due', v_due - v_use, 'status', v_status);
end;
$$;

create or replace function public.release_store_credit(p_order_id uuid, p_user uuid)
returns bigint
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
  -- A card or PayPal payment for the rest may be confirmed at this moment: the balance stays on
  -- the order until that attempt is over (paid, or closed at the provider).
  if exists (select 1 from public.payment_attempts a where a.order_id = v_order.id and a.status = 'open') then
    raise exception 'Hay un pago en curso para este pedido; espera a que termine para liberar tu saldo a favor.'
      using errcode = 'P0001', detail = 'payment_in_progress';
  end if;
  update public.orders o set credit_applied = 0 where o.id = v_order.id;
  perform public.store_credit_post(p_user, v_amount, 'order_returned', v_order.id, null, null, null, 'Saldo liberado del pedido');
  return v_amount;
end;
$$;

create function public.lock_order_for_refund(p_order_id uuid)
returns public.orders
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_status text;
begin
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found then
    raise exception 'Pedido no encontrado.' using errcode = 'P0001', detail = 'order_not_found';
  end if;
  -- A provider refund that succeeded made the order 'Reembolsado' in the same transaction; one
  -- still being tried could go through later, so refunding again now would pay the shopper twice.
  -- One that stopped ('manual') is settled by a refund without the provider.
  select r.status into v_status from public.payment_refunds r
   where r.order_id = v_order.id and r.reason = 'shop' and r.status in ('processing', 'failed', 'succeeded')
   order by r.status = 'succeeded' desc
   limit 1;
  if v_order.status = 'Reembolsado' or v_status = 'succeeded' then
    raise exception 'Este pedido ya se reembolsó.' using errcode = 'P0001', detail = 'order_refunded';
  end if;
  if v_status is not null then
    raise exception 'Hay un reembolso en curso para este pedido; espera a que termine o a que pase a atención manual.'
      using errcode = 'P0001', detail = 'refund_in_progress';
  end if;
  if v_order.status not in ('Pagado', 'Procesando', 'Enviado', 'Completado') then
    raise exception 'Solo se reembolsa un pedido pagado, en proceso, enviado o completado; este está «%».', v_order.status
      using errcode = 'P0001', detail = 'order_not_refundable';
  end if;
  return v_order;
end;
$$;

revoke all on function public.lock_order_for_refund(uuid) from public, anon, authenticated;
grant execute on function public.lock_order_for_refund(uuid) to service_role;

create or replace function public.claim_refund(p_order_id uuid, p_provider text, p_payment_ref text, p_amount numeric, p_reason text, p_restock boolean default false)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id uuid;
begin
  if p_reason = 'shop' then
    -- The shop refunds an order once: whoever clicks second (another admin, another tab, another
    -- way of refunding) is told why, under the order's lock.
    perform public.lock_order_for_refund(p_order_id);
  end if;
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
end;
$$;

create or replace function public.refund_order_without_provider(p_order_id uuid, p_way text, p_restock boolean, p_actor uuid, p_reference text default null)
returns jsonb
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
  v_order := public.lock_order_for_refund(p_order_id);
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
  -- The charge that paid the order is now refunded: record it where every refund of a charge is
  -- recorded, so no later path (a replayed webhook, a repeated confirmation) refunds it again.
  if v_amount > 0 and v_order.payment_ref is not null
     and v_order.payment_provider in ('stripe', 'paypal', 'simulated-card', 'simulated-paypal') then
    insert into public.payment_refunds (order_id, provider, payment_ref, amount, reason, status, refund_ref, restock, last_error)
    values (v_order.id, v_order.payment_provider, v_order.payment_ref, v_amount / 100.0, 'shop', 'succeeded', v_ref,
            coalesce(p_restock, false), 'Reembolsado sin el proveedor: ' || v_ref)
    on conflict (provider, payment_ref) do update
      set status = 'succeeded', refund_ref = excluded.refund_ref, last_error = excluded.last_error;
  end if;
  return jsonb_build_object('status', v_status, 'amount', v_amount, 'ref', v_ref);
end;
$$;
