-- Paying the Mexican way: cash at OXXO (a voucher, the order stays 'Pendiente' until the store
-- reports the payment or the voucher expires) and 'meses sin intereses' on credit cards.

alter table public.orders
  add column if not exists payment_method text
    check (payment_method is null or payment_method in ('card', 'oxxo', 'paypal')),
  -- The months of a 'meses sin intereses' plan the card was charged in; null: a single payment.
  add column if not exists installments smallint
    check (installments is null or installments in (3, 6, 9, 12, 18, 24)),
  -- The OXXO voucher as the shopper needs it again: {reference, expiresAt, amount, hostedVoucherUrl}.
  add column if not exists oxxo_voucher jsonb
    check (oxxo_voucher is null or jsonb_typeof(oxxo_voucher) = 'object');

/** As before (payments integrity, back office), and the payment method columns are the shop's too. */
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
    or new.carrier is distinct from old.carrier
    or new.tracking_number is distinct from old.tracking_number
    or new.shipped_at is distinct from old.shipped_at
    or new.completed_at is distinct from old.completed_at
    or new.payment_method is distinct from old.payment_method
    or new.installments is distinct from old.installments
    or new.oxxo_voucher is distinct from old.oxxo_voucher
  ) then
    raise exception 'Solo se puede cambiar la dirección de envío de un pedido.' using errcode = '42501';
  end if;
  return new;
end
$$;
revoke execute on function public.orders_guard_update() from public, anon, authenticated;
