/**
 * The 'Efectivo en OXXO' tab: the server creates the order's OXXO payment and answers its voucher
 * (amount, reference, expiry, Stripe's printable voucher); the order stays 'Pendiente', its units
 * reserved until the voucher expires, and becomes 'Pagado' when the store reports the payment. In
 * simulated mode 'Simular pago en OXXO' stands in for the cashier. Totals outside $10.00–$10,000.00
 * cannot be paid at OXXO, and the tab says so.
 */
import { useId, useRef, useState } from 'react';
import type { CheckoutOrder, CheckoutVoucher } from '~/data/checkout.ts';
import { CHECKOUT_MESSAGES, CHECKOUT_OXXO_TEXT, MEXICAN_PAYMENT_MESSAGES } from '~/i18n/checkout.ts';
import { postApi } from '~/data/api.ts';
import { oxxoVoucherAnswer, settlementAnswer } from '~/domain/api-answers.ts';
import { formatVoucherExpiry, groupReference, oxxoAllowed, oxxoDeadline } from '~/domain/mexican-payments.ts';
import { centavos, formatCentavos } from '~/domain/money.ts';
import { clearCart } from '~/stores/cart.ts';
import { forgetPendingOrder, noteAddressGap } from '~/stores/checkout.ts';
import { ORDER_STATUS } from '~/domain/orders.ts';

interface Props {
  order: CheckoutOrder;
  /** Simulated mode: the voucher can be paid from here ('Simular pago en OXXO'). */
  simulated: boolean;
  /** False in live mode without Stripe: OXXO goes through Stripe. */
  available: boolean;
  onPaid(): void;
}

/** The OXXO voucher (or the button that asks for it). */
export default function OxxoPayment({ order, simulated, available, onPaid }: Props) {
  const [voucher, setVoucher] = useState<CheckoutVoucher | null>(order.payment_method === 'oxxo' ? (order.oxxo_voucher ?? null) : null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  const lock = useRef(false);
  const id = useId();

  if (!available) return <p role="alert">{CHECKOUT_MESSAGES.cardUnavailable}</p>;
  if (!voucher && !oxxoAllowed(order.dueCentavos)) {
    return (
      <p role="status" data-testid="oxxo-unavailable">
        {MEXICAN_PAYMENT_MESSAGES.oxxoOutOfRange}
      </p>
    );
  }

  async function run(action: () => Promise<void>) {
    if (lock.current) return;
    lock.current = true;
    setBusy(true);
    setMessage('');
    try {
      await action();
    } catch {
      setMessage(CHECKOUT_MESSAGES.paymentError);
    } finally {
      lock.current = false;
      setBusy(false);
    }
  }

  const requestVoucher = () =>
    run(async () => {
      const answer = await postApi('/api/create-payment-intent', { orderId: order.id, method: 'oxxo' }, oxxoVoucherAnswer);
      if (noteAddressGap(order.id, answer)) return;
      if (!answer.ok || !answer.data?.voucher) {
        setMessage(answer.message ?? CHECKOUT_MESSAGES.paymentFailed);
        return;
      }
      // The order is placed: it waits for the store payment, the cart starts over.
      clearCart();
      forgetPendingOrder();
      setVoucher(answer.data.voucher);
    });

  const simulatePayment = () =>
    run(async () => {
      const answer = await postApi('/api/payments/simulated/oxxo/pay', { orderId: order.id }, settlementAnswer);
      if (!answer.ok || answer.data?.status !== ORDER_STATUS.paid) {
        setMessage(answer.message ?? CHECKOUT_MESSAGES.paymentFailed);
        return;
      }
      onPaid();
    });

  if (!voucher) {
    return (
      <div className="oxxo-box">
        <p>{CHECKOUT_OXXO_TEXT.intro(formatCentavos(order.dueCentavos))}</p>
        {message && (
          <p className="payment-error" role="alert">
            {message}
          </p>
        )}
        <button type="button" className="btn btn-primary btn-block" onClick={() => void requestVoucher()} disabled={busy} aria-busy={busy}>
          {busy ? CHECKOUT_OXXO_TEXT.generating : CHECKOUT_OXXO_TEXT.generate}
        </button>
      </div>
    );
  }

  return (
    <section className="oxxo-box oxxo-voucher" aria-labelledby={`${id}-voucher`} data-testid="oxxo-voucher">
      <h3 id={`${id}-voucher`}>{CHECKOUT_OXXO_TEXT.title}</h3>
      <p role="status">{oxxoDeadline(voucher.expiresAt)}</p>
      <dl className="order-facts">
        <div>
          <dt>{CHECKOUT_OXXO_TEXT.amount}</dt>
          <dd data-testid="oxxo-amount">{formatCentavos(centavos(voucher.amount))}</dd>
        </div>
        <div>
          <dt>{CHECKOUT_OXXO_TEXT.reference}</dt>
          <dd className="oxxo-reference" data-testid="oxxo-reference">
            {groupReference(voucher.reference)}
          </dd>
        </div>
        <div>
          <dt>{CHECKOUT_OXXO_TEXT.deadline}</dt>
          <dd>{formatVoucherExpiry(voucher.expiresAt)}</dd>
        </div>
      </dl>
      <p className="muted">{CHECKOUT_OXXO_TEXT.howTo}</p>
      {voucher.hostedVoucherUrl && (
        <p>
          <a href={voucher.hostedVoucherUrl} target="_blank" rel="noopener noreferrer">
            {CHECKOUT_OXXO_TEXT.print}
            <span className="visually-hidden">{CHECKOUT_OXXO_TEXT.newTab}</span>
          </a>
        </p>
      )}
      {message && (
        <p className="payment-error" role="alert">
          {message}
        </p>
      )}
      {simulated && (
        <button type="button" className="btn btn-outline btn-block" onClick={() => void simulatePayment()} disabled={busy} aria-busy={busy}>
          {CHECKOUT_OXXO_TEXT.simulate}
        </button>
      )}
    </section>
  );
}
