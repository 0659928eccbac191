/**
 * The settlement path's pieces that need no database: what a provider's intent or capture makes
 * a payment to settle, the endpoint's answer (409 when the money went back or to the balance),
 * and the confirmation e-mail of an order paid without a provider. The whole path against the
 * local stack: tests/server (payments, settle-once, late payments).
 */
import { describe, expect, it, vi } from 'vitest';
import { centavos } from '~/domain/money.ts';
import { REFUND_MESSAGES } from '~/i18n/orders.ts';
import type { ServerContext } from '~/server/context.ts';
import { ApiError } from '~/server/http/json.ts';
import { capturePayment, intentPayment, sendOrderReceipt, settlementAnswer } from '~/server/orders/settlement.ts';
import { fakeSupabase } from '../../../support/fake-supabase.ts';

const ORDER_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('the payment to settle', () => {
  it("takes a card intent's amount, currency, method and plan as the provider reports them", () => {
    const intent = {
      id: 'pi_1',
      orderId: ORDER_ID,
      status: 'succeeded',
      amount: centavos(129_900),
      currency: 'mxn',
      method: 'card' as const,
      installments: 6,
      funding: 'credit' as const,
      clientSecret: null,
      customerId: null,
    };
    expect(intentPayment('stripe', intent)).toEqual({
      orderId: ORDER_ID,
      provider: 'stripe',
      ref: 'pi_1',
      amount: 129_900,
      currency: 'mxn',
      method: 'card',
      installments: 6,
      funding: 'credit',
    });
    const { method: _method, installments: _installments, funding: _funding, ...unsaid } = intent;
    expect(intentPayment('stripe', unsaid)).toMatchObject({ method: null, installments: null, funding: null });
  });

  it('takes a PayPal capture by its capture id, or its order id until there is one, completing the PayPal order', () => {
    const capture = { id: 'P-1', captureId: 'C-1', amount: centavos(50_000), currency: 'MXN' };
    expect(capturePayment('paypal', ORDER_ID, capture, 'P-1')).toEqual({
      orderId: ORDER_ID,
      provider: 'paypal',
      ref: 'C-1',
      amount: 50_000,
      currency: 'MXN',
      attemptRef: 'P-1',
    });
    expect(capturePayment('paypal', ORDER_ID, { ...capture, captureId: null }, 'P-1').ref).toBe('P-1');
  });
});

describe('settlementAnswer', () => {
  it('answers the order and its status when it was paid, or already was', () => {
    expect(settlementAnswer({ status: 'Pagado', changed: true, refunded: null }, ORDER_ID)).toEqual({ orderId: ORDER_ID, status: 'Pagado', changed: true });
    expect(settlementAnswer({ status: 'Reembolsado', changed: false, refunded: 'shop' }, ORDER_ID)).toMatchObject({ changed: false });
  });

  it('answers 409 with the reason when the money went back, and with the balance message when it was credited', () => {
    const refunded = (() => {
      try {
        return settlementAnswer({ status: 'Cancelado', changed: false, refunded: 'late_payment' }, ORDER_ID);
      } catch (error) {
        return error;
      }
    })();
    expect(refunded).toBeInstanceOf(ApiError);
    expect(refunded).toMatchObject({ status: 409, code: 'order_refunded', message: REFUND_MESSAGES.late_payment });
    expect(() =>
      settlementAnswer({ status: 'Cancelado', changed: false, refunded: 'late_payment', credited: true, amount: centavos(59_900) }, ORDER_ID),
    ).toThrow('Recibimos tu pago en OXXO de $599.00; lo abonamos a tu saldo a favor.');
  });
});

describe('sendOrderReceipt', () => {
  const order = {
    id: ORDER_ID,
    user_id: 'u1',
    status: 'Pagado',
    subtotal: '100.00',
    discount: 0,
    shipping: 0,
    total: '100.00',
    credit_applied: '100.00',
    paid_at: '2026-11-01T00:00:00Z',
    expires_at: null,
    shipping_address_id: 'a1',
    shipping_address: { street: 'Av. Reforma 1', city: 'CDMX' },
    payment_provider: null,
    payment_ref: null,
    payment_method: 'store_credit',
    installments: null,
    oxxo_voucher: null,
  };

  function context(orders: unknown, email: string | null) {
    const fake = fakeSupabase({
      orders: [{ data: orders, error: null }],
      order_items: [{ data: [{ quantity: 1, price: '100.00', offer_label: null, products: { name: 'Sobre' } }], error: null }],
      profiles: [{ data: { name: ' Ana ', lastname: 'García' }, error: null }],
    });
    const admin = Object.assign(fake.client, {
      auth: { ...fake.auth, admin: { getUserById: vi.fn(async () => ({ data: { user: email ? { email } : null } })) } },
    });
    const mail = vi.fn(async () => undefined);
    return { ctx: { admin, mail, siteUrl: 'https://tienda.mx' } as unknown as ServerContext, mail };
  }

  it("queues the confirmation once per order, to the shopper's account e-mail when none is given", async () => {
    const { ctx, mail } = context(order, 'comprador@correo.test');
    await sendOrderReceipt(ctx, ORDER_ID, null);
    expect(mail).toHaveBeenCalledOnce();
    expect(mail.mock.calls[0]).toEqual([expect.objectContaining({ to: 'comprador@correo.test', kind: 'order_paid', dedupeKey: `order_paid:${ORDER_ID}` })]);
    const message = (mail.mock.calls[0] as unknown as [{ text: string }])[0];
    expect(message.text).toContain('Sobre × 1');
    // The order's copy on its own lines, addressed to the account's name.
    expect(message.text).toContain('Envío a:\nAna García\nAv. Reforma 1\nCDMX');
  });

  it('sends nothing for an order that is not there, or a shopper without an e-mail', async () => {
    const missing = context(null, 'comprador@correo.test');
    await sendOrderReceipt(missing.ctx, ORDER_ID, null);
    expect(missing.mail).not.toHaveBeenCalled();
    const nobody = context(order, null);
    await sendOrderReceipt(nobody.ctx, ORDER_ID, null);
    expect(nobody.mail).not.toHaveBeenCalled();
  });
});
