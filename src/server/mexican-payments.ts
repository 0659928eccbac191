/**
 * Paying the Mexican way, on top of the card provider: cash at OXXO (a voucher the shopper pays at
 * the store; the order stays 'Pendiente', reserved until the voucher expires) and 'meses sin
 * intereses' on credit cards (the plan the card's issuer offered, confirmed with the payment).
 * Stripe or the simulated provider, through the same settlement path as every other payment.
 */
import { z } from 'zod';
import {
  groupReference,
  installmentLabel,
  installmentsOffered,
  isInstallmentCount,
  MEXICAN_PAYMENT_MESSAGES,
  monthlyAmount,
  oxxoAllowed,
  oxxoDeadline,
  oxxoReservationEnd,
  oxxoVoucherDays,
} from '../domain/mexican-payments.ts';
import { centavos, formatCentavos } from '../domain/money.ts';
import { orderDisplayId } from '../domain/orders.ts';
import { BRAND } from '../domain/brand.ts';
import { authenticate, type Caller } from './http/auth.ts';
import { closeAttempt, recordAttempt } from './orders/attempts.ts';
import { ensureCustomer } from './payments/customers.ts';
import { findOrder, orderAmount, ownOrder, payableOrder, requireShippingAddress, type OrderRow } from './orders/order.ts';
import { intentPayment, settlePayment, settlementAnswer } from './orders/settlement.ts';
import { requireCard } from './payments/guards.ts';
import type { ServerContext } from './context.ts';
import { ApiError, json, readJson } from './http/json.ts';
import { escapeHtml as escape } from './mail/html.ts';
import { oxxoVoucherEmail } from './mail/templates/oxxo-voucher.ts';
import { SimulatedCardProvider } from './payments/simulated.ts';
import { StripeCardProvider } from './payments/stripe.ts';
import { PaymentError, type IntentInfo, type OxxoVoucher } from './payments/types.ts';

/** The voucher as the order keeps it (orders.oxxo_voucher) and the endpoint answers it. */
export type StoredVoucher = Pick<OxxoVoucher, keyof OxxoVoucher> & {
  paymentIntentId: string;
};

async function provider<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof PaymentError) throw new ApiError(error.status, error.message, error.code);
    throw error;
  }
}

/** The voucher kept on the order (orders.oxxo_voucher, JSON). */
const storedVoucherSchema = z.object({
  reference: z.string(),
  expiresAt: z.string(),
  paymentIntentId: z.string(),
  amount: z.coerce.number(),
  hostedVoucherUrl: z.string().nullish(),
});

function storedVoucher(order: OrderRow): StoredVoucher | null {
  const parsed = storedVoucherSchema.safeParse(order.oxxo_voucher);
  if (!parsed.success) return null;
  const v = parsed.data;
  return { reference: v.reference, expiresAt: v.expiresAt, amount: v.amount, hostedVoucherUrl: v.hostedVoucherUrl ?? null, paymentIntentId: v.paymentIntentId };
}

/** The name Stripe prints on the voucher: the profile's name, else its username, else the e-mail's. */
async function payerName(ctx: ServerContext, caller: Caller): Promise<string> {
  const { data } = await ctx.admin.from('profiles').select('name, lastname, username').eq('id', caller.id).maybeSingle();
  const full = [data?.name, data?.lastname].filter((p) => typeof p === 'string' && p.trim() !== '').join(' ').trim();
  return full || data?.username?.trim() || (caller.email ?? '').split('@')[0] || 'Cliente';
}

/** The simulated store counter of a voucher: its page shows the voucher and 'Simular pago en OXXO'. */
function simulatedCounterUrl(ctx: ServerContext, intentId: string, token: string): string {
  return `${ctx.siteUrl.replace(/\/+$/, '')}/api/payments/simulated/oxxo/${intentId}?token=${token}`;
}

/**
 * The voucher's days for this order: 1 when a line's product has 5 units or fewer left or is a
 * preorder (stock held for days at no cost is stock other shoppers cannot buy), else 3.
 */
async function voucherDays(ctx: ServerContext, orderId: string): Promise<number> {
  const { data, error } = await ctx.admin.from('order_items').select('products(stock, preorder)').eq('order_id', orderId);
  if (error) throw new Error(`order_items: ${error.message}`);
  return oxxoVoucherDays((data ?? []).map((row) => ({ stock: row.products?.stock ?? 0, preorder: row.products?.preorder === true })));
}

