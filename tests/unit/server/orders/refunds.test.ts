/**
 * Which ways the shop may refund an order, decided once on the server (the back office's dialog
 * shows what this answers): from how the order was paid, never from the browser.
 */
import { describe, expect, it } from 'vitest';
import { ORDER_STATUS, type OrderStatus } from '~/domain/orders.ts';
import { ApiError } from '~/server/http/json.ts';
import { ORDER_ALREADY_REFUNDED, refundOptions, requireRefundable } from '~/server/orders/refunds.ts';

const paid = (payment_method: string | null, payment_provider: string | null, status: OrderStatus = ORDER_STATUS.paid) => ({
  status,
  payment_method,
  payment_provider,
});

describe('refundOptions', () => {
  it('a card or PayPal payment goes back through its provider first, or to the balance', () => {
    expect(refundOptions(paid('card', 'stripe'))).toEqual({ ways: ['provider', 'store_credit'], provider: 'card', asksForRestock: false });
    expect(refundOptions(paid('paypal', 'paypal'))).toEqual({ ways: ['provider', 'store_credit'], provider: 'paypal', asksForRestock: false });
  });

  it('an order without payment_method is read from its provider', () => {
    expect(refundOptions(paid(null, 'simulated-card')).provider).toBe('card');
    expect(refundOptions(paid(null, 'simulated-paypal')).provider).toBe('paypal');
  });

  it('cash at OXXO, the balance and unknown payments never go back through a provider', () => {
    for (const order of [
      paid('oxxo', 'stripe'),
      paid('store_credit', 'store_credit'),
      paid(null, 'store_credit'),
      paid(null, null),
      paid('cheque', 'stripe'),
    ]) {
      expect(refundOptions(order), JSON.stringify(order)).toEqual({ ways: ['store_credit', 'bank_transfer'], provider: null, asksForRestock: false });
    }
  });

  it("asks about the units' return only for an order that left the shop", () => {
    expect(refundOptions(paid('card', 'stripe', ORDER_STATUS.shipped)).asksForRestock).toBe(true);
    expect(refundOptions(paid('card', 'stripe', ORDER_STATUS.completed)).asksForRestock).toBe(true);
    expect(refundOptions(paid('card', 'stripe', ORDER_STATUS.processing)).asksForRestock).toBe(false);
  });
});

describe('requireRefundable', () => {
  const refusal = (status: OrderStatus): unknown => {
    try {
      requireRefundable({ status });
    } catch (error) {
      return error;
    }
    return null;
  };

  it('lets paid, processing, shipped and completed orders through', () => {
    for (const status of [ORDER_STATUS.paid, ORDER_STATUS.processing, ORDER_STATUS.shipped, ORDER_STATUS.completed]) {
      expect(refusal(status), status).toBeNull();
    }
  });

  it('refuses a refunded order with the reason, and a pending or cancelled one', () => {
    expect(refusal(ORDER_STATUS.refunded)).toMatchObject({ status: 409, message: ORDER_ALREADY_REFUNDED });
    expect(refusal(ORDER_STATUS.pending)).toBeInstanceOf(ApiError);
    expect(refusal(ORDER_STATUS.cancelled)).toMatchObject({ status: 409 });
  });
});
