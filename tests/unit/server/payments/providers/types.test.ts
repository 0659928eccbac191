/** The one rule for a PayPal payment: only a COMPLETED capture of a COMPLETED order took the money. */
import { describe, expect, it } from 'vitest';
import { centavos } from '~/domain/money.ts';
import { PaymentError, paypalCaptureCompleted, paypalCaptureFailed, paypalCapturePending, type PayPalOrderInfo } from '~/server/payments/providers/types.ts';

function info(fields: Partial<PayPalOrderInfo>): PayPalOrderInfo {
  return { id: 'P-1', status: 'COMPLETED', amount: centavos(100_000), currency: 'MXN', orderId: 'o1', captureId: 'C-1', captureStatus: 'COMPLETED', ...fields };
}

describe('a PayPal capture', () => {
  it('took the money only when the order and its capture are both COMPLETED', () => {
    expect(paypalCaptureCompleted(info({}))).toBe(true);
    expect(paypalCaptureCompleted(info({ captureStatus: 'PENDING' }))).toBe(false);
    expect(paypalCaptureCompleted(info({ status: 'APPROVED' }))).toBe(false);
    expect(paypalCaptureCompleted(info({ captureId: null }))).toBe(false);
    expect(paypalCaptureCompleted(null)).toBe(false);
  });

  it('is pending only while PayPal decides, and failed only when declined or failed', () => {
    expect(paypalCapturePending(info({ captureStatus: 'PENDING' }))).toBe(true);
    expect(paypalCapturePending(info({}))).toBe(false);
    expect(paypalCapturePending(null)).toBe(false);
    expect(paypalCaptureFailed(info({ captureStatus: 'DECLINED' }))).toBe(true);
    expect(paypalCaptureFailed(info({ captureStatus: 'FAILED' }))).toBe(true);
    expect(paypalCaptureFailed(info({ captureStatus: 'REFUNDED' }))).toBe(false);
    expect(paypalCaptureFailed(null)).toBe(false);
  });
});

describe('PaymentError', () => {
  it('is a 402 payment_failed unless told otherwise', () => {
    expect(new PaymentError('Rechazada')).toMatchObject({ message: 'Rechazada', status: 402, code: 'payment_failed' });
    expect(new PaymentError('Ya pagado', 409, 'order_paid')).toMatchObject({ status: 409, code: 'order_paid' });
  });
});