/** Refuses (409) a second open voucher: a shopper holds stock with at most one at a time. */
async function requireNoOtherVoucher(ctx: ServerContext, caller: Caller, orderId: string): Promise<void> {
  const { data, error } = await ctx.admin
    .from('orders')
    .select('id')
    .eq('user_id', caller.id)
    .eq('status', 'Pendiente')
    .eq('payment_method', 'oxxo')
    .not('oxxo_voucher', 'is', null)
    .neq('id', orderId)
    .limit(1);
  if (error) throw new Error(`orders: ${error.message}`);
  if ((data ?? []).length > 0) throw new ApiError(409, MEXICAN_PAYMENT_MESSAGES.anotherVoucherOpen, 'oxxo_voucher_open');
}

/**
 * POST /api/create-payment-intent {orderId, method: 'oxxo'}: creates and confirms the order's OXXO
 * payment and answers its voucher. The order stays 'Pendiente' with payment_method 'oxxo' and stays
 * reserved until Stripe says the voucher failed or was cancelled, or two business days after its
 * deadline (cash taken at the store is confirmed by the next business day); the voucher goes out
 * by e-mail. Asking again answers the same voucher. One open voucher per shopper.
 */
export async function createOxxoVoucher(ctx: ServerContext, caller: Caller, order: OrderRow, amount: number): Promise<Response> {
  const card = requireCard(ctx);
  if (!oxxoAllowed(centavos(amount))) throw new ApiError(409, MEXICAN_PAYMENT_MESSAGES.oxxoOutOfRange, 'oxxo_amount_out_of_range');
  const existing = storedVoucher(order);
  if (order.payment_method === 'oxxo' && existing && existing.amount === amount) {
    return json({ voucher: existing, paymentIntentId: existing.paymentIntentId });
  }
  await requireNoOtherVoucher(ctx, caller, order.id);
  await requireShippingAddress(ctx, order);
  const customerId = await provider(() => ensureCustomer(ctx, caller));
  const expiresAfterDays = await voucherDays(ctx, order.id);
  const intent = await provider(async () =>
    card.createOxxoPayment({
      orderId: order.id,
      userId: caller.id,
      amount,
      customerId,
      idempotencyKey: `oxxo-${order.id}-${amount}`,
      name: await payerName(ctx, caller),
      email: caller.email ?? '',
      expiresAfterDays,
    }),
  );
  await recordAttempt(ctx, order.id, card.name, intent.id);
  if (!intent.voucher || intent.amount !== amount) throw new ApiError(502, 'No se recibió la ficha de pago de OXXO.', 'upstream_error');
  let hostedVoucherUrl = intent.voucher.hostedVoucherUrl;
  if (card instanceof SimulatedCardProvider && !hostedVoucherUrl) {
    const token = await card.voucherToken(intent.id);
    if (token) hostedVoucherUrl = simulatedCounterUrl(ctx, intent.id, token);
  }
  const voucher: StoredVoucher = { ...intent.voucher, hostedVoucherUrl, paymentIntentId: intent.id };
  const { data, error } = await ctx.admin
    .from('orders')
    .update({ payment_method: 'oxxo', oxxo_voucher: voucher, expires_at: oxxoReservationEnd(new Date(voucher.expiresAt)).toISOString() })
    .eq('id', order.id)
    .eq('status', 'Pendiente')
    .select('id');
  if (error) throw new Error(`orders: ${error.message}`);
  if (!data || data.length === 0) {
    // The reservation ended meanwhile: the voucher must never be paid.
    await card.cancelPaymentIntent(intent.id);
    await closeAttempt(ctx, card.name, intent.id, 'canceled');
    throw new ApiError(409, 'Este pedido ya no se puede pagar: la reserva expiró o fue cancelado.', 'order_not_payable');
  }
  if (caller.email) {
    await ctx
      .mail({ to: caller.email, ...oxxoVoucherEmail({ orderId: order.id, voucher, siteUrl: ctx.siteUrl }), kind: 'oxxo_voucher', dedupeKey: `oxxo_voucher:${intent.id}` })
      .catch((mailError: unknown) => console.error('[correo] no se pudo enviar la ficha de OXXO', mailError));
  }
  return json({ voucher, paymentIntentId: intent.id });
}

/** Settles an OXXO intent the provider reports succeeded (the webhook, the simulated counter). */
export async function settleOxxo(ctx: ServerContext, intent: IntentInfo, recipient: string | null = null) {
  const card = requireCard(ctx);
  if (!intent.orderId || intent.status !== 'succeeded') throw new ApiError(402, 'El pago no se ha completado.', 'payment_incomplete');
  return settlePayment(ctx, intentPayment(card.name, { ...intent, orderId: intent.orderId }), recipient);
}

