/**
 * The simulated PayPal of simulated mode: PayPal-shaped orders kept as simulated records, approved
 * in the shop's own approval window, captured and refunded like PayPal's. No money ever moves.
 */
import { randomBytes } from 'node:crypto';
import { centavos, centavosToDecimalString } from '~/domain/money.ts';
import { PAYMENTS_PAYPAL_TEXT, PAYMENTS_SIMULATED_PAYPAL_TEXT } from '~/i18n/payments.ts';
import { simulatedRefund, type SimRecord, type SimStore } from './simulated-records.ts';
import { PaymentError, type PayPalOrderInfo, type PayPalProvider, type PayPalRefundInfo, type PayPalWebhookEvent, type RefundInfo } from './types.ts';

function toPayPal(record: SimRecord): PayPalOrderInfo {
  const d = record.data;
  return {
    id: record.id,
    status: record.status ?? 'CREATED',
    amount: typeof d.amount === 'number' ? centavos(d.amount) : null,
    currency: typeof d.currency === 'string' ? d.currency : null,
    orderId: typeof d.custom_id === 'string' ? d.custom_id : null,
    captureId: typeof d.capture_id === 'string' ? d.capture_id : null,
    captureStatus: typeof d.capture_status === 'string' ? d.capture_status : null,
  };
}

/** The simulated PayPal: orders are approved in the shop's own approval window. */
export class SimulatedPayPalProvider implements PayPalProvider {
  readonly name = 'simulated-paypal' as const;

  constructor(private readonly store: SimStore) {}

  async createOrder(input: { orderId: string; amount: number; idempotencyKey: string }): Promise<PayPalOrderInfo> {
    const record = await this.store.put(
      {
        id: `PAYPAL-SIM-${randomBytes(8).toString('hex').toUpperCase()}`,
        kind: 'paypal_order',
        owner: input.orderId,
        status: 'CREATED',
        data: {
          intent: 'CAPTURE',
          custom_id: input.orderId,
          amount: input.amount,
          currency: 'MXN',
          value: centavosToDecimalString(centavos(input.amount)),
        },
      },
      input.idempotencyKey,
    );
    return toPayPal(record);
  }

  /** The buyer's approval in the simulated PayPal window. */
  async approve(paypalOrderId: string): Promise<PayPalOrderInfo> {
    const approved = await this.store.update(paypalOrderId, ['CREATED', 'APPROVED'], 'APPROVED');
    if (!approved) {
      const current = await this.store.get(paypalOrderId);
      if (!current || current.kind !== 'paypal_order') throw new PaymentError(PAYMENTS_PAYPAL_TEXT.orderNotFound, 404, 'paypal_order_not_found');
      return toPayPal(current);
    }
    return toPayPal(approved);
  }

  async captureOrder(paypalOrderId: string): Promise<PayPalOrderInfo> {
    const current = await this.store.get(paypalOrderId);
    if (!current || current.kind !== 'paypal_order') throw new PaymentError(PAYMENTS_PAYPAL_TEXT.orderNotFound, 404, 'paypal_order_not_found');
    if (current.status === 'COMPLETED') return toPayPal(current);
    const captured = await this.store.update(paypalOrderId, ['APPROVED'], 'COMPLETED', {
      capture_id: `CAPTURE-SIM-${randomBytes(8).toString('hex').toUpperCase()}`,
      capture_status: 'COMPLETED',
    });
    if (!captured) {
      const again = (await this.store.get(paypalOrderId))!;
      if (again.status === 'COMPLETED') return toPayPal(again);
      throw new PaymentError(PAYMENTS_PAYPAL_TEXT.notApproved, 422, 'paypal_not_approved');
    }
    return toPayPal(captured);
  }

  async getOrder(paypalOrderId: string): Promise<PayPalOrderInfo | null> {
    const record = await this.store.get(paypalOrderId);
    return record?.kind === 'paypal_order' ? toPayPal(record) : null;
  }

  async voidOrder(paypalOrderId: string): Promise<void> {
    await this.store.update(paypalOrderId, ['CREATED', 'APPROVED'], 'VOIDED');
  }

  /** Refunds a simulated capture (its id is CAPTURE-SIM-…, stored on the PayPal order). */
  async refundCapture(captureId: string, amount: number, idempotencyKey: string): Promise<RefundInfo> {
    const paypalOrderId = await this.store.findByCapture(captureId);
    if (!paypalOrderId) throw new PaymentError(PAYMENTS_SIMULATED_PAYPAL_TEXT.captureNotFound, 404, 'charge_not_found');
    return simulatedRefund(this.store, paypalOrderId, 'paypal_order', amount, idempotencyKey);
  }

  /** A refund made by refundCapture, in PayPal's terms; null for anything else. */
  async getRefund(refundId: string): Promise<PayPalRefundInfo | null> {
    const refund = await this.store.get(refundId);
    if (refund?.kind !== 'refund' || !refund.owner) return null;
    const charge = await this.store.get(refund.owner);
    if (charge?.kind !== 'paypal_order') return null;
    return {
      id: refund.id,
      status: refund.status === 'succeeded' ? 'COMPLETED' : String(refund.status ?? ''),
      amount: typeof refund.data.amount === 'number' ? centavos(refund.data.amount) : null,
      currency: 'MXN',
      captureId: typeof charge.data.capture_id === 'string' ? charge.data.capture_id : null,
    };
  }

  /** The simulated PayPal sends no notifications: nothing may arrive at the webhook as PayPal. */
  async verifyWebhook(): Promise<PayPalWebhookEvent> {
    throw new PaymentError(PAYMENTS_SIMULATED_PAYPAL_TEXT.notFound, 404, 'not_found');
  }
}
