/**
 * What a payment endpoint checks before anything else: that this server has the provider it needs
 * (503 otherwise, as in live mode without that provider's keys; 404 for the simulated-only and
 * Stripe-only endpoints elsewhere), that the ids a request names are well formed, and how a
 * provider's refusal reaches the caller.
 */
import { z } from 'zod';
import { PAYMENTS_GUARD_TEXT } from '~/i18n/payments.ts';
import type { ServerContext } from '../context.ts';
import { ApiError } from '../http/json.ts';
import { SimulatedCardProvider } from './providers/simulated-card.ts';
import { SimulatedPayPalProvider } from './providers/simulated-paypal.ts';
import { StripeCardProvider } from './providers/stripe.ts';
import { PaymentError, type CardProvider, type PayPalProvider } from './providers/types.ts';

/** An order id in a request body. */
export const orderIdSchema = z.string({ error: PAYMENTS_GUARD_TEXT.orderIdMissing }).uuid({ error: PAYMENTS_GUARD_TEXT.orderIdInvalid });

/** A provider's id in a request (customer, card, intent, PayPal order). */
export const providerIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[\w-]+$/, { error: PAYMENTS_GUARD_TEXT.idInvalid });

/** A provider id taken from the URL; 400 naming `what` when it is not one. */
export function checkId(value: string | undefined, what: string): string {
  const parsed = providerIdSchema.safeParse(value ?? '');
  if (!parsed.success) throw new ApiError(400, PAYMENTS_GUARD_TEXT.namedIdInvalid(what), 'invalid_request');
  return parsed.data;
}

/** Runs a provider call, turning its refusals into 4xx answers with its Spanish message. */
export async function provider<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof PaymentError) throw new ApiError(error.status, error.message, error.code);
    throw error;
  }
}

/** The card provider, or 503 when this server has none (live mode without Stripe's keys). */
export function requireCard(ctx: ServerContext): CardProvider {
  if (!ctx.payments.card) throw new ApiError(503, PAYMENTS_GUARD_TEXT.cardUnavailable, 'provider_unavailable');
  return ctx.payments.card;
}

/** The PayPal provider, or 503 when this server has none (live mode without PayPal's keys). */
export function requirePayPal(ctx: ServerContext): PayPalProvider {
  if (!ctx.payments.paypal) throw new ApiError(503, PAYMENTS_GUARD_TEXT.paypalNotConfigured, 'provider_unavailable');
  return ctx.payments.paypal;
}

/** Stripe itself, for what only Stripe.js needs (meses sin intereses); 404 otherwise. */
export function stripeCard(ctx: ServerContext): StripeCardProvider {
  const card = requireCard(ctx);
  if (!(card instanceof StripeCardProvider)) throw new ApiError(404, PAYMENTS_GUARD_TEXT.notFound, 'not_found');
  return card;
}

/** The simulated card provider; nothing simulated exists in live mode: these endpoints answer 404 there. */
export function simulatedCard(ctx: ServerContext): SimulatedCardProvider {
  if (ctx.payments.mode !== 'simulated' || !(ctx.payments.card instanceof SimulatedCardProvider))
    throw new ApiError(404, PAYMENTS_GUARD_TEXT.notFound, 'not_found');
  return ctx.payments.card;
}

/** The simulated PayPal (its approval window); 404 in live mode. */
export function simulatedPayPal(ctx: ServerContext): SimulatedPayPalProvider {
  if (ctx.payments.mode !== 'simulated' || !(ctx.payments.paypal instanceof SimulatedPayPalProvider))
    throw new ApiError(404, PAYMENTS_GUARD_TEXT.notFound, 'not_found');
  return ctx.payments.paypal;
}
