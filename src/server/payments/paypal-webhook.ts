/**
 * POST /api/paypal/webhook: PayPal's notifications about the shop's captures. Before PayPal is asked
 * anything (an access token, then verify-webhook-signature), the notification must look like one of
 * PayPal's: its five paypal-* headers, a transmission time within MAX_TRANSMISSION_SKEW_MS of this
 * server's clock, a certificate URL on paypal.com over https, and a JSON body; otherwise it is
 * refused with 400 and costs nothing. An event the shop does not handle is answered
 * {received: true, handled: false} without asking PayPal either. Then PayPal itself confirms
 * each notification (verify-webhook-signature with PAYPAL_WEBHOOK_ID); a notification it does
 * not confirm is refused with 400 and changes nothing. Only ids
 * are read from the body: the PayPal order, capture or refund is read again from PayPal's API, and
 * only a PayPal order the shop created (a payment attempt) can touch a shop order. PayPal delivers
 * a notification again until it gets a 2xx, so each one is idempotent:
 *   PAYMENT.CAPTURE.COMPLETED   settles the order exactly as the capture endpoint does (typically a
 *                               capture that was PENDING when the shopper paid);
 *   PAYMENT.CAPTURE.DENIED      closes the payment attempt; the order stays as it is and its
 *                               reservation runs out normally;
 *   PAYMENT.CAPTURE.REFUNDED,   money given back at PayPal (its dashboard, a reversal) for a paid
 *   PAYMENT.CAPTURE.REVERSED    order: recorded as a refund by the shop, the order becomes
 *                               'Reembolsado' (stock back on sale, reward points taken back).
 *                               A reversal is a chargeback: when the order used the shopper's
 *                               balance, that balance is held for the back office (record_chargeback)
 *                               instead of going back to the shopper.
 * Any other event answers {received: true, handled: false}.
 */
import { z } from 'zod';
import { ORDER_STATUS, type OrderStatus } from '~/domain/orders.ts';
import { PAYMENTS_CHARGEBACK_TEXT, PAYMENTS_PAYPAL_WEBHOOK_OPERATOR_TEXT as REFUSAL, PAYMENTS_PAYPAL_WEBHOOK_TEXT as TEXT } from '~/i18n/payments.ts';
import type { ServerContext } from '../context.ts';
import { ApiError, json, readText } from '../http/json.ts';
import { closeAttempt } from '../orders/attempts.ts';
import { orderAmount } from '../orders/order.ts';
import { findOrder, pesosParam } from '../orders/order-row.ts';
import { capturePayment, settlePayment } from '../orders/settlement.ts';
import { recordChargeback } from './chargebacks.ts';
import { provider, requirePayPal } from './guards.ts';
import { INVALID_WEBHOOK_SIGNATURE, linkedId } from './providers/paypal.ts';
import { paypalCaptureCompleted, paypalCaptureFailed, type PayPalProvider, type PayPalWebhookEvent } from './providers/types.ts';

/** PayPal's notifications are a few kilobytes; this leaves plenty of room. */
const MAX_NOTIFICATION_BYTES = 512 * 1024;

/** The statuses of an order whose payment went through (what a refund can undo). */
const PAID_STATUSES: readonly OrderStatus[] = [ORDER_STATUS.paid, ORDER_STATUS.processing, ORDER_STATUS.shipped, ORDER_STATUS.completed];

/** The notifications the shop acts on (the events its PayPal webhook subscribes to). */
const HANDLED_EVENTS: ReadonlySet<string> = new Set([
  'PAYMENT.CAPTURE.COMPLETED',
  'PAYMENT.CAPTURE.DENIED',
  'PAYMENT.CAPTURE.REFUNDED',
  'PAYMENT.CAPTURE.REVERSED',
]);

/**
 * How far a notification's PAYPAL-TRANSMISSION-TIME may be from this server's clock. PayPal sends
 * each delivery (a retry too) as a new transmission with its own time, so a genuine one is seconds
 * old; one minutes older is a replay.
 */
export const MAX_TRANSMISSION_SKEW_MS = 5 * 60_000;

