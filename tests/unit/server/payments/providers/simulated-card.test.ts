import { describe, expect, it } from 'vitest';
import { SimulatedCardProvider } from '~/server/payments/providers/simulated-card.ts';
import { memorySimStore } from '~/server/payments/providers/simulated-records.ts';
import { PaymentError } from '~/server/payments/providers/types.ts';
import { centavos } from '~/domain/money.ts';
import { PAYMENTS_SIMULATED_CARD_TEXT } from '~/i18n/payments.ts';

const USER = 'user-1';
const card = (number: string) => ({ number, expMonth: 12, expYear: 2040, cvc: '123' });

async function setup() {
  const provider = new SimulatedCardProvider(memorySimStore());
  const customerId = await provider.createCustomer({ id: USER, email: 'a@b.mx' });
  const intent = await provider.createPaymentIntent({ orderId: 'order-1', userId: USER, amount: centavos(69_800), customerId, idempotencyKey: 'k1' });
  return { provider, customerId, intent };
}

describe('simulated card provider', () => {
  it('returns the same customer and the same intent for the same idempotency key', async () => {
    const { provider, customerId, intent } = await setup();
    expect(await provider.createCustomer({ id: USER, email: 'a@b.mx' })).toBe(customerId);
    const again = await provider.createPaymentIntent({ orderId: 'order-1', userId: USER, amount: centavos(69_800), customerId, idempotencyKey: 'k1' });
    expect(again.id).toBe(intent.id);
    expect(intent).toMatchObject({ amount: 69_800, currency: 'mxn', status: 'requires_payment_method', orderId: 'order-1' });
  });

  it('succeeds with 4242 and saves the card only when asked, first card default', async () => {
    const { provider, customerId, intent } = await setup();
    const result = await provider.confirmCard(intent.clientSecret!, USER, card('4242424242424242'), true);
    expect(result).toMatchObject({ status: 'succeeded', error: null });
    expect((await provider.retrievePaymentIntent(intent.id))!.status).toBe('succeeded');
    const cards = await provider.listPaymentMethods(customerId);
    expect(cards).toEqual([
      { id: expect.stringMatching(/^pm_sim_/), type: 'card', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2040 }, is_default: true },
    ]);
    // A second confirmation of a succeeded intent does nothing more.
    const again = await provider.confirmCard(intent.clientSecret!, USER, card('4242424242424242'), true);
    expect(again.status).toBe('succeeded');
    expect(await provider.listPaymentMethods(customerId)).toHaveLength(1);
  });

  it('declines 0002 and 9995, leaving the intent open for another card', async () => {
    const { provider, intent } = await setup();
    expect(await provider.confirmCard(intent.clientSecret!, USER, card('4000000000000002'), false)).toMatchObject({
      status: 'requires_payment_method',
      error: 'Tu tarjeta fue rechazada.',
    });
    expect(await provider.confirmCard(intent.clientSecret!, USER, card('4000000000009995'), false)).toMatchObject({
      error: 'Tu tarjeta no tiene fondos suficientes.',
    });
    expect(await provider.confirmCard(intent.clientSecret!, USER, card('4242424242424242'), false)).toMatchObject({ status: 'succeeded' });
  });

  it('asks 3184 to authenticate; refusing leaves it unpaid, approving pays', async () => {
    const { provider, intent } = await setup();
    expect((await provider.confirmCard(intent.clientSecret!, USER, card('4000002760003184'), false)).status).toBe('requires_action');
    expect((await provider.authenticate(intent.clientSecret!, USER, false)).status).toBe('requires_payment_method');
    expect((await provider.confirmCard(intent.clientSecret!, USER, card('4000002760003184'), false)).status).toBe('requires_action');
    expect((await provider.authenticate(intent.clientSecret!, USER, true)).status).toBe('succeeded');
  });

  it('a payment closed with its order says so when the shopper confirms or authenticates it, and charges nothing', async () => {
    const { provider, intent } = await setup();
    expect((await provider.confirmCard(intent.clientSecret!, USER, card('4000002760003184'), false)).status).toBe('requires_action');
    expect((await provider.cancelPaymentIntent(intent.id))!.status).toBe('canceled');
    const closed = { status: 409, code: 'intent_unexpected_state', message: PAYMENTS_SIMULATED_CARD_TEXT.canceled };
    await expect(provider.authenticate(intent.clientSecret!, USER, true)).rejects.toMatchObject(closed);
    await expect(provider.confirmCard(intent.clientSecret!, USER, card('4242424242424242'), false)).rejects.toMatchObject(closed);
    expect((await provider.retrievePaymentIntent(intent.id))!.status).toBe('canceled');
    // An intent that is open but not waiting for an authentication keeps its own refusal.
    const open = await setup();
    await expect(open.provider.authenticate(open.intent.clientSecret!, USER, true)).rejects.toMatchObject({
      status: 409,
      message: PAYMENTS_SIMULATED_CARD_TEXT.noAuthentication,
    });
  });

  it('refuses a wrong secret or another user, and invalid cards with a 400', async () => {
    const { provider, intent } = await setup();
    await expect(provider.confirmCard(`${intent.id}_secret_wrong`, USER, card('4242424242424242'), false)).rejects.toBeInstanceOf(PaymentError);
    await expect(provider.confirmCard(intent.clientSecret!, 'user-2', card('4242424242424242'), false)).rejects.toMatchObject({ status: 404 });
    await expect(provider.confirmCard(intent.clientSecret!, USER, card('1234'), false)).rejects.toMatchObject({ status: 400 });
  });

  it('two confirmations at once move the intent only once', async () => {
    const { provider, customerId, intent } = await setup();
    const results = await Promise.all([
      provider.confirmCard(intent.clientSecret!, USER, card('4242424242424242'), true),
      provider.confirmCard(intent.clientSecret!, USER, card('4242424242424242'), true),
    ]);
    expect(results.map((r) => r.status).sort()).toContain('succeeded');
    expect(await provider.listPaymentMethods(customerId)).toHaveLength(1);
  });

  it('detaching the default leaves no default', async () => {
    const { provider, customerId, intent } = await setup();
    await provider.confirmCard(intent.clientSecret!, USER, card('4242424242424242'), true);
    const [saved] = await provider.listPaymentMethods(customerId);
    expect(await provider.paymentMethodCustomer(saved!.id)).toBe(customerId);
    await provider.detachPaymentMethod(saved!.id);
    expect(await provider.listPaymentMethods(customerId)).toEqual([]);
    expect(await provider.paymentMethodCustomer(saved!.id)).toBeNull();
  });

  it("reports the card's funding once the card paid, as Stripe's charge does: 5556 debit, 5100 prepaid, 4242 credit", async () => {
    const paidWith = async (number: string) => {
      const { provider, intent } = await setup();
      expect((await provider.retrievePaymentIntent(intent.id))!.funding).toBeNull();
      await provider.confirmCard(intent.clientSecret!, USER, card(number), false);
      return provider.retrievePaymentIntent(intent.id);
    };
    expect(await paidWith('4000056655665556')).toMatchObject({ status: 'succeeded', method: 'card', funding: 'debit' });
    expect(await paidWith('5105105105105100')).toMatchObject({ status: 'succeeded', method: 'card', funding: 'prepaid' });
    expect(await paidWith('4242424242424242')).toMatchObject({ status: 'succeeded', method: 'card', funding: 'credit' });
  });
});
