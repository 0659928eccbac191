/**
 * What a payment endpoint checks before anything else: that this server has the provider it needs
 * (503 otherwise, as in live mode without that provider's keys).
 */
import type { ServerContext } from '../context.ts';
import { ApiError } from '../http/json.ts';
import type { CardProvider, PayPalProvider } from './types.ts';

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