/** The headers PayPal signs every notification with. */
const PAYPAL_HEADERS = ['paypal-auth-algo', 'paypal-cert-url', 'paypal-transmission-id', 'paypal-transmission-sig', 'paypal-transmission-time'] as const;

const paypalId = z.string().regex(/^[\w-]{1,255}$/);
const claimAnswer = z.object({ id: z.string(), claimed: z.boolean() });

/** What the answer says about one notification. */
interface Outcome {
  handled: boolean;
  orderId?: string;
  status?: string;
  changed?: boolean;
  refunded?: string | null;
  message?: string;
}

/** A PayPal id from the notification, or null. */
function idOf(value: unknown): string | null {
  const parsed = paypalId.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The PayPal order of a capture resource: supplementary_data.related_ids.order_id, else its 'up' link. */
function paypalOrderOf(resource: Record<string, unknown>): string | null {
  const supplementary = resource.supplementary_data as { related_ids?: { order_id?: unknown } } | undefined;
  return idOf(supplementary?.related_ids?.order_id) ?? linkedId(resource.links, 'up', '/v2/checkout/orders/');
}

/** The payment attempt of a PayPal order the shop created, or null when it did not create it. */
async function attemptOf(ctx: ServerContext, paypal: PayPalProvider, paypalOrderId: string): Promise<{ order_id: string; status: string } | null> {
  const { data, error } = await ctx.admin
    .from('payment_attempts')
    .select('order_id, status')
    .eq('provider', paypal.name)
    .eq('ref', paypalOrderId)
    .maybeSingle();
  if (error) throw new Error(`payment_attempts: ${error.message}`);
  return data;
}

/** The capture a notification is about, as PayPal reports it now, with the shop's attempt. */
async function currentCapture(ctx: ServerContext, paypal: PayPalProvider, event: PayPalWebhookEvent) {
  const captureId = idOf(event.resource.id);
  const paypalOrderId = paypalOrderOf(event.resource);
  if (!captureId || !paypalOrderId) return { failure: TEXT.noCapture } as const;
  const info = await provider(() => paypal.getOrder(paypalOrderId));
  if (!info || info.captureId !== captureId) return { failure: TEXT.captureNotInOrder(captureId, paypalOrderId) } as const;
  const attempt = await attemptOf(ctx, paypal, paypalOrderId);
  if (!attempt || (info.orderId !== null && info.orderId !== attempt.order_id)) {
    return { failure: TEXT.notThisShop(paypalOrderId) } as const;
  }
  return { captureId, paypalOrderId, info, attempt } as const;
}

/** PAYMENT.CAPTURE.COMPLETED: the money is the shop's; the order is settled (or the money refunded). */
async function captureCompleted(ctx: ServerContext, paypal: PayPalProvider, event: PayPalWebhookEvent): Promise<Outcome> {
  const capture = await currentCapture(ctx, paypal, event);
  if ('failure' in capture) return { handled: false, message: capture.failure };
  const { captureId, paypalOrderId, info, attempt } = capture;
  if (!paypalCaptureCompleted(info)) return { handled: false, message: TEXT.captureStatus(captureId, info.captureStatus) };
  const settled = await settlePayment(ctx, capturePayment(paypal.name, attempt.order_id, info, paypalOrderId));
  if (settled.refunded) console.warn(`[paypal] evento ${event.id}: captura ${captureId} reembolsada (${settled.refunded}, ${settled.refundStatus ?? ''})`);
  return { handled: true, orderId: attempt.order_id, status: settled.status, changed: settled.changed, refunded: settled.refunded };
}

/** PAYMENT.CAPTURE.DENIED: no money will come; the attempt is closed, the order left as it is. */
async function captureDenied(ctx: ServerContext, paypal: PayPalProvider, event: PayPalWebhookEvent): Promise<Outcome> {
  const capture = await currentCapture(ctx, paypal, event);
  if ('failure' in capture) return { handled: false, message: capture.failure };
  const { captureId, paypalOrderId, info, attempt } = capture;
  if (!paypalCaptureFailed(info)) return { handled: false, message: TEXT.captureStatus(captureId, info.captureStatus) };
  const open = attempt.status === 'open';
  if (open) await closeAttempt(ctx, paypal.name, paypalOrderId, 'canceled');
  const order = await findOrder(ctx, attempt.order_id);
  return { handled: true, orderId: attempt.order_id, status: order?.status ?? '', changed: open };
}

/**
 * PAYMENT.CAPTURE.REFUNDED / REVERSED: the whole charge of a paid order went back at PayPal. It is
 * recorded as the shop's refund of that capture (claim_refund, then complete_refund with PayPal's
 * refund id), so the order becomes 'Reembolsado' once, whoever else records the same refund.
 */
async function captureRefunded(ctx: ServerContext, paypal: PayPalProvider, event: PayPalWebhookEvent): Promise<Outcome> {
  const refundId = idOf(event.resource.id);
  if (!refundId) return { handled: false, message: TEXT.noRefund };
  const refund = await provider(() => paypal.getRefund(refundId));
  if (!refund || refund.status !== 'COMPLETED' || !refund.captureId) {
    return { handled: false, message: TEXT.refundNotCompleted(refundId, refund?.status) };
  }
  const { data: paid, error } = await ctx.admin
    .from('orders')
    .select('id')
    .eq('payment_provider', paypal.name)
    .eq('payment_ref', refund.captureId)
    .maybeSingle();
  if (error) throw new Error(`orders: ${error.message}`);
  const order = paid ? await findOrder(ctx, paid.id) : null;
  if (!order) return { handled: false, message: TEXT.noOrderForCapture(refund.captureId) };
  if (order.status === ORDER_STATUS.refunded) return { handled: true, orderId: order.id, status: order.status, changed: false };
  if (!PAID_STATUSES.includes(order.status)) return { handled: false, orderId: order.id, status: order.status, message: TEXT.orderStatus(order.status) };
  const charged = orderAmount(order);
  if (refund.amount !== charged || (refund.currency ?? '').toLowerCase() !== 'mxn') {
    // The shop refunds whole orders only; a partial refund made at PayPal needs a person.
    console.warn(
      `[paypal] evento ${event.id}: reembolso parcial ${refund.id} (${refund.amount} ${refund.currency}) del pedido ${order.id}, cobrado ${charged}; el pedido no cambia`,
    );
    return { handled: false, orderId: order.id, status: order.status, message: TEXT.partialRefund };
  }
  console.warn(
    `[paypal] evento ${event.id} (${event.type}): PayPal devolvió el cargo del pedido ${order.id} (captura ${refund.captureId}, reembolso ${refund.id})`,
  );
  if (event.type === 'PAYMENT.CAPTURE.REVERSED') {
    // A chargeback: the balance the order used is held for the back office (recorded before the
    // order changes, so it never goes back to the shopper by itself).
    await recordChargeback(ctx, {
      orderId: order.id,
      provider: paypal.name,
      paymentRef: refund.captureId,
      disputeRef: refund.id,
      amount: refund.amount,
      creditApplied: order.credit_applied,
      note: PAYMENTS_CHARGEBACK_TEXT.paypalReversal(refund.captureId, refund.id),
    });
  }
  // The shop's own refund of this capture may be on its way (claimed, asking PayPal, or failed and
  // waiting for a retry): PayPal says it went through, so it is complete. Otherwise the refund was
  // made at PayPal and is recorded as the shop's.
  const { data: existing, error: existingError } = await ctx.admin
    .from('payment_refunds')
    .select('id, status')
    .eq('provider', paypal.name)
    .eq('payment_ref', refund.captureId)
    .maybeSingle();
  if (existingError) throw new Error(`payment_refunds: ${existingError.message}`);
  let refundRowId = existing?.id ?? null;
  if (existing?.status === 'succeeded') {
    const after = await findOrder(ctx, order.id);
    return { handled: true, orderId: order.id, status: after?.status ?? order.status, changed: false };
  }
  if (!refundRowId) {
    const { data: claimed, error: claimError } = await ctx.admin.rpc('claim_refund', {
      p_order_id: order.id,
      p_provider: paypal.name,
      p_payment_ref: refund.captureId,
      p_amount: pesosParam(charged),
      p_reason: 'shop',
    });
    if (claimError) throw new Error(`claim_refund: ${claimError.message}`);
    refundRowId = claimAnswer.parse(claimed).id;
  }
  const { data: status, error: completeError } = await ctx.admin.rpc('complete_refund', { p_refund_id: refundRowId, p_refund_ref: refund.id });
  if (completeError) throw new Error(`complete_refund: ${completeError.message}`);
  return { handled: true, orderId: order.id, status: typeof status === 'string' ? status : ORDER_STATUS.refunded, changed: true };
}

/** Whether a certificate URL is PayPal's: https on paypal.com or one of its hosts, no port or credentials. */
function paypalCertificateUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase();
  return url.protocol === 'https:' && url.port === '' && !url.username && !url.password && (host === 'paypal.com' || host.endsWith('.paypal.com'));
}

