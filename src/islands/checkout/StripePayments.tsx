/**
 * Card and wallet payments with real Stripe (loaded only when Stripe keys are configured): the card
 * form is Stripe's CardElement in the dark theme; Google Pay / Apple Pay use Stripe's payment
 * request (country MX, currency mxn, label 'Total', payer name and e-mail). Both pay the same
 * server-created intent, and the server verifies the payment before the order is 'Pagado'.
 */
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type PaymentRequest, type Stripe, type StripeCardElement } from '@stripe/stripe-js';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CHECKOUT_CARD_TEXT, CHECKOUT_MESSAGES, CHECKOUT_WALLET_TEXT } from '~/i18n/checkout.ts';
import { postApi } from '~/data/api.ts';
import { installmentsConfirmAnswer, plansAnswer } from '~/domain/api-answers.ts';
import { installmentsOffered } from '~/domain/mexican-payments.ts';
import { type Centavos, formatCentavos } from '~/domain/money.ts';
import InstallmentPicker, { type PlanOption } from './InstallmentPicker.tsx';
import { confirmOnServer, requestClientSecret, type PaymentState } from './payment-flow.ts';
import { ORDER_STATUS } from '~/domain/orders.ts';

let stripePromise: Promise<Stripe | null> | null = null;
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  stripePromise ??= loadStripe(publishableKey, { locale: 'es-419' });
  return stripePromise;
}

interface Props {
  publishableKey: string;
  orderId: string;
  totalCentavos: Centavos;
  mode: 'card' | 'wallet';
  onPaid(): void;
}

/** Stripe's card form or wallet button for one order. */
export default function StripePayments(props: Props) {
  return (
    <Elements stripe={stripeFor(props.publishableKey)} options={{ locale: 'es-419' }}>
      {props.mode === 'card' ? <CardForm {...props} /> : <Wallet {...props} />}
    </Elements>
  );
}

function CardForm({ orderId, totalCentavos, onPaid }: Props) {
  const stripe = useStripe();
  const elements = useElements();
  const [state, setState] = useState<PaymentState>('idle');
  const [message, setMessage] = useState('');
  const [save, setSave] = useState(false);
  const [plans, setPlans] = useState<PlanOption[]>([]);
  const [plan, setPlan] = useState<number | null>(null);
  // The intent the card was put on when its issuer offered 'meses sin intereses'.
  const [withPlans, setWithPlans] = useState<{ clientSecret: string; paymentIntentId: string } | null>(null);
  const lock = useRef(false);
  const offered = installmentsOffered(totalCentavos);

  /** From $300.00: the card goes on the intent first, and its issuer's plans are offered. */
  async function askPlans(s: Stripe, card: StripeCardElement, paymentIntentId: string) {
    const created = await s.createPaymentMethod({ type: 'card', card });
    if (created.error || !created.paymentMethod) throw new Error(created.error?.message ?? CHECKOUT_MESSAGES.paymentFailed);
    const answer = await postApi('/api/payments/installments/plans', { orderId, paymentIntentId, paymentMethodId: created.paymentMethod.id }, plansAnswer);
    if (!answer.ok || !answer.data) throw new Error(answer.message ?? CHECKOUT_MESSAGES.paymentFailed);
    return { paymentMethodId: created.paymentMethod.id, plans: answer.data.plans };
  }

  /** Confirms on the server with the chosen plan (null: 'Pago de contado'). */
  async function payWithPlan(s: Stripe, intent: { clientSecret: string; paymentIntentId: string }) {
    const answer = await postApi(
      '/api/payments/installments/confirm',
      { orderId, paymentIntentId: intent.paymentIntentId, months: plan },
      installmentsConfirmAnswer,
    );
    if (!answer.ok || !answer.data) throw new Error(answer.message ?? CHECKOUT_MESSAGES.paymentFailed);
    if (answer.data.status === 'requires_action') {
      const next = await s.handleNextAction({ clientSecret: intent.clientSecret });
      if (next.error) throw new Error(next.error.message ?? CHECKOUT_MESSAGES.paymentFailed);
      const confirmed = await confirmOnServer(orderId, intent.paymentIntentId);
      if (!confirmed.ok) throw new Error(confirmed.message);
    } else if (answer.data.status !== ORDER_STATUS.paid) {
      throw new Error(CHECKOUT_MESSAGES.paymentFailed);
    }
  }

  async function pay(event: FormEvent) {
    event.preventDefault();
    if (lock.current) return;
    const card = elements?.getElement(CardElement);
    if (!stripe || !elements || !card) {
      setState('error');
      setMessage(CHECKOUT_MESSAGES.stripeNotReady);
      return;
    }
    lock.current = true;
    setState('processing');
    setMessage('');
    try {
      if (withPlans) {
        await payWithPlan(stripe, withPlans);
        setState('success');
        onPaid();
        return;
      }
      const intent = await requestClientSecret(orderId, totalCentavos);
      if (!intent.ok) throw new Error(intent.message);
      let paymentMethod: string | { card: typeof card } = { card };
      if (offered) {
        const asked = await askPlans(stripe, card, intent.paymentIntentId);
        if (asked.plans.length > 0) {
          // The shopper chooses a plan (or 'Pago de contado') and presses 'Pagar' again.
          setPlans(asked.plans);
          setWithPlans({ clientSecret: intent.clientSecret, paymentIntentId: intent.paymentIntentId });
          setState('idle');
          return;
        }
        paymentMethod = asked.paymentMethodId;
      }
      const result = await stripe.confirmCardPayment(intent.clientSecret, {
        payment_method: paymentMethod,
        ...(save ? { setup_future_usage: 'off_session' as const } : {}),
      });
      if (result.error) throw new Error(result.error.message ?? CHECKOUT_MESSAGES.paymentFailed);
      if (result.paymentIntent?.status !== 'succeeded') throw new Error(CHECKOUT_MESSAGES.paymentFailed);
      const confirmed = await confirmOnServer(orderId, result.paymentIntent.id);
      if (!confirmed.ok) throw new Error(confirmed.message);
      setState('success');
      onPaid();
    } catch (error) {
      setState('error');
      setMessage(error instanceof Error && error.message ? error.message : CHECKOUT_MESSAGES.paymentError);
    } finally {
      lock.current = false;
    }
  }

  return (
    <div className="theme-dark card-box">
      <form onSubmit={pay} aria-label={CHECKOUT_CARD_TEXT.form} aria-busy={state === 'processing'}>
        <div className="field">
          <span className="field-label">{CHECKOUT_CARD_TEXT.cardData}</span>
          <div className="stripe-card">
            {/*
              Stripe's iframe fields bring their own phone keyboards and autofill (cc-number, cc-exp,
              cc-csc) and format the number and expiry as typed. The options only style the element
              and hide its postal code (Mexican cards are not checked against one); nothing here turns
              that off: no `disabled`, no `disableLink`, no autocomplete override.
            */}
            <CardElement
              options={{
                hidePostalCode: true,
                style: { base: { color: '#f3f2fb', fontSize: '16px', '::placeholder': { color: '#c4c1e0' } }, invalid: { color: '#ff9b94' } },
              }}
            />
          </div>
        </div>
        <InstallmentPicker plans={plans} value={plan} onChange={setPlan} disabled={state === 'processing'} />
        {!withPlans && (
          <label className="checkbox">
            <input type="checkbox" checked={save} onChange={(e) => setSave(e.target.checked)} />
            {CHECKOUT_CARD_TEXT.save}
          </label>
        )}
        {message && (
          <p className="payment-error" role="alert">
            {message}
          </p>
        )}
        <button type="submit" className="btn btn-primary btn-block" disabled={state === 'processing' || state === 'success'}>
          {state === 'processing' ? CHECKOUT_CARD_TEXT.processing : CHECKOUT_CARD_TEXT.pay(formatCentavos(totalCentavos))}
        </button>
      </form>
    </div>
  );
}

