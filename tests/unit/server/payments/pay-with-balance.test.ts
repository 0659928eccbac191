/**
 * 'Usar saldo a favor' with a stand-in database: the database decides how much of the balance an
 * order takes; the endpoint answers it, sends the receipt when the balance paid all of it, gives
 * the balance back after closing the order's open payments, and turns the database's refusals
 * into the shopper's messages. Against the local stack: tests/server/oxxo-store-credit.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { STORE_CREDIT_MESSAGES } from '~/i18n/orders.ts';
import { storeCreditPayment } from '~/server/payments/pay-with-balance.ts';
import { endpointContext, ORDER_ID, post, SHOPPER, storedOrder } from './endpoint-context.ts';

describe('storeCreditPayment', () => {
  it('applies what the database decides, and sends the receipt only when the order is paid whole', async () => {
    const onPaid = vi.fn(async () => undefined);
    const partial = endpointContext({ 'rpc:apply_store_credit': [{ data: { applied: 20_000, credit: 0, due: 109_900, status: 'Pendiente' }, error: null }] });
    const answer = await storeCreditPayment(post('/api/payments/store-credit', { orderId: ORDER_ID, use: true }), partial.ctx, onPaid);
    expect(await answer.json()).toEqual({ orderId: ORDER_ID, applied: 20_000, credit: 0, due: 109_900, status: 'Pendiente' });
    expect(partial.calls[0]!.steps[0]!.args[0]).toEqual({ p_order_id: ORDER_ID, p_user: SHOPPER.id });
    expect(onPaid).not.toHaveBeenCalled();

    const whole = endpointContext({ 'rpc:apply_store_credit': [{ data: { applied: 129_900, credit: 100, due: 0, status: 'Pagado' }, error: null }] });
    await storeCreditPayment(post('/api/payments/store-credit', { orderId: ORDER_ID, use: true }), whole.ctx, onPaid);
    expect(onPaid).toHaveBeenCalledWith(ORDER_ID, SHOPPER.email);
  });

  it("answers the database's refusals with the shopper's message, and fails on anything else", async () => {
    const refused = (details: string) => endpointContext({ 'rpc:apply_store_credit': [{ data: null, error: { message: 'refused', details } }] }).ctx;
    const request = () => post('/api/payments/store-credit', { orderId: ORDER_ID, use: true });
    await expect(storeCreditPayment(request(), refused('no_credit'))).rejects.toMatchObject({
      status: 409,
      code: 'no_credit',
      message: STORE_CREDIT_MESSAGES.noCredit,
    });
    await expect(storeCreditPayment(request(), refused('order_not_found'))).rejects.toMatchObject({ status: 404 });
    await expect(storeCreditPayment(request(), refused('otra_cosa'))).rejects.toThrow('saldo a favor: refused');
  });

  it("gives the balance back from the caller's own order after closing its open payments", async () => {
    const { ctx, calls } = endpointContext({
      orders: [{ data: storedOrder(), error: null }],
      payment_attempts: [{ data: [], error: null }],
      'rpc:release_store_credit': [{ data: '200.00', error: null }],
    });
    const answer = await storeCreditPayment(post('/api/payments/store-credit', { orderId: ORDER_ID, use: false }), ctx);
    expect(await answer.json()).toEqual({ orderId: ORDER_ID, released: 200, status: 'Pendiente' });
    expect(calls.map((call) => call.table)).toEqual(['orders', 'payment_attempts', 'rpc:release_store_credit']);

    const other = endpointContext({ orders: [{ data: storedOrder({ user_id: 'otro' }), error: null }] });
    await expect(storeCreditPayment(post('/api/payments/store-credit', { orderId: ORDER_ID, use: false }), other.ctx)).rejects.toMatchObject({ status: 403 });
  });

  it('refuses a signed-out caller and a body without `use`', async () => {
    await expect(storeCreditPayment(post('/api/payments/store-credit', { orderId: ORDER_ID, use: true }, null), endpointContext().ctx)).rejects.toMatchObject({
      status: 401,
    });
    await expect(storeCreditPayment(post('/api/payments/store-credit', { orderId: ORDER_ID }), endpointContext().ctx)).rejects.toMatchObject({ status: 400 });
  });
});