/**
 * What can be checked of a notification without PayPal: its headers (present, a PayPal
 * certificate URL, a transmission time within MAX_TRANSMISSION_SKEW_MS) and a JSON body with an
 * event type. Answers the event type; throws 400 invalid_signature otherwise.
 */
export function notificationType(headers: Pick<Headers, 'get'>, raw: string, now = Date.now()): string {
  const refuse = (why: string) => {
    console.warn(`[paypal] notificación rechazada sin consultar a PayPal: ${why}`);
    return new ApiError(400, INVALID_WEBHOOK_SIGNATURE, 'invalid_signature');
  };
  const value: Partial<Record<(typeof PAYPAL_HEADERS)[number], string>> = {};
  for (const name of PAYPAL_HEADERS) {
    const header = headers.get(name)?.trim();
    if (!header || header.length > 500) throw refuse(REFUSAL.missingHeader(name));
    value[name] = header;
  }
  if (!/^[A-Za-z0-9]+$/.test(value['paypal-auth-algo']!)) throw refuse(REFUSAL.badAlgorithm);
  if (!paypalCertificateUrl(value['paypal-cert-url']!)) throw refuse(REFUSAL.foreignCertificate);
  const sent = Date.parse(value['paypal-transmission-time']!);
  if (Number.isNaN(sent) || Math.abs(now - sent) > MAX_TRANSMISSION_SKEW_MS) throw refuse(REFUSAL.outOfTime);
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw refuse(REFUSAL.notJson);
  }
  const type = (body as { event_type?: unknown } | null)?.event_type;
  if (typeof type !== 'string' || type.length === 0 || type.length > 255) throw refuse(REFUSAL.noEventType);
  return type;
}

