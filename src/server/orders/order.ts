/**
 * What every payment asks of an order (read by order-row.ts): whose it is, whether it can still
 * take a payment, what a provider charges for it, and the copy of the address it ships to.
 */
import { type Centavos, centavos } from '~/domain/money.ts';
import { ORDER_STATUS } from '~/domain/orders.ts';
import { SHIPPING_ADDRESS_GAP_MESSAGES, shippingAddressGap } from '~/domain/validation/address.ts';
import { ADDRESS_INCOMPLETE_TEXT } from '~/i18n/addresses.ts';
import { PAYMENTS_ORDER_TEXT } from '~/i18n/payments.ts';
import type { ServerContext } from '../context.ts';
import type { Caller } from '../http/auth.ts';
import { ApiError } from '../http/json.ts';
import { findOrder, type OrderRow, type ShippingAddress } from './order-row.ts';

/** The caller's own order: 404 when it does not exist, 403 when it is someone else's. */
export async function ownOrder(ctx: ServerContext, caller: Caller, orderId: string): Promise<OrderRow> {
  const order = await findOrder(ctx, orderId);
  if (!order) throw new ApiError(404, PAYMENTS_ORDER_TEXT.notFound, 'order_not_found');
  if (order.user_id !== caller.id) throw new ApiError(403, PAYMENTS_ORDER_TEXT.notYours, 'forbidden');
  return order;
}

/** What the shopper reads when an order can no longer take a payment (cancelled or expired). */
export const ORDER_NOT_PAYABLE = PAYMENTS_ORDER_TEXT.notPayable;

/** Refuses (409) an order that can no longer take a payment: paid, cancelled or expired. */
export function requirePayable(order: OrderRow): OrderRow {
  if (order.status === ORDER_STATUS.paid || order.paid_at) throw new ApiError(409, PAYMENTS_ORDER_TEXT.alreadyPaid, 'order_paid');
  const expired = order.expires_at !== null && Date.parse(order.expires_at) <= Date.now();
  if (order.status !== ORDER_STATUS.pending || expired) {
    throw new ApiError(409, ORDER_NOT_PAYABLE, 'order_not_payable');
  }
  return order;
}

/** The caller's order, still waiting for its payment; 409 otherwise. */
export async function payableOrder(ctx: ServerContext, caller: Caller, orderId: string): Promise<OrderRow> {
  return requirePayable(await ownOrder(ctx, caller, orderId));
}

/**
 * Before a payment starts: the order must point at one of the buyer's own addresses, which is
 * copied onto the order (mark_order_paid copies it again at payment). 409 otherwise; an address
 * a courier cannot deliver to (for México: no número exterior, colonia, municipio, estado, 5-digit
 * postal code or 10-digit phone, as an address saved before those were asked) is refused with
 * the address form's own message, 409 'address_incomplete'. The database refuses the same copy
 * (orders_shipping_address_complete), so no path can skip the rule.
 */
export async function requireShippingAddress(ctx: ServerContext, order: OrderRow): Promise<ShippingAddress> {
  const refuse = () => new ApiError(409, PAYMENTS_ORDER_TEXT.addressRequired, 'address_required');
  if (!order.shipping_address_id) throw refuse();
  const { data, error } = await ctx.admin
    .from('addresses')
    .select('label, street, exterior_number, interior_number, neighborhood, municipality, city, state, zip, country, delivery_references, phone, user_id')
    .eq('id', order.shipping_address_id)
    .maybeSingle();
  if (error) throw new Error(`addresses: ${error.message}`);
  const row = data;
  // A Mexican address may leave the city empty: its municipio is where the courier goes.
  if (!row || row.user_id !== order.user_id) throw refuse();
  const copy: ShippingAddress = {
    label: row.label,
    street: row.street,
    exterior_number: row.exterior_number,
    interior_number: row.interior_number,
    neighborhood: row.neighborhood,
    municipality: row.municipality,
    city: row.city,
    state: row.state,
    zip: row.zip,
    country: row.country,
    references: row.delivery_references,
    phone: row.phone,
  };
  const gap = shippingAddressGap(copy);
  if (gap) throw incompleteAddress(gap);
  const { error: saveError } = await ctx.admin.from('orders').update({ shipping_address: copy }).eq('id', order.id).eq('status', ORDER_STATUS.pending);
  if (saveError?.details === 'address_incomplete') throw incompleteAddress(saveError.hint);
  if (saveError) throw new Error(`orders: ${saveError.message}`);
  return copy;
}

/** 409 naming the part the address lacks, in the words of the address form. */
function incompleteAddress(gap: string | null | undefined): ApiError {
  const part = gap && gap in SHIPPING_ADDRESS_GAP_MESSAGES ? SHIPPING_ADDRESS_GAP_MESSAGES[gap as keyof typeof SHIPPING_ADDRESS_GAP_MESSAGES] : null;
  return new ApiError(409, part ? ADDRESS_INCOMPLETE_TEXT.missing(part) : ADDRESS_INCOMPLETE_TEXT.generic, 'address_incomplete');
}

/**
 * The order's amount to charge through a provider: its stored total ("one total") less the part
 * paid with the shopper's balance.
 */
export function orderAmount(order: Pick<OrderRow, 'total' | 'credit_applied'>): Centavos {
  return centavos(order.total - order.credit_applied);
}
