/**
 * PayPal in test mode: the server creates a simulated PayPal order for the stored total, the
 * shopper approves it in a PayPal-like window of our own, and the server captures and verifies it.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { CHECKOUT_MESSAGES, CHECKOUT_PAYPAL_TEXT } from '~/i18n/checkout.ts';
import { postApi } from '~/data/api.ts';
import { paypalOrderAnswer, settlementAnswer } from '~/domain/api-answers.ts';
import { BRAND } from '~/domain/brand.ts';
import { type Centavos, formatCentavos } from '~/domain/money.ts';
import type { PaymentState } from './payment-flow.ts';
import { ORDER_STATUS } from '~/domain/orders.ts';
import { noteAddressGap } from '~/stores/checkout.ts';

interface Props {
  orderId: string;
  totalCentavos: Centavos;
  onPaid(): void;
}

/** The simulated PayPal button and approval window. */
export default function SimulatedPayPal({ orderId, totalCentavos, onPaid }: Props) {
  const [state, setState] = useState<PaymentState>('idle');
  const [message, setMessage] = useState('');
  const [paypalOrderId, setPaypalOrderId] = useState<string | null>(null);
  const lock = useRef(false);
  const approveRef = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const id = useId();

  useEffect(() => {
    if (paypalOrderId) approveRef.current?.focus();
  }, [paypalOrderId]);

  function fail() {
    setState('error');
    setMessage(CHECKOUT_MESSAGES.paypalError);
  }

  async function open() {
    if (lock.current) return;
    lock.current = true;
    setMessage('');
    setState('processing');
    try {
      const created = await postApi('/api/paypal/create-order', { orderId }, paypalOrderAnswer);
      if (noteAddressGap(orderId, created)) return;
      if (!created.ok || !created.data?.id) return fail();
      setPaypalOrderId(created.data.id);
    } catch {
      fail();
    } finally {
      lock.current = false;
    }
  }

  async function approve() {
    if (!paypalOrderId || lock.current) return;
    lock.current = true;
    try {
      const approved = await postApi('/api/paypal/approve', { orderId, paypalOrderId }, paypalOrderAnswer);
      if (!approved.ok) return fail();
      const captured = await postApi('/api/paypal/capture-order', { orderId, paypalOrderId }, settlementAnswer);
      if (!captured.ok || captured.data?.status !== ORDER_STATUS.paid) return fail();
      setState('success');
      setPaypalOrderId(null);
      onPaid();
    } catch {
      fail();
    } finally {
      lock.current = false;
    }
  }

  function cancel() {
    setPaypalOrderId(null);
    setState('idle');
    opener.current?.focus();
  }

  return (
    <div className="paypal-box">
      <button
        ref={opener}
        type="button"
        className="btn btn-paypal btn-block"
        onClick={() => void open()}
        disabled={state === 'processing' || state === 'success'}
      >
        {CHECKOUT_PAYPAL_TEXT.pay}
      </button>
      {message && (
        <p className="payment-error" role="alert">
          {message}
        </p>
      )}
      {paypalOrderId && (
        <div className="paypal-window" role="dialog" aria-modal="false" aria-labelledby={`${id}-title`}>
          <h3 id={`${id}-title`}>{CHECKOUT_PAYPAL_TEXT.title}</h3>
          <p>
            {CHECKOUT_PAYPAL_TEXT.approve} <strong>{formatCentavos(totalCentavos)} MXN</strong> {CHECKOUT_PAYPAL_TEXT.to(BRAND.name)}
          </p>
          <p className="muted">{CHECKOUT_PAYPAL_TEXT.order(paypalOrderId)}</p>
          <div className="auth-actions">
            <button ref={approveRef} type="button" className="btn btn-primary" onClick={() => void approve()}>
              {CHECKOUT_PAYPAL_TEXT.approveButton}
            </button>
            <button type="button" className="btn btn-outline" onClick={cancel}>
              {CHECKOUT_PAYPAL_TEXT.cancel}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