function Wallet({ orderId, totalCentavos, onPaid }: Props) {
  const stripe = useStripe();
  const [request, setRequest] = useState<PaymentRequest | null>(null);
  const [available, setAvailable] = useState<boolean | null>(null);
  const [message, setMessage] = useState('');

  useEffect(() => {
    if (!stripe) return;
    const pr = stripe.paymentRequest({
      country: 'MX',
      currency: 'mxn',
      total: { label: CHECKOUT_WALLET_TEXT.total, amount: totalCentavos },
      requestPayerName: true,
      requestPayerEmail: true,
    });
    pr.on('paymentmethod', async (event) => {
      try {
        const intent = await requestClientSecret(orderId, totalCentavos);
        if (!intent.ok) throw new Error(intent.message);
        const first = await stripe.confirmCardPayment(intent.clientSecret, { payment_method: event.paymentMethod.id }, { handleActions: false });
        if (first.error) {
          event.complete('fail');
          throw new Error(first.error.message ?? CHECKOUT_MESSAGES.paymentFailed);
        }
        event.complete('success');
        let status = first.paymentIntent?.status;
        if (status === 'requires_action') {
          const second = await stripe.confirmCardPayment(intent.clientSecret);
          if (second.error) throw new Error(second.error.message ?? CHECKOUT_MESSAGES.paymentFailed);
          status = second.paymentIntent?.status;
        }
        if (status !== 'succeeded') throw new Error(CHECKOUT_MESSAGES.paymentFailed);
        const confirmed = await confirmOnServer(orderId, intent.paymentIntentId);
        if (!confirmed.ok) throw new Error(confirmed.message);
        onPaid();
      } catch (error) {
        setMessage(error instanceof Error && error.message ? error.message : CHECKOUT_MESSAGES.paymentError);
      }
    });
    void pr.canMakePayment().then((result) => {
      setAvailable(result !== null);
      setRequest(pr);
    });
  }, [stripe, orderId, totalCentavos, onPaid]);

  if (available === false) return <p role="status">{CHECKOUT_MESSAGES.walletUnavailable}</p>;
  if (!request) return <p role="status">{CHECKOUT_WALLET_TEXT.searching}</p>;
  return (
    <div>
      <button type="button" className="btn btn-primary btn-block" onClick={() => request.show()}>
        {CHECKOUT_WALLET_TEXT.pay(formatCentavos(totalCentavos))}
      </button>
      {message && (
        <p className="payment-error" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}
