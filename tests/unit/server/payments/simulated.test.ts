/**
 * The simulated payment endpoints: nothing simulated exists in live mode (404), and with the
 * simulated card a declined card is answered without settling anything, the issuer's plans are
 * those of the intent's amount, and the store counter refuses a link without its token.
 */
import { describe, expect, it } from 'vitest';
import { centavos } from '~/domain/money.ts';
import {
  simulatedAuthenticate,
  simulatedConfirm,
  simulatedInstallmentPlans,
  simulatedOxxoCounter,
  simulatedOxxoExpire,
  simulatedOxxoPay,
} from '~/server/payments/simulated.ts';
import { endpointContext, ORDER_ID, post, SHOPPER, simulatedPayments } from './endpoint-context.ts';

const live = () => endpointContext({}, { mode: 'live', card: { name: 'stripe' }, paypal: null }).ctx;

async function newIntent(payments: ReturnType<typeof simulatedPayments>, amount = 129_900) {
  return payments.card.createPaymentIntent({
    orderId: ORDER_ID,
    userId: SHOPPER.id,
    amount: centavos(amount),
    customerId: 'cus_1',
    idempotencyKey: `k-${amount}`,
    installments: true,
  });
}

describe('in live mode', () => {
  it('answers 404 for every simulated endpoint', async () => {
    const body = { orderId: ORDER_ID, clientSecret: 'pi_sim_1_secret_x', approve: true, number: '4242' };
    for (const endpoint of [simulatedConfirm, simulatedAuthenticate, simulatedInstallmentPlans, simulatedOxxoPay, simulatedOxxoExpire])
      await expect(endpoint(post('/api/payments/simulated', body), live())).rejects.toMatchObject({ status: 404 });
    await expect(simulatedOxxoCounter(new Request('https://tienda.mx/api/payments/simulated/oxxo/pi_1?token=x'), live(), 'pi_1')).rejects.toMatchObject({
      status: 404,
    });
  });
});

describe('with the simulated card', () => {
  it("answers a declined card's outcome without settling the order", async () => {
    const payments = simulatedPayments();
    const intent = await newIntent(payments);
    const { ctx, calls } = endpointContext({ orders: [{ data: null, error: null }] }, payments);
    const card = { number: '4000000000000002', expMonth: 12, expYear: 2030, cvc: '123' };
    const answer = (await (await simulatedConfirm(post('/api/payments/simulated/confirm', { clientSecret: intent.clientSecret, card }), ctx)).json()) as Record<
      string,
      unknown
    >;
    expect(answer.status).not.toBe('succeeded');
    expect(answer.error).toEqual(expect.any(String));
    expect(calls.some((call) => call.table.startsWith('rpc:'))).toBe(false);
  });

  it("offers the issuer's plans for the intent's amount", async () => {
    const payments = simulatedPayments();
    const intent = await newIntent(payments);
    const { ctx } = endpointContext({}, payments);
    const plans = async (number: string) =>
      (
        (await (await simulatedInstallmentPlans(post('/api/payments/simulated/installments', { clientSecret: intent.clientSecret, number }), ctx)).json()) as {
          plans: Array<{ months: number; monthly: number; label: string }>;
        }
      ).plans;
    const offered = await plans('4000004840008001');
    expect(offered.map((plan) => plan.months)).toEqual([3, 6, 9, 12, 18, 24]);
    expect(offered[0]).toEqual({ months: 3, monthly: 43_300, label: '3 meses sin intereses de $433.00' });
    expect(await plans('4242424242424242')).toEqual([]);
  });

  it('shows the store counter only with the voucher’s own token', async () => {
    const payments = simulatedPayments();
    const { ctx } = endpointContext({}, payments);
    const page = await simulatedOxxoCounter(new Request('https://tienda.mx/api/payments/simulated/oxxo/pi_sim_x?token=nada'), ctx, 'pi_sim_x');
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('Ficha de pago no encontrada');
  });
});
