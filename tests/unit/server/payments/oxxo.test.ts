/**
 * OXXO vouchers with the simulated card on an in-memory store and a stand-in database: the amounts
 * OXXO takes, the voucher the order already has handed out again, the caller's own voucher, the
 * release of an order whose voucher expired unpaid, and settling only a paid one. The whole flows
 * against the local stack: tests/server/payments-oxxo-installments.test.ts, oxxo-store-credit.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { centavos } from '~/domain/money.ts';
import type { OrderRow } from '~/server/orders/order-row.ts';
import { cancelOxxoVoucher, createOxxoVoucher, ownVoucher, releaseOxxoOrder, settleOxxo } from '~/server/payments/oxxo.ts';
import type { IntentInfo } from '~/server/payments/providers/types.ts';
import { endpointContext, ORDER_ID, post, SHOPPER, storedOrder } from './endpoint-context.ts';

const voucher = { reference: '12345678901234', expiresAt: '2026-12-03T05:59:59.000Z', paymentIntentId: 'pi_sim_1', amount: 129_900, hostedVoucherUrl: null };

function order(fields: Partial<OrderRow> = {}): OrderRow {
  return { ...(storedOrder() as unknown as OrderRow), total: centavos(129_900), subtotal: centavos(129_900), credit_applied: centavos(0), ...fields };
}

function intent(fields: Partial<IntentInfo>): IntentInfo {
  return {
    id: 'pi_sim_1',
    orderId: ORDER_ID,
    status: 'requires_action',
    amount: centavos(129_900),
    currency: 'mxn',
    method: 'oxxo',
    clientSecret: null,
    ...fields,
  } as IntentInfo;
}

describe('createOxxoVoucher', () => {
  it('refuses an amount OXXO does not take, and 503 without a card provider', async () => {
    await expect(createOxxoVoucher(endpointContext().ctx, SHOPPER, order(), centavos(500))).rejects.toMatchObject({
      status: 409,
      code: 'oxxo_amount_out_of_range',
    });
    await expect(
      createOxxoVoucher(endpointContext({}, { mode: 'live', card: null, paypal: null }).ctx, SHOPPER, order(), centavos(129_900)),
    ).rejects.toMatchObject({ status: 503 });
  });

  it('hands out the voucher the order already has for that amount, asking nothing', async () => {
    const { ctx, calls } = endpointContext();
    const answer = await createOxxoVoucher(ctx, SHOPPER, order({ payment_method: 'oxxo', oxxo_voucher: voucher }), centavos(129_900));
    expect(await answer.json()).toEqual({ voucher, paymentIntentId: 'pi_sim_1' });
    expect(calls).toHaveLength(0);
  });
});

describe('ownVoucher', () => {
  it("answers the caller's order and its voucher, and 404 for an order paid another way", async () => {
    const withVoucher = endpointContext({ orders: [{ data: storedOrder({ payment_method: 'oxxo', oxxo_voucher: voucher }), error: null }] });
    expect((await ownVoucher(withVoucher.ctx, SHOPPER, ORDER_ID)).voucher).toEqual(voucher);
    const card = endpointContext({ orders: [{ data: storedOrder({ payment_method: 'card', oxxo_voucher: voucher }), error: null }] });
    await expect(ownVoucher(card.ctx, SHOPPER, ORDER_ID)).rejects.toMatchObject({ status: 404, code: 'voucher_not_found' });
  });

  it('is what cancelling a voucher checks first', async () => {
    const none = endpointContext({ orders: [{ data: storedOrder(), error: null }] });
    await expect(cancelOxxoVoucher(post('/api/payments/oxxo/cancel', { orderId: ORDER_ID }), none.ctx)).rejects.toMatchObject({ status: 404 });
    const paid = endpointContext({ orders: [{ data: storedOrder({ status: 'Pagado', payment_method: 'oxxo', oxxo_voucher: voucher }), error: null }] });
    await expect(cancelOxxoVoucher(post('/api/payments/oxxo/cancel', { orderId: ORDER_ID }), paid.ctx)).rejects.toMatchObject({
      status: 409,
      code: 'order_not_pending',
    });
  });
});

describe('releaseOxxoOrder and settleOxxo', () => {
  it('releases only an unpaid OXXO intent that is still its pending order’s voucher', async () => {
    for (const skipped of [
      intent({ status: 'succeeded' }),
      intent({ status: 'processing' }),
      intent({ method: 'card', status: 'canceled' }),
      intent({ orderId: null, status: 'canceled' }),
    ]) {
      const { ctx, calls } = endpointContext();
      expect(await releaseOxxoOrder(ctx, skipped)).toBe(false);
      expect(calls).toHaveLength(0);
    }
    const replaced = endpointContext({ orders: [{ data: [], error: null }] });
    expect(await releaseOxxoOrder(replaced.ctx, intent({ status: 'canceled' }))).toBe(false);
    expect(replaced.calls[0]!.steps).toContainEqual({ method: 'eq', args: ['oxxo_voucher->>paymentIntentId', 'pi_sim_1'] });

    const { ctx, calls } = endpointContext({ orders: [{ data: [{ id: ORDER_ID }], error: null }] });
    expect(await releaseOxxoOrder(ctx, intent({ status: 'canceled' }))).toBe(true);
    expect(calls.map((call) => call.table)).toEqual(['orders', 'rpc:release_expired_orders', 'payment_attempts']);
  });

  it('settles only an intent that was paid', async () => {
    await expect(settleOxxo(endpointContext().ctx, intent({ status: 'requires_action' }))).rejects.toMatchObject({ status: 402, code: 'payment_incomplete' });
  });
});
