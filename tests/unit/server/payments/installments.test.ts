/**
 * Meses sin intereses: the plans of a total for the months the issuer offered, and the Stripe-only
 * endpoints (404 with the simulated card, whose plans are simulated.ts's).
 */
import { describe, expect, it } from 'vitest';
import { centavos } from '~/domain/money.ts';
import { confirmInstallments, installmentPlans, planOptions } from '~/server/payments/installments.ts';
import { endpointContext, ORDER_ID, post } from './endpoint-context.ts';

describe('planOptions', () => {
  it('offers each month count once, in order, with the monthly amount and its label', () => {
    const plans = planOptions(centavos(120_000), [12, 3, 6, 3]);
    expect(plans.map((plan) => plan.months)).toEqual([3, 6, 12]);
    expect(plans[0]).toEqual({ months: 3, monthly: 40_000, label: '3 meses sin intereses de $400.00' });
  });

  it('offers no plan below $300.00, and no month count the shop does not offer', () => {
    expect(planOptions(centavos(29_999), [3, 6])).toEqual([]);
    expect(planOptions(centavos(30_000), [3]).map((plan) => plan.months)).toEqual([3]);
    expect(planOptions(centavos(120_000), [1, 5, 7]).map((plan) => plan.months)).toEqual([]);
  });
});

describe('the Stripe endpoints', () => {
  it('answer 404 with the simulated card, and 503 without a card provider', async () => {
    const body = { orderId: ORDER_ID, paymentIntentId: 'pi_1', paymentMethodId: 'pm_1' };
    await expect(installmentPlans(post('/api/payments/installments', body), endpointContext().ctx)).rejects.toMatchObject({ status: 404 });
    await expect(confirmInstallments(post('/api/payments/installments/confirm', { ...body, months: 3 }), endpointContext().ctx)).rejects.toMatchObject({
      status: 404,
    });
    await expect(
      installmentPlans(post('/api/payments/installments', body), endpointContext({}, { mode: 'live', card: null, paypal: null }).ctx),
    ).rejects.toMatchObject({
      status: 503,
    });
  });
});