/**
 * A voucher that expired or was cancelled unpaid (payment_intent.payment_failed / canceled, or the
 * simulated expiry): its order is cancelled at once and its stock returns, if it is still the
 * order's voucher and the order is still waiting for it. True when an order was released.
 */
export async function releaseOxxoOrder(ctx: ServerContext, intent: IntentInfo): Promise<boolean> {
  if (!intent.orderId || intent.method !== 'oxxo' || intent.status === 'succeeded' || intent.status === 'processing') return false;
  const { data, error } = await ctx.admin
    .from('orders')
    .update({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .eq('id', intent.orderId)
    .eq('status', 'Pendiente')
    .eq('payment_method', 'oxxo')
    .eq('oxxo_voucher->>paymentIntentId', intent.id)
    .select('id');
  if (error) throw new Error(`orders: ${error.message}`);
  if (!data || data.length === 0) return false;
  const released = await ctx.admin.rpc('release_expired_orders');
  if (released.error) throw new Error(`release_expired_orders: ${released.error.message}`);
  const card = requireCard(ctx);
  if (intent.status !== 'canceled') await card.cancelPaymentIntent(intent.id).catch(() => null);
  await closeAttempt(ctx, card.name, intent.id, 'canceled');
  return true;
}

/**
 * POST /api/payments/oxxo/cancel {orderId}: the shopper gives up the order's voucher. Stripe is
 * asked first: only a voucher Stripe could still cancel releases the order (its stock returns);
 * one the store already took is settled (the order is paid), one being processed stays, and the
 * shopper is told which. Never cancels an order whose cash may be at OXXO.
 */
export async function cancelOxxoVoucher(request: Request, ctx: ServerContext): Promise<Response> {
  const card = requireCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId: orderIdSchema }));
  const { order, voucher } = await ownVoucher(ctx, caller, body.orderId);
  if (order.status !== 'Pendiente') throw new ApiError(409, 'Este pedido ya no tiene una ficha pendiente.', 'order_not_pending');
  const intent = await provider(() => card.cancelPaymentIntent(voucher.paymentIntentId));
  if (intent?.status === 'succeeded') {
    const settled = await settleOxxo(ctx, intent, caller.email);
    return json({ ...settlementAnswer(settled, order.id), canceled: false, message: 'Tu pago en OXXO ya se registró; tu pedido está pagado.' });
  }
  if (!intent || intent.status !== 'canceled') {
    throw new ApiError(409, 'Tu pago en OXXO se está procesando; la ficha ya no se puede cancelar.', 'voucher_processing');
  }
  await releaseOxxoOrder(ctx, intent);
  const after = await findOrder(ctx, order.id);
  return json({ orderId: order.id, status: after?.status ?? order.status, changed: false, canceled: true });
}

// ---- Meses sin intereses ------------------------------------------------------------------------

/** A plan as the browser shows it. */
export interface PlanOption {
  months: number;
  /** Integer centavos of each month (the last month absorbs the remainder). */
  monthly: number;
  label: string;
}

/** The plans of a total, for the months the provider offered. */
export function planOptions(amount: number, months: number[]): PlanOption[] {
  if (!installmentsOffered(centavos(amount))) return [];
  return [...new Set(months)]
    .filter(isInstallmentCount)
    .sort((a, b) => a - b)
    .map((m) => ({ months: m, monthly: monthlyAmount(centavos(amount), m), label: installmentLabel(centavos(amount), m) }));
}

const orderIdSchema = z.string({ error: 'Falta el pedido (orderId).' }).uuid({ error: 'El pedido (orderId) no es válido.' });
const providerIdSchema = z.string().trim().min(1).max(255).regex(/^[\w-]+$/, { error: 'Identificador no válido.' });

function stripeCard(ctx: ServerContext): StripeCardProvider {
  const card = requireCard(ctx);
  if (!(card instanceof StripeCardProvider)) throw new ApiError(404, 'No encontrado.', 'not_found');
  return card;
}

/** The order's own card intent (404 otherwise). */
async function ownIntent(ctx: ServerContext, order: OrderRow, intentId: string): Promise<IntentInfo> {
  const intent = await provider(() => requireCard(ctx).retrievePaymentIntent(intentId));
  if (!intent || intent.orderId !== order.id || intent.method !== 'card') throw new ApiError(404, 'Pago no encontrado para este pedido.', 'intent_not_found');
  return intent;
}

/**
 * POST /api/payments/installments {orderId, paymentIntentId, paymentMethodId} (Stripe): puts the
 * card the shopper entered on the order's intent and answers the plans its issuer offers
 * (`{plans: []}` for debit and foreign cards, and below $300.00).
 */
