/**
 * The card form of test mode: our own form in the dark theme, paid through the simulated provider,
 * which follows Stripe's public test cards (4242… pays, 0002 is declined, 9995 lacks funds, 3184
 * asks for a confirmation step).
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { CHECKOUT_CARD_AUTH_TEXT, CHECKOUT_CARD_TEXT, CHECKOUT_MESSAGES } from '~/i18n/checkout.ts';
import { postApi } from '~/data/api.ts';
import { plansAnswer, simulatedCardAnswer, type SimulatedCardAnswer } from '~/domain/api-answers.ts';
import { type Centavos, formatCentavos } from '~/domain/money.ts';
import { installmentsOffered } from '~/domain/mexican-payments.ts';
import { formatCardNumber, formatExpiry, parseExpiry } from '~/domain/card-format.ts';
import InstallmentPicker, { type PlanOption } from './InstallmentPicker.tsx';
import { requestClientSecret, type PaymentState } from './payment-flow.ts';

interface Props {
  orderId: string;
  totalCentavos: Centavos;
  onPaid(): void;
}

/** The simulated card form. */
export default function SimulatedCard({ orderId, totalCentavos, onPaid }: Props) {
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [save, setSave] = useState(false);
  const [state, setState] = useState<PaymentState>('idle');
  const [message, setMessage] = useState('');
  const [authSecret, setAuthSecret] = useState<string | null>(null);
  const lock = useRef(false);
  const id = useId();

  const { plans, plan, setPlan } = useInstallmentPlans(number, orderId, totalCentavos);

  function fail(text: string) {
    setState('error');
    setMessage(text);
  }

  function settle(answer: { ok: boolean; data: SimulatedCardAnswer | null; message: string | null }) {
    if (!answer.ok || !answer.data) return fail(answer.message ?? CHECKOUT_MESSAGES.paymentFailed);
    if (answer.data.status === 'succeeded') {
      setState('success');
      setMessage('');
      onPaid();
      return;
    }
    if (answer.data.status === 'requires_action') return;
    fail(answer.data.error ?? CHECKOUT_MESSAGES.paymentFailed);
  }

  async function pay(event: FormEvent) {
    event.preventDefault();
    // A second click while the first is on its way must never pay twice.
    if (lock.current) return;
    lock.current = true;
    setState('processing');
    setMessage('');
    try {
      const exp = parseExpiry(expiry);
      if (!exp) return fail(CHECKOUT_CARD_TEXT.badExpiry);
      const intent = await requestClientSecret(orderId, totalCentavos);
      if (!intent.ok) return fail(intent.message);
      const answer = await postApi(
        '/api/payments/simulated/confirm',
        { clientSecret: intent.clientSecret, card: { number, expMonth: exp.month, expYear: exp.year, cvc }, save, installments: plan },
        simulatedCardAnswer,
      );
      if (answer.ok && answer.data?.status === 'requires_action') {
        setAuthSecret(intent.clientSecret);
        return;
      }
      settle(answer);
    } catch {
      fail(CHECKOUT_MESSAGES.paymentError);
    } finally {
      lock.current = false;
    }
  }

  async function authenticate(approve: boolean) {
    if (!authSecret || lock.current) return;
    lock.current = true;
    try {
      const answer = await postApi('/api/payments/simulated/authenticate', { clientSecret: authSecret, approve }, simulatedCardAnswer);
      setAuthSecret(null);
      settle(answer);
    } catch {
      setAuthSecret(null);
      fail(CHECKOUT_MESSAGES.paymentError);
    } finally {
      lock.current = false;
    }
  }

  const processing = state === 'processing' || authSecret !== null;
  return (
    <div className="theme-dark card-box">
      <form onSubmit={pay} noValidate aria-label={CHECKOUT_CARD_TEXT.form} aria-busy={processing}>
        <div className="field">
          <label htmlFor={`${id}-number`}>{CHECKOUT_CARD_TEXT.number}</label>
          <input
            id={`${id}-number`}
            className="input"
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="1234 1234 1234 1234"
            value={number}
            onChange={(e) => setNumber(formatCardNumber(e.target.value))}
            disabled={processing}
          />
        </div>
        <ExpiryAndCvc id={id} expiry={expiry} cvc={cvc} onExpiry={setExpiry} onCvc={setCvc} disabled={processing} />
        <InstallmentPicker plans={plans} value={plan} onChange={setPlan} disabled={processing} />
        <label className="checkbox">
          <input type="checkbox" checked={save} onChange={(e) => setSave(e.target.checked)} disabled={processing} />
          {CHECKOUT_CARD_TEXT.save}
        </label>
        {message && (
          <p className="payment-error" role="alert">
            {message}
          </p>
        )}
        <p className="visually-hidden" role="status" aria-live="polite">
          {state === 'processing' ? CHECKOUT_CARD_TEXT.processingStatus : state === 'success' ? CHECKOUT_CARD_TEXT.paid : ''}
        </p>
        <button type="submit" className="btn btn-primary btn-block" disabled={processing || state === 'success'}>
          {state === 'processing' ? CHECKOUT_CARD_TEXT.processing : CHECKOUT_CARD_TEXT.pay(formatCentavos(totalCentavos))}
        </button>
      </form>
      {authSecret && <AuthStep id={id} totalCentavos={totalCentavos} onAnswer={(approve) => void authenticate(approve)} />}
    </div>
  );
}

