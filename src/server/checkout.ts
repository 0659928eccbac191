/**
 * Server-side checkout rules shared by every payment endpoint: whose order it is, what it costs,
 * which customer a user has, and the one path that marks an order paid (after the provider
 * confirmed the exact amount) and sends the confirmation e-mail.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { paymentAmount } from '../domain/money.ts';
import type { Caller } from './auth.ts';
import { ApiError } from './http.ts';
import { receiptEmail, type MailQueue } from './mail.ts';
import type { Payments } from './payments/index.ts';

/** What every endpoint needs: the service-role client, the providers, the mailer. */
export interface ServerContext {
  admin: SupabaseClient;
  payments: Payments;
  /** Queues an e-mail: in the shop, the outbox (stored, sent in the background, retried). */
  mail: MailQueue;
  siteUrl: string;
}

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
}

const ORDER_COLUMNS = 'id, user_id, status, subtotal, discount, shipping, total, paid_at, expires_at, shipping_address_id';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads an order by id with the service role; null when there is none. */
export async function findOrder(ctx: ServerContext, orderId: string): Promise<OrderRow | null> {
  if (!UUID.test(orderId)) return null;
  const { data, error } = await ctx.admin.from('orders').select(ORDER_COLUMNS).eq('id', orderId).maybeSingle();
  if (error) throw new Error(`orders: ${error.message}`);
  return (data as OrderRow | null) ?? null;
}

/** The caller's own order: 404 when it does not exist, 403 when it is someone else's. */
export async function ownOrder(ctx: ServerContext, caller: Caller, orderId: string): Promise<OrderRow> {
  const order = await findOrder(ctx, orderId);
  if (!order) throw new ApiError(404, 'Pedido no encontrado.', 'order_not_found');
  if (order.user_id !== caller.id) throw new ApiError(403, 'Este pedido no es tuyo.', 'forbidden');
  return order;
}

/** The caller's order, still waiting for its payment; 409 otherwise. */
export async function payableOrder(ctx: ServerContext, caller: Caller, orderId: string): Promise<OrderRow> {
  const order = await ownOrder(ctx, caller, orderId);
  if (order.status === 'Pagado' || order.paid_at) throw new ApiError(409, 'Este pedido ya está pagado.', 'order_paid');
  const expired = order.expires_at !== null && Date.parse(order.expires_at) <= Date.now();
  if (order.status !== 'Pendiente' || expired) {
    throw new ApiError(409, 'Este pedido ya no se puede pagar: la reserva expiró o fue cancelado.', 'order_not_payable');
  }
  return order;
}

/** The order's amount to charge, in centavos (its stored total: "one total"). */
export function orderAmount(order: Pick<OrderRow, 'total'>): number {
  return paymentAmount(order.total);
}

/** The caller's provider customer id as stored on the profile, or null. */
export async function storedCustomerId(ctx: ServerContext, userId: string): Promise<string | null> {
  const { data, error } = await ctx.admin.from('profiles').select('stripe_customer_id').eq('id', userId).maybeSingle();
  if (error) throw new Error(`profiles: ${error.message}`);
  const value = (data as { stripe_customer_id?: unknown } | null)?.stripe_customer_id;
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * The caller's customer at the card provider, created the first time one is needed and stored on
 * the profile (only the service role may write stripe_customer_id).
 */
export async function ensureCustomer(ctx: ServerContext, caller: Caller): Promise<string> {
  const stored = await storedCustomerId(ctx, caller.id);
  if (stored && (await ctx.payments.card.customerExists(stored))) return stored;
  const created = await ctx.payments.card.createCustomer(caller);
  const { error } = await ctx.admin.from('profiles').update({ stripe_customer_id: created }).eq('id', caller.id);
  if (error) throw new Error(`profiles: ${error.message}`);
  return created;
}

/** Refuses (403) a customer id that is not the caller's own. */
export async function requireOwnCustomer(ctx: ServerContext, caller: Caller, customerId: string): Promise<void> {
  const stored = await storedCustomerId(ctx, caller.id);
  if (!stored || stored !== customerId) throw new ApiError(403, 'Ese cliente de pagos no es tuyo.', 'forbidden');
}

/** Outcome of settling a payment. */
export interface Settlement {
  status: string;
  /** True when this call marked the order paid (false when it already was). */
  changed: boolean;
}

/**
 * Marks an order 'Pagado' once a provider confirmed a payment, only when the payment is for this
 * order, in MXN, for exactly its stored amount. Idempotent: a repeated confirmation, webhook or
 * capture changes nothing and sends no second e-mail.
 */
export async function settlePayment(
  ctx: ServerContext,
  payment: { orderId: string; provider: string; ref: string; amount: number | null; currency: string | null },
  /** The buyer's e-mail when the caller is the buyer (webhooks look it up instead). */
  recipient: string | null = null,
): Promise<Settlement> {
  const order = await findOrder(ctx, payment.orderId);
  if (!order) throw new ApiError(404, 'Pedido no encontrado.', 'order_not_found');
  if (payment.amount !== orderAmount(order) || (payment.currency ?? '').toLowerCase() !== 'mxn') {
    throw new ApiError(409, 'El pago no coincide con el total del pedido.', 'amount_mismatch');
  }
  const { data, error } = await ctx.admin.rpc('mark_order_paid', {
    order_id: order.id,
    provider: payment.provider,
    ref: payment.ref,
  });
  if (error) {
    if ((error.details ?? '').includes('order_cancelled')) {
      throw new ApiError(409, 'Tu pedido expiró o fue cancelado antes del pago; el cargo se reembolsará.', 'order_cancelled');
    }
    throw new Error(`mark_order_paid: ${error.message}`);
  }
  const changed = data === true;
  if (changed) {
    // The order is paid whatever happens to the e-mail; a mail failure is only logged.
    await sendReceipt(ctx, order, recipient).catch((mailError: unknown) => console.error('[correo] no se pudo enviar la confirmación', mailError));
  }
  const after = await findOrder(ctx, order.id);
  return { status: after?.status ?? 'Pagado', changed };
}

async function sendReceipt(ctx: ServerContext, order: OrderRow, recipient: string | null): Promise<void> {
  let email = recipient;
  if (!email) {
    const { data: userData } = await ctx.admin.auth.admin.getUserById(order.user_id);
    email = userData?.user?.email ?? null;
  }
  if (!email) return;
  const { data: items } = await ctx.admin
    .from('order_items')
    .select('quantity, price, products(name)')
    .eq('order_id', order.id);
  const lines = ((items ?? []) as unknown as Array<{ quantity: number; price: string; products: { name: string } | null }>).map((i) => ({
    name: i.products?.name ?? 'Producto no disponible',
    quantity: i.quantity,
    price: i.price,
  }));
  let address: string | null = null;
  if (order.shipping_address_id) {
    const { data: a } = await ctx.admin
      .from('addresses')
      .select('street, city, state, zip, country')
      .eq('id', order.shipping_address_id)
      .maybeSingle();
    if (a) address = [a.street, a.city, a.state, a.zip, a.country].filter(Boolean).join(', ');
  }
  await ctx.mail({
    to: email,
    ...receiptEmail({ ...order, lines, address, siteUrl: ctx.siteUrl }),
    kind: 'order_paid',
    dedupeKey: `order_paid:${order.id}`,
  });
}
