/**
 * Server-side checkout rules shared by every payment endpoint: whose order it is, whether it can
 * still be paid, what it costs, where it ships, which customer a user has, and the one path that
 * turns money the provider confirmed into a paid order (or, when the order can no longer take it,
 * into a refund) and sends the confirmation e-mail.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database, Json } from '../data/database.types.ts';
import { centavos, paymentAmount } from '../domain/money.ts';
import { oxxoCreditedMessage } from '../domain/store-credit.ts';
import type { Caller } from './http/auth.ts';
import { ApiError } from './http/json.ts';
import { receiptEmail } from './mail/templates/receipt.ts';
import type { MailQueue } from './mail/types.ts';
import type { Payments } from './payments/index.ts';
import type { CardProvider, IntentInfo, PayPalProvider } from './payments/types.ts';
import { refundCharge, REFUND_MESSAGES, type RefundReason } from './refunds.ts';
import { creditOxxoPayment } from './store-credit.ts';

/** What every endpoint needs: the service-role client, the providers, the mailer. */
export interface ServerContext {
  admin: SupabaseClient<Database>;
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

/** Refuses (409) an order that can no longer take a payment: paid, cancelled or expired. */
export function requirePayable(order: OrderRow): OrderRow {
  if (order.status === 'Pagado' || order.paid_at) throw new ApiError(409, 'Este pedido ya está pagado.', 'order_paid');
  const expired = order.expires_at !== null && Date.parse(order.expires_at) <= Date.now();
  if (order.status !== 'Pendiente' || expired) {
    throw new ApiError(409, 'Este pedido ya no se puede pagar: la reserva expiró o fue cancelado.', 'order_not_payable');
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

/** The card provider, or 503 when this server has none (live mode without Stripe's keys). */
export function requireCard(ctx: ServerContext): CardProvider {
  if (!ctx.payments.card) throw new ApiError(503, 'El pago con tarjeta no está disponible.', 'provider_unavailable');
  return ctx.payments.card;
}

/** The PayPal provider, or 503 when this server has none (live mode without PayPal's keys). */
export function requirePayPal(ctx: ServerContext): PayPalProvider {
  if (!ctx.payments.paypal) throw new ApiError(503, 'PayPal no está configurado.', 'provider_unavailable');
  return ctx.payments.paypal;
}

/** Records a provider payment opened for an order, so the sweeper can close it if unused. */
export async function recordAttempt(ctx: ServerContext, orderId: string, provider: string, ref: string): Promise<void> {
  const { error } = await ctx.admin
    .from('payment_attempts')
    .upsert({ order_id: orderId, provider, ref }, { onConflict: 'provider,ref', ignoreDuplicates: true });
  if (error) throw new Error(`payment_attempts: ${error.message}`);
}

/** Marks a recorded provider payment as used or closed. */
export async function closeAttempt(ctx: ServerContext, provider: string, ref: string, status: 'succeeded' | 'canceled'): Promise<void> {
  const { error } = await ctx.admin.from('payment_attempts').update({ status }).eq('provider', provider).eq('ref', ref);
  if (error) throw new Error(`payment_attempts: ${error.message}`);
}

/**
 * The order's amount to charge through a provider, in centavos: its stored total ("one total")
 * less the part paid with the shopper's balance.
 */
export function orderAmount(order: Pick<OrderRow, 'total' | 'credit_applied'>): number {
  return paymentAmount(order.total) - paymentAmount(order.credit_applied ?? 0);
}

/** The caller's provider customer id as stored on the profile, or null. */
export async function storedCustomerId(ctx: ServerContext, userId: string): Promise<string | null> {
  const { data, error } = await ctx.admin.from('profiles').select('stripe_customer_id').eq('id', userId).maybeSingle();
  if (error) throw new Error(`profiles: ${error.message}`);
  const value = data?.stripe_customer_id;
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * The caller's customer at the card provider, created the first time one is needed and stored on
 * the profile (only the service role may write stripe_customer_id).
 */
export async function ensureCustomer(ctx: ServerContext, caller: Caller): Promise<string> {
  const card = requireCard(ctx);
  const stored = await storedCustomerId(ctx, caller.id);
  if (stored && (await card.customerExists(stored))) return stored;
  const created = await card.createCustomer(caller);
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
  /** True when this call marked the order paid (false when it already was, or it was refunded). */
  changed: boolean;
  /** Set when the money was refunded instead (late payment, duplicate, amount mismatch). */
  refunded: RefundReason | null;
  /** True when that money went to the shopper's balance (cash at OXXO cannot be refunded). */
  credited?: boolean;
  /** Centavos of the payment that did not go to the order (refunded or credited). */
  amount?: number;
  /** 'succeeded' or, when the provider refused for now, 'failed' (retried by the sweeper). */
  refundStatus?: string;
}

/** A payment a provider confirmed: whose order, which provider, the charge and what it took. */
export interface ConfirmedPayment {
  orderId: string;
  /** As orders.payment_provider records it: stripe, paypal, simulated-card, simulated-paypal. */
  provider: string;
  /** The charge: Stripe PaymentIntent id, PayPal capture id. */
  ref: string;
  /** Integer centavos, or null when the provider did not say. */
  amount: number | null;
  currency: string | null;
  /** The payment attempt it completes (PaymentIntent or PayPal order id); default ref. */
  attemptRef?: string;
  /** How it was paid (orders.payment_method), as the provider reports it. */
  method?: 'card' | 'oxxo' | 'paypal' | null;
  /** The months of the 'meses sin intereses' plan the provider confirmed; null: a single payment. */
  installments?: number | null;
}

/**
 * A card provider's intent as a payment to settle: the amount, currency and method the provider
 * reports (the method from the charge that paid), never the browser's.
 */
export function intentPayment(provider: string, intent: IntentInfo & { orderId: string }): ConfirmedPayment {
  return {
    orderId: intent.orderId,
    provider,
    ref: intent.id,
    amount: intent.amount,
    currency: intent.currency,
    method: intent.method ?? null,
    installments: intent.installments ?? null,
  };
}

/**
 * Turns money a provider confirmed into a paid order: only when the payment is for this order, in
 * MXN, for exactly its stored amount, and the order can still take it. Otherwise the money goes
 * back through the provider (once, whoever else settles the same charge) and the order records
 * it. Idempotent: a repeated confirmation, webhook or capture changes nothing and sends no second
 * e-mail.
 */
export async function settlePayment(
  ctx: ServerContext,
  payment: ConfirmedPayment,
  /** The buyer's e-mail when the caller is the buyer (webhooks look it up instead). */
  recipient: string | null = null,
): Promise<Settlement> {
  const order = await findOrder(ctx, payment.orderId);
  if (!order) throw new ApiError(404, 'Pedido no encontrado.', 'order_not_found');
  const attemptRef = payment.attemptRef ?? payment.ref;
  const refund = async (reason: RefundReason): Promise<Settlement> => {
    if (payment.amount === null || payment.amount <= 0) throw new Error(`pago ${payment.ref} sin monto; no se puede reembolsar`);
    if (payment.method === 'oxxo') {
      // Cash paid at OXXO cannot be refunded: it becomes the shopper's balance.
      await creditOxxoPayment(ctx, order, { provider: payment.provider, ref: payment.ref, amount: payment.amount }, reason);
      await closeAttempt(ctx, payment.provider, attemptRef, 'succeeded');
      const after = await findOrder(ctx, order.id);
      return { status: after?.status ?? order.status, changed: false, refunded: reason, credited: true, amount: payment.amount };
    }
    const outcome = await refundCharge(ctx, { orderId: order.id, provider: payment.provider, ref: payment.ref, amount: payment.amount }, reason);
    await closeAttempt(ctx, payment.provider, attemptRef, 'succeeded');
    const after = await findOrder(ctx, order.id);
    return { status: after?.status ?? order.status, changed: false, refunded: reason, refundStatus: outcome.status, amount: payment.amount };
  };
  if (payment.amount !== orderAmount(order) || (payment.currency ?? '').toLowerCase() !== 'mxn') {
    console.error(`[pagos] el cargo ${payment.provider} ${payment.ref} (${payment.amount} ${payment.currency}) no coincide con el pedido ${order.id}`);
    return refund('mismatch');
  }
  const { data, error } = await ctx.admin.rpc('mark_order_paid', {
    order_id: order.id,
    provider: payment.provider,
    ref: payment.ref,
  });
  if (error) {
    if ((error.details ?? '').includes('order_cancelled')) return refund('late_payment');
    throw new Error(`mark_order_paid: ${error.message}`);
  }
  const changed = data === true;
  if (!changed) {
    const current = await findOrder(ctx, order.id);
    const same = current?.payment_provider === payment.provider && current?.payment_ref === payment.ref;
    if (!same) return refund('duplicate');
    return { status: current?.status ?? 'Pagado', changed: false, refunded: null };
  }
  await closeAttempt(ctx, payment.provider, attemptRef, 'succeeded');
  if (payment.method) {
    // What the provider confirmed, never what the browser asked for.
    const { error: methodError } = await ctx.admin
      .from('orders')
      .update({ payment_method: payment.method, installments: payment.method === 'card' && payment.installments ? payment.installments : null })
      .eq('id', order.id);
    if (methodError) console.error(`[pagos] no se pudo guardar el método de pago del pedido ${order.id}: ${methodError.message}`);
  }
  const after = await findOrder(ctx, order.id);
  // The order is paid whatever happens to the e-mail; a mail failure is only logged.
  await sendReceipt(ctx, after ?? order, recipient).catch((mailError: unknown) => console.error('[correo] no se pudo enviar la confirmación', mailError));
  return { status: after?.status ?? 'Pagado', changed: true, refunded: null };
}

/** The endpoint's answer for a settlement: 409 with the shopper's message when it was refunded. */
export function settlementAnswer(settled: Settlement, orderId: string): { orderId: string; status: string; changed: boolean } {
  if (settled.credited) {
    throw new ApiError(409, oxxoCreditedMessage(centavos(settled.amount ?? 0)), 'order_credited');
  }
  if (settled.refunded && settled.refunded !== 'shop') {
    throw new ApiError(409, REFUND_MESSAGES[settled.refunded], 'order_refunded');
  }
  return { orderId, status: settled.status, changed: settled.changed };
}

/** The address copy as one line for e-mails. */
export function addressLine(address: ShippingAddress | null): string | null {
  if (!address) return null;
  const line = [address.street, address.city, address.state, address.zip, address.country].filter((part) => typeof part === 'string' && part.trim() !== '').join(', ');
  return line === '' ? null : line;
}

/** The confirmation e-mail of an order just paid without a provider (the whole of it with the balance). */
export async function sendOrderReceipt(ctx: ServerContext, orderId: string, recipient: string | null): Promise<void> {
  const order = await findOrder(ctx, orderId);
  if (!order) return;
  await sendReceipt(ctx, order, recipient).catch((mailError: unknown) => console.error('[correo] no se pudo enviar la confirmación', mailError));
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
  const lines = (items ?? []).map((i) => ({
    name: i.products?.name ?? 'Producto no disponible',
    quantity: i.quantity,
    price: i.price,
  }));
  // The order's own copy: what the shopper chose at payment, whatever the address book says now.
  const address = addressLine(order.shipping_address);
  await ctx.mail({
    to: email,
    ...receiptEmail({ ...order, lines, address, siteUrl: ctx.siteUrl, installments: order.installments ?? null, method: order.payment_method ?? null }),
    kind: 'order_paid',
    dedupeKey: `order_paid:${order.id}`,
  });
}