/**
 * Once a whole card number is typed (orders from $300.00), the 'meses sin intereses' plans its
 * issuer offers, and the plan chosen.
 */
function useInstallmentPlans(number: string, orderId: string, totalCentavos: Centavos) {
  const [plans, setPlans] = useState<PlanOption[]>([]);
  const [plan, setPlan] = useState<number | null>(null);
  const digits = number.replace(/\D/g, '');
  useEffect(() => {
    setPlans([]);
    setPlan(null);
    if (!installmentsOffered(totalCentavos) || digits.length < 15) return;
    let current = true;
    void (async () => {
      // A refused address is reported when the shopper pays, not while the number is typed.
      const intent = await requestClientSecret(orderId, totalCentavos, { reportAddressGap: false });
      if (!intent.ok || !current) return;
      const answer = await postApi('/api/payments/simulated/installments', { clientSecret: intent.clientSecret, number: digits }, plansAnswer);
      if (current && answer.ok && answer.data) setPlans(answer.data.plans);
    })().catch(() => undefined);
    return () => {
      current = false;
    };
  }, [digits, orderId, totalCentavos]);

  return { plans, plan, setPlan };
}

/** The simulated 3D Secure step: confirm or cancel the payment. */
function AuthStep({ id, totalCentavos, onAnswer }: { id: string; totalCentavos: Centavos; onAnswer: (approve: boolean) => void }) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    confirmRef.current?.focus();
  }, []);
  return (
    <div className="auth-step" role="dialog" aria-modal="false" aria-labelledby={`${id}-auth-title`}>
      <h3 id={`${id}-auth-title`}>{CHECKOUT_CARD_AUTH_TEXT.title}</h3>
      <p>{CHECKOUT_CARD_AUTH_TEXT.body(formatCentavos(totalCentavos))}</p>
      <div className="auth-actions">
        <button ref={confirmRef} type="button" className="btn btn-primary" onClick={() => onAnswer(true)}>
          {CHECKOUT_CARD_AUTH_TEXT.confirm}
        </button>
        <button type="button" className="btn btn-outline" onClick={() => onAnswer(false)}>
          {CHECKOUT_CARD_AUTH_TEXT.cancel}
        </button>
      </div>
    </div>
  );
}

interface ExpiryProps {
  id: string;
  expiry: string;
  cvc: string;
  onExpiry: (value: string) => void;
  onCvc: (value: string) => void;
  disabled: boolean;
}

/**
 * 'Vencimiento (MM/AA)' and 'CVC' side by side. The expiry takes '1230', '12 30' or '12/30' and
 * shows '12/30', the slash added as the month is complete (formatExpiry).
 */
function ExpiryAndCvc({ id, expiry, cvc, onExpiry, onCvc, disabled }: ExpiryProps) {
  return (
    <div className="field-row">
      <div className="field">
        <label htmlFor={`${id}-exp`}>{CHECKOUT_CARD_TEXT.expiry}</label>
        <input
          id={`${id}-exp`}
          className="input"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder={CHECKOUT_CARD_TEXT.expiryPlaceholder}
          maxLength={7}
          value={expiry}
          onChange={(e) => onExpiry(formatExpiry(e.target.value, expiry))}
          disabled={disabled}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-cvc`}>CVC</label>
        <input
          id={`${id}-cvc`}
          className="input"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
          maxLength={4}
          value={cvc}
          onChange={(e) => onCvc(e.target.value.replace(/\D/g, ''))}
          disabled={disabled}
        />
      </div>
    </div>
  );
}
