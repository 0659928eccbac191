/**
 * An order as the server reads it (with the service role), and what every payment asks of it:
 * whose it is, whether it can still take a payment, what a provider charges for it, and the copy
 * of the address it ships to.
 */
import type { Json } from '~/data/database.types.ts';
import { paymentAmount } from '~/domain/money.ts';
import type { ServerContext } from '../context.ts';
import type { Caller } from '../http/auth.ts';
import { ApiError } from '../http/json.ts';

/** An order as the server reads it. */
export interface OrderRow {
  id: string;
  user_id: string;
  status: string;
  subtotal: string | number;
  discount: string | number;
  shipping: string | number;
  total: string | number;
  paid_at: string | null;
  expires_at: string | null;
  shipping_address_id: string | null;
  shipping_address: ShippingAddress | null;
  payment_provider: string | null;
  payment_ref: string | null;
  payment_method?: string | null;
  installments?: number | null;
  oxxo_voucher?: Record<string, unknown> | null;
  /** The part paid with the shopper's balance (pesos, like total). */
  credit_applied?: string | number;
}

/** The copy of the address an order ships to (orders.shipping_address). A type, so it is JSON. */
export type ShippingAddress = {
  label: string | null;
  street: string;
  city: string;
  state: string | null;
  zip: string | null;
  country: string | null;
};

/** The stored address copy, when the JSON column holds one. */
function shippingAddressOf(value: Json | null): ShippingAddress | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const text = (key: string) => {
    const field = value[key];
    return typeof field === 'string' ? field : null;
  };
  const street = text('street');
  const city = text('city');
  if (street === null || city === null) return null;
  return { label: text('label'), street, city, state: text('state'), zip: text('zip'), country: text('country') };
}

/** The stored OXXO voucher, when the JSON column holds one. */
function voucherOf(value: Json | null): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
}

const ORDER_COLUMNS =
  'id, user_id, status, subtotal, discount, shipping, total, paid_at, expires_at, shipping_address_id, shipping_address, payment_provider, payment_ref, payment_method, installments, oxxo_voucher, credit_applied';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads an order by id with the service role; null when there is none. */
export async function findOrder(ctx: ServerContext, orderId: string): Promise<OrderRow | null> {
  if (!UUID.test(orderId)) return null;
  const { data, error } = await ctx.admin.from('orders').select(ORDER_COLUMNS).eq('id', orderId).maybeSingle();
  if (error) throw new Error(`orders: ${error.message}`);
  if (!data) return null;
  return { ...data, shipping_address: shippingAddressOf(data.shipping_address), oxxo_voucher: voucherOf(data.oxxo_voucher) };
}

/** The caller's own order: 404 when it does not exist, 403 when it is someone else's. */
export async function ownOrder(ctx: ServerContext, caller: Caller, orderId: string): Promise<OrderRow> {
  const order = await findOrder(ctx, orderId);
  if (!order) throw new ApiError(404, 'Pedido no encontrado.', 'order_not_found');
  if (order.user_id !== caller.id) throw new ApiError(403, 'Este pedido no es tuyo.', 'forbidden');
  return order;
}

/** What the shopper reads when an order can no longer take a payment (cancelled or expired). */
export const ORDER_NOT_PAYABLE = 'Este pedido ya no se puede pagar: la reserva expiró o fue cancelado.';

/** Refuses (409) an order that can no longer take a payment: paid, cancelled or expired. */
export function requirePayable(order: OrderRow): OrderRow {
  if (order.status === 'Pagado' || order.paid_at) throw new ApiError(409, 'Este pedido ya está pagado.', 'order_paid');
  const expired = order.expires_at !== null && Date.parse(order.expires_at) <= Date.now();
  if (order.status !== 'Pendiente' || expired) {
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
 * copied onto the order (mark_order_paid copies it again at payment). 409 otherwise.
 */
export async function requireShippingAddress(ctx: ServerContext, order: OrderRow): Promise<ShippingAddress> {
  const refuse = () => new ApiError(409, 'Selecciona una dirección válida.', 'address_required');
  if (!order.shipping_address_id) throw refuse();
  const { data, error } = await ctx.admin
    .from('addresses')
    .select('label, street, city, state, zip, country, user_id')
    .eq('id', order.shipping_address_id)
    .maybeSingle();
  if (error) throw new Error(`addresses: ${error.message}`);
  const row = data;
  if (!row || row.user_id !== order.user_id || !row.street?.trim() || !row.city?.trim()) throw refuse();
  const copy: ShippingAddress = { label: row.label, street: row.street, city: row.city, state: row.state, zip: row.zip, country: row.country };
  const { error: saveError } = await ctx.admin.from('orders').update({ shipping_address: copy }).eq('id', order.id).eq('status', 'Pendiente');
  if (saveError) throw new Error(`orders: ${saveError.message}`);
  return copy;
}

/**
 * The order's amount to charge through a provider, in centavos: its stored total ("one total")
 * less the part paid with the shopper's balance.
 */
export function orderAmount(order: Pick<OrderRow, 'total' | 'credit_applied'>): number {
  return paymentAmount(order.total) - paymentAmount(order.credit_applied ?? 0);
}

/** The address copy as one line for e-mails. */
export function addressLine(address: ShippingAddress | null): string | null {
  if (!address) return null;
  const line = [address.street, address.city, address.state, address.zip, address.country]
    .filter((part) => typeof part === 'string' && part.trim() !== '')
    .join(', ');
  return line === '' ? null : line;
}