export async function installmentPlans(request: Request, ctx: ServerContext): Promise<Response> {
  const card = stripeCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId: orderIdSchema, paymentIntentId: providerIdSchema, paymentMethodId: providerIdSchema }));
  // Nothing is put on a card for an order that can no longer be paid.
  const order = await payableOrder(ctx, caller, body.orderId);
  const amount = orderAmount(order);
  await ownIntent(ctx, order, body.paymentIntentId);
  const owner = await provider(() => card.paymentMethodCustomer(body.paymentMethodId)).catch(() => null);
  if (owner !== null && owner !== (await ensureCustomer(ctx, caller))) throw new ApiError(403, 'Ese método de pago no es tuyo.', 'forbidden');
  const updated = await provider(() => card.attachCard(body.paymentIntentId, body.paymentMethodId));
  return json({ plans: planOptions(amount, updated.availablePlans ?? []) });
}

/**
 * POST /api/payments/installments/confirm {orderId, paymentIntentId, months} (Stripe): confirms the
 * intent with the chosen plan (null: 'Pago de contado') once the server has checked that the
 * provider offered it; a payment that succeeds is settled at once, one that needs the bank's
 * confirmation answers {status: 'requires_action', clientSecret} for Stripe.js.
 */
export async function confirmInstallments(request: Request, ctx: ServerContext): Promise<Response> {
  const card = stripeCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(
    request,
    z.object({ orderId: orderIdSchema, paymentIntentId: providerIdSchema, months: z.number().int().nullable().default(null) }),
  );
  // Nothing is charged for an order that can no longer be paid.
  const order = await payableOrder(ctx, caller, body.orderId);
  const intent = await ownIntent(ctx, order, body.paymentIntentId);
  if (body.months !== null && !planOptions(orderAmount(order), intent.availablePlans ?? []).some((p) => p.months === body.months)) {
    throw new ApiError(400, MEXICAN_PAYMENT_MESSAGES.invalidPlan, 'invalid_plan');
  }
  const returnUrl = `${ctx.siteUrl.replace(/\/+$/, '')}/checkout/${order.id}`;
  const confirmed = await provider(() => card.confirmWithPlan(intent.id, body.months, returnUrl));
  if (confirmed.status === 'requires_action') return json({ status: 'requires_action', clientSecret: confirmed.clientSecret });
  if (confirmed.status !== 'succeeded') throw new ApiError(402, 'Error al procesar el pago.', 'payment_failed');
  const settled = await settlePayment(ctx, intentPayment(card.name, { ...confirmed, orderId: order.id }), caller.email);
  return json(settlementAnswer(settled, order.id));
}

// ---- Simulated mode only --------------------------------------------------------------------------

function simulatedCard(ctx: ServerContext): SimulatedCardProvider {
  if (ctx.payments.mode !== 'simulated' || !(ctx.payments.card instanceof SimulatedCardProvider)) throw new ApiError(404, 'No encontrado.', 'not_found');
  return ctx.payments.card;
}

/** POST /api/payments/simulated/installments {clientSecret, number}: the simulated issuer's plans. */
export async function simulatedInstallmentPlans(request: Request, ctx: ServerContext): Promise<Response> {
  const card = simulatedCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ clientSecret: z.string().min(10).max(300), number: z.string().max(40) }));
  const months = await provider(() => card.installmentPlans(body.clientSecret, caller.id, body.number));
  const intent = await card.retrievePaymentIntent(body.clientSecret.split('_secret_')[0] ?? '');
  return json({ plans: planOptions(intent?.amount ?? 0, months) });
}

/** The caller's order's current OXXO voucher (404 when it has none). */
async function ownVoucher(ctx: ServerContext, caller: Caller, orderId: string): Promise<{ order: OrderRow; voucher: StoredVoucher }> {
  const order = await ownOrder(ctx, caller, orderId);
  const voucher = storedVoucher(order);
  if (order.payment_method !== 'oxxo' || !voucher) throw new ApiError(404, 'Este pedido no tiene ficha de pago de OXXO.', 'voucher_not_found');
  return { order, voucher };
}

/** Pays a simulated voucher at the 'store' and settles it as Stripe's webhook would. */
async function paySimulatedVoucher(ctx: ServerContext, card: SimulatedCardProvider, intentId: string, recipient: string | null) {
  const intent = await provider(() => card.payOxxo(intentId));
  return settleOxxo(ctx, intent, recipient);
}