/** POST /api/paypal/webhook: see the top of this file. */
export async function paypalWebhook(request: Request, ctx: ServerContext): Promise<Response> {
  const paypal = requirePayPal(ctx);
  const raw = await readText(request, MAX_NOTIFICATION_BYTES);
  const type = notificationType(request.headers, raw);
  if (!HANDLED_EVENTS.has(type)) {
    // Nothing would be done with it: not worth an access token and a call to PayPal.
    console.info(`[paypal] evento ${type} sin acción (no se consulta a PayPal)`);
    return json({ received: true, handled: false });
  }
  const event = await provider(() => paypal.verifyWebhook(request.headers, raw));
  let outcome: Outcome;
  try {
    switch (event.type) {
      case 'PAYMENT.CAPTURE.COMPLETED':
        outcome = await captureCompleted(ctx, paypal, event);
        break;
      case 'PAYMENT.CAPTURE.DENIED':
        outcome = await captureDenied(ctx, paypal, event);
        break;
      case 'PAYMENT.CAPTURE.REFUNDED':
      case 'PAYMENT.CAPTURE.REVERSED':
        outcome = await captureRefunded(ctx, paypal, event);
        break;
      default:
        outcome = { handled: false };
    }
  } catch (error) {
    // A notification about something that is not the shop's (an unknown order) is answered, not
    // retried; PayPal or the database failing is a 502 and PayPal delivers it again.
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    outcome = { handled: false, message: error.message };
  }
  if (!outcome.handled) console.info(`[paypal] evento ${event.id} (${event.type}) sin acción${outcome.message ? `: ${outcome.message}` : ''}`);
  return json({ received: true, ...outcome });
}
