/**
 * Closing the provider payments still open for an order (payment_attempts): the sweeper closes
 * those of orders that can no longer take them, and releasing the balance applied to an order
 * closes that order's first, since a payment for the rest must not be confirmed once the balance
 * is back. A payment that took money meanwhile is settled instead (paid, refunded or credited).
 */
import type { ServerContext } from '../context.ts';
import { paypalCaptureCompleted, paypalCapturePending } from '../payments/providers/types.ts';
import { closeAttempt } from './attempts.ts';
import { capturePayment, intentPayment, settlePayment } from './settlement.ts';

/** An open provider payment of an order. */
export interface OpenAttempt {
  order_id: string;
  provider: string;
  ref: string;
}

/**
 * Closes one open provider payment: true when it is over (cancelled, voided or settled), false
 * when the provider is still deciding or the provider is not this server's (look again later).
 */
export async function closeOpenAttempt(ctx: ServerContext, attempt: OpenAttempt): Promise<boolean> {
  const { card, paypal } = ctx.payments;
  if (card && card.name === attempt.provider) {
    const intent = await card.cancelPaymentIntent(attempt.ref);
    if (intent?.status === 'succeeded' && intent.orderId) {
      // Money arrived after all: settle it (the order is paid, or the money goes back: refunded,
      // or credited to the balance for cash at OXXO).
      await settlePayment(ctx, intentPayment(card.name, { ...intent, orderId: intent.orderId }));
      return true;
    }
    if (intent && intent.status !== 'canceled') return false; // processing: look again next time
    await closeAttempt(ctx, attempt.provider, attempt.ref, 'canceled');
    return true;
  }
  if (paypal && paypal.name === attempt.provider) {
    const info = await paypal.getOrder(attempt.ref);
    if (info && paypalCaptureCompleted(info) && info.captureId) {
      await settlePayment(ctx, capturePayment(paypal.name, attempt.order_id, info, attempt.ref));
      return true;
    }
    if (paypalCapturePending(info)) return false; // PayPal has not decided yet: look again next time
    // Never captured, or a capture PayPal declined or that failed: no money, the attempt is over.
    await paypal.voidOrder(attempt.ref);
    await closeAttempt(ctx, attempt.provider, attempt.ref, 'canceled');
    return true;
  }
  // A provider this server does not have (the mode changed): leave it for one that does.
  return false;
}

/** Closes every open provider payment of one order that can be closed now; the rest stay open. */
export async function closeOrderAttempts(ctx: ServerContext, orderId: string): Promise<void> {
  const { data, error } = await ctx.admin.from('payment_attempts').select('order_id, provider, ref').eq('order_id', orderId).eq('status', 'open');
  if (error) throw new Error(`payment_attempts: ${error.message}`);
  for (const attempt of data ?? []) await closeOpenAttempt(ctx, attempt);
}