/** POST /api/payments/simulated/oxxo/pay {orderId}: 'Simular pago en OXXO' on the checkout's voucher. */
export async function simulatedOxxoPay(request: Request, ctx: ServerContext): Promise<Response> {
  const card = simulatedCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId: orderIdSchema }));
  const { order, voucher } = await ownVoucher(ctx, caller, body.orderId);
  const settled = await paySimulatedVoucher(ctx, card, voucher.paymentIntentId, caller.email);
  return json(settlementAnswer(settled, order.id));
}

/**
 * POST /api/payments/simulated/oxxo/expire {orderId}: the voucher expires unpaid now (tests), as
 * Stripe reports it (payment_failed): the order is cancelled and its stock returns.
 */
export async function simulatedOxxoExpire(request: Request, ctx: ServerContext): Promise<Response> {
  const card = simulatedCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId: orderIdSchema }));
  const { order, voucher } = await ownVoucher(ctx, caller, body.orderId);
  const intent = await card.expireOxxo(voucher.paymentIntentId);
  const released = intent ? await releaseOxxoOrder(ctx, intent) : false;
  const after = await findOrder(ctx, order.id);
  return json({ orderId: order.id, status: after?.status ?? order.status, released });
}

function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html><html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="/favicon.svg" type="image/svg+xml"><title>${escape(title)} · ${BRAND.name}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#1d1b2c}h1{font-size:1.4rem}.ref{font-size:1.5rem;font-weight:700;letter-spacing:.05em}button{font:inherit;padding:.6rem 1.2rem;border-radius:.4rem;border:0;background:#4b2fc9;color:#fff;cursor:pointer}.note{background:#fff4d6;padding:.5rem .75rem;border-radius:.4rem}</style></head>
<body><main>${body}</main></body></html>`;
  return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
}

/**
 * GET/POST /api/payments/simulated/oxxo/{intentId}?token=…: the simulated voucher page the
 * voucher e-mail links to (its token is the capability): it shows the voucher and, posted,
 * 'Simular pago en OXXO' pays it as the store would. Simulated mode only.
 */
export async function simulatedOxxoCounter(request: Request, ctx: ServerContext, intentId: string | undefined): Promise<Response> {
  const card = simulatedCard(ctx);
  const url = new URL(request.url);
  const token = url.searchParams.get('token') ?? '';
  const id = providerIdSchema.safeParse(intentId ?? '');
  const expected = id.success ? await card.voucherToken(id.data) : null;
  if (!id.success || !expected || token.length !== expected.length || token !== expected) {
    return page('Ficha no encontrada', '<h1>Ficha de pago no encontrada</h1><p>El enlace no es válido.</p>', 404);
  }
  const intent = (await card.retrievePaymentIntent(id.data))!;
  const order = intent.orderId ? await findOrder(ctx, intent.orderId) : null;
  const number = orderDisplayId(intent.orderId ?? '');
  const orderLink = `/checkout/${intent.orderId ?? ''}`;
  if (request.method === 'POST') {
    try {
      const settled = await paySimulatedVoucher(ctx, card, id.data, null);
      const answer = settlementAnswer(settled, intent.orderId!);
      return page('Pago registrado', `<h1>Pago registrado</h1><p role="status">Tu pedido ${escape(number)} está ${escape(answer.status.toLowerCase())}.</p><p><a href="${escape(orderLink)}">Ver tu pedido</a></p>`);
    } catch (error) {
      const message = error instanceof ApiError ? error.message : 'No se pudo registrar el pago.';
      return page('Pago no registrado', `<h1>Pago no registrado</h1><p role="alert">${escape(message)}</p><p><a href="${escape(orderLink)}">Ver tu pedido</a></p>`, error instanceof ApiError ? error.status : 500);
    }
  }
  const voucher = (await card.retrievePaymentIntent(id.data))?.voucher ?? null;
  const status = order?.status ?? '';
  const body = voucher
    ? `<h1>Ficha de pago OXXO</h1><p class="note">Modo de prueba: no se realizará ningún cargo real.</p>
<p>Pedido ${escape(number)} · Monto a pagar: <strong>${escape(formatCentavos(centavos(voucher.amount)))}</strong></p>
<p>Referencia<br><span class="ref">${escape(groupReference(voucher.reference))}</span></p>
<p>${escape(oxxoDeadline(voucher.expiresAt))}</p>
<form method="post" action="${escape(`${url.pathname}?token=${encodeURIComponent(token)}`)}"><button type="submit">Simular pago en OXXO</button></form>`
    : `<h1>Ficha de pago OXXO</h1><p role="status">Esta ficha ya no está pendiente de pago${status ? ` (pedido ${escape(status.toLowerCase())})` : ''}.</p>`;
  return page('Ficha de pago OXXO', `${body}<p><a href="${escape(orderLink)}">Ver tu pedido</a></p>`);
}
