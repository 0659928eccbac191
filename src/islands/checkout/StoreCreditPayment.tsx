/**
 * The 'Saldo a favor' tab: the shopper's balance pays the whole order (it is 'Pagado' at once,
 * no provider) or part of it (the other tabs then charge only the rest). The server decides how
 * much: the browser only says whether to use the balance. What was applied can be given back
 * while the order waits for the rest.
 */
import { useEffect, useRef, useState } from 'react';
import { postApi } from '~/data/api.ts';
import { storeCreditAnswer } from '~/domain/api-answers.ts';
import type { CheckoutOrder } from '~/data/checkout.ts';
import { CHECKOUT_BALANCE_TEXT, CHECKOUT_MESSAGES, MEXICAN_PAYMENT_MESSAGES } from '~/i18n/checkout.ts';
import { getStoreCreditBalance } from '~/data/store-credit.ts';
import { type Centavos, centavos, formatCentavos } from '~/domain/money.ts';
import { ORDER_STATUS } from '~/domain/orders.ts';
import { STORE_CREDIT_MESSAGES } from '~/i18n/orders.ts';

interface Props {
  order: CheckoutOrder;
  onPaid(): void;
  /** The order changed (balance applied or given back): show it again. */
  onChanged(): void;
}

export default function StoreCreditPayment({ order, onPaid, onChanged }: Props) {
  const [balance, setBalance] = useState<Centavos | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  const lock = useRef(false);

  useEffect(() => {
    let current = true;
    void getStoreCreditBalance().then(({ data }) => {
      // Unreadable: shown as no balance (the other methods still work).
      if (current) setBalance(data ?? centavos(0));
    });
    return () => {
      current = false;
    };
  }, [order.creditCentavos]);

  async function send(use: boolean) {
    if (lock.current) return;
    lock.current = true;
    setBusy(true);
    setMessage('');
    try {
      const answer = await postApi('/api/payments/store-credit', { orderId: order.id, use }, storeCreditAnswer);
      if (!answer.ok || !answer.data) {
        setMessage(answer.message ?? CHECKOUT_MESSAGES.paymentError);
        return;
      }
      if (answer.data.status === ORDER_STATUS.paid) onPaid();
      else onChanged();
    } catch {
      setMessage(CHECKOUT_MESSAGES.paymentError);
    } finally {
      lock.current = false;
      setBusy(false);
    }
  }

  const voucherOpen = order.payment_method === 'oxxo' && Boolean(order.oxxo_voucher);
  let body;
  if (order.creditCentavos > 0) {
    body = (
      <>
        <p>
          {CHECKOUT_BALANCE_TEXT.used} <strong>{formatCentavos(order.creditCentavos)}</strong> {CHECKOUT_BALANCE_TEXT.usedAfter}{' '}
          <strong data-amount="due">{formatCentavos(order.dueCentavos)}</strong> {CHECKOUT_BALANCE_TEXT.dueAfter}
        </p>
        <button type="button" className="btn btn-outline" disabled={busy} onClick={() => void send(false)}>
          {CHECKOUT_BALANCE_TEXT.remove}
        </button>
      </>
    );
  } else if (balance === null) {
    body = <p role="status">{CHECKOUT_BALANCE_TEXT.loading}</p>;
  } else if (balance <= 0) {
    body = <p>{STORE_CREDIT_MESSAGES.noCredit}</p>;
  } else if (voucherOpen) {
    body = <p>{CHECKOUT_BALANCE_TEXT.voucherOpen(formatCentavos(balance), MEXICAN_PAYMENT_MESSAGES.voucherOpen)}</p>;
  } else {
    const whole = balance >= order.dueCentavos;
    body = (
      <>
        <p>
          {CHECKOUT_BALANCE_TEXT.have} <strong>{formatCentavos(balance)}</strong> {CHECKOUT_BALANCE_TEXT.haveAfter}
          {whole ? CHECKOUT_BALANCE_TEXT.whole : CHECKOUT_BALANCE_TEXT.part}
        </p>
        <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void send(true)}>
          {busy
            ? CHECKOUT_BALANCE_TEXT.processing
            : whole
              ? CHECKOUT_BALANCE_TEXT.payAll(formatCentavos(order.dueCentavos))
              : CHECKOUT_BALANCE_TEXT.spendPart(formatCentavos(balance))}
        </button>
      </>
    );
  }
  return (
    <div className="store-credit-payment">
      {body}
      {message && <p role="alert">{message}</p>}
    </div>
  );
}
