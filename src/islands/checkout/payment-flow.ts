/**
 * The browser side of a payment: ask the server for the order's intent (the amount comes from the
 * stored order), then report the provider's success to the server, which verifies it before the
 * order becomes 'Pagado'.
 */
import { CHECKOUT_MESSAGES } from '~/i18n/checkout.ts';
import * as z from 'zod/mini';
import { postApi } from '~/data/api.ts';
import type { Centavos } from '~/domain/money.ts';
import { ORDER_STATUS } from '~/domain/orders.ts';
import { noteAddressGap } from '~/stores/checkout.ts';

/** The card form's states. */
export type PaymentState = 'idle' | 'processing' | 'success' | 'error';

/** The payment intent the server created for the order. */
const intentAnswer = z.looseObject({ clientSecret: z.optional(z.string()), paymentIntentId: z.optional(z.string()) });
/** The order's status after the server settled a payment. */
const statusAnswer = z.looseObject({ status: z.string() });

/** A payment outcome the UI shows. */
export type FlowResult = { ok: true } | { ok: false; message: string };

/**
 * Asks the server for the order's payment intent; the amount sent must match the stored total. An
 * address the server refuses as incomplete sends the checkout back to the address
 * (`noteAddressGap`), unless `reportAddressGap` is false (a lookup in the background).
 */
export async function requestClientSecret(
  orderId: string,
  totalCentavos: Centavos,
  { reportAddressGap = true }: { reportAddressGap?: boolean } = {},
): Promise<{ ok: true; clientSecret: string; paymentIntentId: string } | { ok: false; message: string }> {
  const answer = await postApi('/api/create-payment-intent', { orderId, amount: totalCentavos }, intentAnswer);
  if (reportAddressGap) noteAddressGap(orderId, answer);
  if (!answer.ok) return { ok: false, message: answer.message ?? CHECKOUT_MESSAGES.paymentFailed };
  if (!answer.data?.clientSecret) return { ok: false, message: CHECKOUT_MESSAGES.noClientSecret };
  return { ok: true, clientSecret: answer.data.clientSecret, paymentIntentId: answer.data.paymentIntentId ?? answer.data.clientSecret.split('_secret_')[0]! };
}

/** Tells the server a card payment succeeded; it checks with the provider and marks the order paid. */
export async function confirmOnServer(orderId: string, paymentIntentId: string): Promise<FlowResult> {
  const answer = await postApi('/api/payments/confirm', { orderId, paymentIntentId }, statusAnswer);
  if (!answer.ok || answer.data?.status !== ORDER_STATUS.paid) return { ok: false, message: answer.message ?? CHECKOUT_MESSAGES.paymentError };
  return { ok: true };
}
