/**
 * What a payment endpoint checks first: the provider this server has (503 without it, 404 for
 * what only exists in simulated mode or only with Stripe), well-formed ids, and a provider's
 * refusal turned into an answer with its Spanish message.
 */
import { describe, expect, it } from 'vitest';
import type { ServerContext } from '~/server/context.ts';
import { ApiError } from '~/server/http/json.ts';
import { checkId, orderIdSchema, provider, requireCard, requirePayPal, simulatedCard, simulatedPayPal, stripeCard } from '~/server/payments/guards.ts';
import { memorySimStore } from '~/server/payments/providers/simulated-records.ts';
import { SimulatedCardProvider } from '~/server/payments/providers/simulated-card.ts';
import { SimulatedPayPalProvider } from '~/server/payments/providers/simulated-paypal.ts';
import { StripeCardProvider } from '~/server/payments/providers/stripe.ts';
import { PaymentError } from '~/server/payments/providers/types.ts';

const store = memorySimStore();
const simulated = {
  payments: { mode: 'simulated', card: new SimulatedCardProvider(store), paypal: new SimulatedPayPalProvider(store), testMode: true },
} as unknown as ServerContext;
const stripe = new StripeCardProvider('sk_test_x', 'whsec_x');
const live = { payments: { mode: 'live', card: stripe, paypal: null, testMode: true } } as unknown as ServerContext;
const none = { payments: { mode: 'live', card: null, paypal: null, testMode: false } } as unknown as ServerContext;

function refusal(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('no refusal');
}

describe('the providers an endpoint needs', () => {
  it('answers 503 when this server has no card or PayPal provider', () => {
    expect(refusal(() => requireCard(none))).toMatchObject({ status: 503, code: 'provider_unavailable' });
    expect(refusal(() => requirePayPal(live))).toMatchObject({ status: 503, message: 'PayPal no está configurado.' });
    expect(requireCard(live)).toBe(stripe);
  });

  it('finds Stripe itself only in live mode with Stripe, and the simulated providers only in simulated mode', () => {
    expect(stripeCard(live)).toBe(stripe);
    expect(refusal(() => stripeCard(simulated))).toMatchObject({ status: 404 });
    expect(simulatedCard(simulated)).toBeInstanceOf(SimulatedCardProvider);
    expect(simulatedPayPal(simulated)).toBeInstanceOf(SimulatedPayPalProvider);
    expect(refusal(() => simulatedCard(live))).toMatchObject({ status: 404, code: 'not_found' });
    expect(refusal(() => simulatedPayPal(none))).toMatchObject({ status: 404 });
  });
});

describe('ids in a request', () => {
  it('takes a provider id of word characters and dashes, trimmed, and answers 400 naming it otherwise', () => {
    expect(checkId(' pm_123-abc ', 'La tarjeta')).toBe('pm_123-abc');
    for (const bad of [undefined, '', 'pm 1', 'pm/1', 'x'.repeat(256)])
      expect(refusal(() => checkId(bad, 'La tarjeta'))).toMatchObject({ status: 400, message: 'La tarjeta no es válido.' });
  });

  it('takes an order id only as a uuid', () => {
    expect(orderIdSchema.safeParse('0f8fad5b-d9cb-469f-a165-70867728950e').success).toBe(true);
    expect(orderIdSchema.safeParse('pedido-1').error?.issues[0]?.message).toBe('El pedido (orderId) no es válido.');
  });
});

describe('provider', () => {
  it("answers with the provider's refusal, and lets other failures through as they are", async () => {
    await expect(provider(async () => 'ok')).resolves.toBe('ok');
    const declined = await provider(async () => {
      throw new PaymentError('Tu tarjeta fue rechazada.', 402, 'card_declined');
    }).catch((error: unknown) => error);
    expect(declined).toBeInstanceOf(ApiError);
    expect(declined).toMatchObject({ status: 402, code: 'card_declined', message: 'Tu tarjeta fue rechazada.' });
    const broken = new Error('socket hang up');
    await expect(
      provider(async () => {
        throw broken;
      }),
    ).rejects.toBe(broken);
  });
});
