/**
 * The orders tables as the server reads them with the service role, in the shop's own types. The
 * database keeps amounts as pesos (`numeric`, sent by PostgREST as numbers or strings); they become
 * Centavos here, once, and every other server module works in Centavos. The way back (a peso
 * amount for a database function's `numeric` parameter) is here too.
 */
import { type AddressCopy, parseAddressCopy } from '~/domain/address-copy.ts';
import { type Centavos, centavos, centavosToDecimalString, toCentavos } from '~/domain/money.ts';
import type { OrderStatus } from '~/domain/orders.ts';
import { PAYMENTS_ORDER_ROW_TEXT } from '~/i18n/payments.ts';
import type { ServerContext } from '../context.ts';

/** An order as the server reads it; the amounts are Centavos. */
export interface OrderRow {
  id: string;
  user_id: string;
  status: OrderStatus;
  subtotal: Centavos;
  discount: Centavos;
  shipping: Centavos;
  total: Centavos;
  /** The part paid with the shopper's balance. */
  credit_applied: Centavos;
  paid_at: string | null;
  expires_at: string | null;
  shipping_address_id: string | null;
  /** The copy of the address it ships to (orders.shipping_address); null unless it has a street and a city. */
  shipping_address: ShippingAddress | null;
  payment_provider: string | null;
  payment_ref: string | null;
  payment_method: string | null;
  installments: number | null;
  /** The funding of the card that paid (credit, debit, prepaid, unknown); null unless paid by card. */
  card_funding: string | null;
  oxxo_voucher: Record<string, unknown> | null;
}

/** An address copy an order can ship to: it names a street and a city. */
export type ShippingAddress = AddressCopy & { street: string; city: string };

/** The stored copy, when it names a street and a city (domain/address-copy.ts reads the column). */
export function shippingAddressOf(value: unknown): ShippingAddress | null {
  const copy = parseAddressCopy(value);
  return copy && copy.street !== null && copy.city !== null ? { ...copy, street: copy.street, city: copy.city } : null;
}

/** The stored OXXO voucher, when the JSON column holds one. */
function voucherOf(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

const ORDER_COLUMNS =
  'id, user_id, status, subtotal, discount, shipping, total, paid_at, expires_at, shipping_address_id, shipping_address, payment_provider, payment_ref, payment_method, installments, card_funding, oxxo_voucher, credit_applied';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads an order by id with the service role; null when there is none. */
export async function findOrder(ctx: ServerContext, orderId: string): Promise<OrderRow | null> {
  if (!UUID.test(orderId)) return null;
  const { data, error } = await ctx.admin.from('orders').select(ORDER_COLUMNS).eq('id', orderId).maybeSingle();
  if (error) throw new Error(`orders: ${error.message}`);
  if (!data) return null;
  return {
    ...data,
    status: data.status as OrderStatus,
    subtotal: toCentavos(data.subtotal),
    discount: toCentavos(data.discount),
    shipping: toCentavos(data.shipping),
    total: toCentavos(data.total),
    credit_applied: toCentavos(data.credit_applied ?? 0),
    payment_method: data.payment_method ?? null,
    installments: data.installments ?? null,
    card_funding: data.card_funding ?? null,
    shipping_address: shippingAddressOf(data.shipping_address),
    oxxo_voucher: voucherOf(data.oxxo_voucher),
  };
}

/**
 * One line of an order as its e-mails show it: the product's name, the single card's offer as
 * sold ('LP · Inglés · Parallel', null for a product sold as a whole), quantity and unit price paid.
 */
export interface OrderLine {
  name: string;
  offerLabel: string | null;
  quantity: number;
  price: Centavos;
}

/** The order's lines (order_items), named by their product ('Producto no disponible' once it is gone) and offer. */
export async function findOrderLines(ctx: ServerContext, orderId: string): Promise<OrderLine[]> {
  const { data, error } = await ctx.admin.from('order_items').select('quantity, price, offer_label, products(name)').eq('order_id', orderId);
  if (error) throw new Error(`order_items: ${error.message}`);
  return (data ?? []).map((item) => ({
    name: item.products?.name ?? PAYMENTS_ORDER_ROW_TEXT.productGone,
    offerLabel: item.offer_label || null,
    quantity: item.quantity,
    price: toCentavos(item.price),
  }));
}

/** What a status e-mail tells the shopper about their order. */
export interface OrderForStatusEmail {
  id: string;
  user_id: string;
  total: Centavos;
  credit_applied: Centavos;
  carrier: string | null;
  tracking_number: string | null;
  /** How it was paid ('card', 'oxxo', 'paypal', 'store_credit'), to say truthfully where money went. */
  payment_method: string | null;
  /** How it was refunded: 'saldo-…' to the balance, 'transferencia:REF' by bank transfer, else the provider's refund. */
  refund_ref: string | null;
}

/** The order as its status e-mail needs it; null when there is none. */
export async function findOrderForStatusEmail(ctx: ServerContext, orderId: string): Promise<OrderForStatusEmail | null> {
  const { data, error } = await ctx.admin
    .from('orders')
    .select('id, user_id, total, carrier, tracking_number, payment_method, credit_applied, refund_ref')
    .eq('id', orderId)
    .maybeSingle();
  if (error) throw new Error(`orders: ${error.message}`);
  if (!data) return null;
  return { ...data, total: toCentavos(data.total), credit_applied: toCentavos(data.credit_applied ?? 0) };
}

/** A refund the database handed back to retry (claim_due_refunds): its charge in Centavos. */
export function dueRefund(row: { id: string; order_id: string; provider: string; payment_ref: string; amount: number | string; reason: string }) {
  return { id: row.id, reason: row.reason, charge: { orderId: row.order_id, provider: row.provider, ref: row.payment_ref, amount: toCentavos(row.amount) } };
}

/** An amount for a database function's `numeric` peso parameter; two decimals survive a JSON number exactly. */
export function pesosParam(amount: Centavos | number): number {
  return Number(centavosToDecimalString(centavos(amount)));
}
