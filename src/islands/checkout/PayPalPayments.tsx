/**
 * Real PayPal buttons (loaded only when PayPal keys are configured). The server creates the PayPal
 * order for the stored total and captures it after approval; the order is marked paid only after
 * the server verified the capture.
 */
import { PayPalButtons, PayPalScriptProvider } from '@paypal/react-paypal-js';
import { useState } from 'react';
import { CHECKOUT_MESSAGES } from '~/i18n/checkout.ts';
import { postApi } from '~/data/api.ts';
import { paypalOrderAnswer, settlementAnswer } from '~/domain/api-answers.ts';
import { ORDER_STATUS } from '~/domain/orders.ts';
import { noteAddressGap } from '~/stores/checkout.ts';

interface Props {
  clientId: string;
  orderId: string;
  onPaid(): void;
}

/** PayPal's own buttons for one order. */
export default function PayPalPayments({ clientId, orderId, onPaid }: Props) {
  const [message, setMessage] = useState('');
  return (
    <div className="paypal-box">
      <PayPalScriptProvider options={{ clientId, currency: 'MXN', intent: 'capture', locale: 'es_MX' }}>
        <PayPalButtons
          style={{ layout: 'vertical', label: 'pay' }}
          createOrder={async () => {
            const created = await postApi('/api/paypal/create-order', { orderId }, paypalOrderAnswer);
            noteAddressGap(orderId, created);
            if (!created.ok || !created.data?.id) throw new Error(created.message ?? CHECKOUT_MESSAGES.paypalError);
            return created.data.id;
          }}
          onApprove={async (data) => {
            const captured = await postApi('/api/paypal/capture-order', { orderId, paypalOrderId: data.orderID }, settlementAnswer);
            if (!captured.ok || captured.data?.status !== ORDER_STATUS.paid) {
              setMessage(CHECKOUT_MESSAGES.paypalError);
              return;
            }
            onPaid();
          }}
          onError={() => setMessage(CHECKOUT_MESSAGES.paypalError)}
        />
      </PayPalScriptProvider>
      {message && (
        <p className="payment-error" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}
