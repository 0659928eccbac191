/**
 * The 'Saldo a favor' tab: the shopper's balance pays the whole order (it is 'Pagado' at once,
 * no provider) or part of it (the other tabs then charge only the rest). The server decides how
 * much: the browser only says whether to use the balance. What was applied can be given back
 * while the order waits for the rest.
 */
import { useEffect, useRef, useState } from 'react';
import { postApi } from '~/data/api.ts';
import { storeCreditAnswer } from '~/domain/api-answers.ts';
import { CHECKOUT_MESSAGES, type CheckoutOrder } from '~/data/checkout.ts';
import { getStoreCreditBalance } from '~/data/store-credit.ts';
import { MEXICAN_PAYMENT_MESSAGES } from '~/domain/mexican-payments.ts';
import { type Centavos, centavos, formatCentavos } from '~/domain/money.ts';
import { ORDER_STATUS } from '~/domain/orders.ts';
import { STORE_CREDIT_MESSAGES } from '~/domain/store-credit.ts';

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
          Usaste <strong>{formatCentavos(order.creditCentavos)}</strong> de tu saldo a favor. Resta por pagar{' '}
          <strong data-amount="due">{formatCentavos(order.dueCentavos)}</strong> con otro método de pago.
        </p>
        <button type="button" className="btn btn-outline" disabled={busy} onClick={() => void send(false)}>
          Quitar saldo a favor
        </button>
      </>
    );
  } else if (balance === null) {
    body = <p role="status">Consultando tu saldo a favor…</p>;
  } else if (balance <= 0) {
    body = <p>{STORE_CREDIT_MESSAGES.noCredit}</p>;
  } else if (voucherOpen) {
    body = (
      <p>
        Tienes {formatCentavos(balance)} de saldo a favor. {MEXICAN_PAYMENT_MESSAGES.voucherOpen}: págala o cancélala para usar tu saldo.
      </p>
    );
  } else {
    const whole = balance >= order.dueCentavos;
    body = (
      <>
        <p>
          Tienes <strong>{formatCentavos(balance)}</strong> de saldo a favor.
          {whole ? ' Alcanza para pagar todo tu pedido.' : ' Úsalo y paga el resto con otro método.'}
        </p>
        <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void send(true)}>
          {busy ? 'Procesando…' : whole ? `Pagar ${formatCentavos(order.dueCentavos)} con saldo a favor` : `Usar ${formatCentavos(balance)} de saldo a favor`}
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
