/**
 * 'Cancelar y reembolsar': how the money goes back, chosen among the ways the server allows for
 * this order (GET /api/admin/orders/{id}/refund, decided in server/orders/refunds.ts from how it
 * was paid): a card or PayPal payment goes back through the provider or to the shopper's balance;
 * cash paid at OXXO and orders paid with the balance are credited to the balance or recorded as a
 * bank transfer the shop made. A shipped or completed order's units go back on sale only when the
 * admin says they came back.
 */
import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { formatOrderAmount, orderDisplayId } from '~/domain/orders.ts';
import { paymentMethodLabel } from '~/domain/payment-methods.ts';
import { refundOptions, refundOrder, type AdminOrder, type RefundWay } from '~/data/admin.ts';
import type { RefundOptions } from '~/domain/refunds.ts';
import type { FormResult } from '~/domain/validation.ts';
import { useForm } from '../ui/use-form.ts';
import { ADMIN_REFUND_DIALOG_TEXT } from '~/i18n/admin.ts';

/** Each way as the dialog offers it. */
const WAY_LABELS: Record<RefundWay | 'paypal', string> = {
  provider: ADMIN_REFUND_DIALOG_TEXT.wayProvider,
  paypal: ADMIN_REFUND_DIALOG_TEXT.wayPaypal,
  store_credit: ADMIN_REFUND_DIALOG_TEXT.wayStoreCredit,
  bank_transfer: ADMIN_REFUND_DIALOG_TEXT.wayBankTransfer,
};

/** What each way does, under its label. */
const WAY_HINTS: Record<RefundWay | 'paypal', string> = {
  provider: ADMIN_REFUND_DIALOG_TEXT.hintProvider,
  paypal: ADMIN_REFUND_DIALOG_TEXT.hintPaypal,
  store_credit: ADMIN_REFUND_DIALOG_TEXT.hintStoreCredit,
  bank_transfer: ADMIN_REFUND_DIALOG_TEXT.hintBankTransfer,
};

/** The success message of each way. */
const DONE: Record<RefundWay, string> = {
  provider: ADMIN_REFUND_DIALOG_TEXT.doneProvider,
  store_credit: ADMIN_REFUND_DIALOG_TEXT.doneStoreCredit,
  bank_transfer: ADMIN_REFUND_DIALOG_TEXT.doneBankTransfer,
};

/** One choice of the dialog: the way sent to the server and its label. */
export interface RefundChoice {
  way: RefundWay;
  label: string;
  hint: string;
}

/** The server's ways as the dialog shows them: 'provider' reads as the card or PayPal it goes back to. */
export function refundChoices(options: RefundOptions): RefundChoice[] {
  return options.ways.map((way) => {
    const as = way === 'provider' && options.provider === 'paypal' ? 'paypal' : way;
    return { way, label: WAY_LABELS[as], hint: WAY_HINTS[as] };
  });
}

/** 4 to 100 characters once trimmed, as the server asks. */
const validReference = (text: string) => text.trim().length >= 4 && text.trim().length <= 100;

/** The refund dialog; mounted while open (each opening starts afresh). */
export default function RefundDialog({
  orderId,
  order,
  onClose,
  onDone,
}: {
  orderId: string;
  order: AdminOrder;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const referenceInput = useRef<HTMLInputElement>(null);
  const id = useId();
  const [options, setOptions] = useState<RefundOptions | null>(null);
  const choices = options ? refundChoices(options) : [];
  const [way, setWay] = useState<RefundWay | null>(null);
  const [reference, setReference] = useState('');
  const [restock, setRestock] = useState(false);
  const [loadFailure, setLoadFailure] = useState('');
  const form = useForm<{ way: RefundWay; options: RefundOptions }>({
    validate: (): FormResult<{ way: RefundWay; options: RefundOptions }> => {
      // The ways are still on their way, or could not be had (their reason is already shown).
      if (!options || !way) return { ok: false, fieldErrors: {}, formError: loadFailure };
      if (way === 'bank_transfer' && !validReference(reference)) {
        referenceInput.current?.focus();
        return { ok: false, fieldErrors: { reference: ADMIN_REFUND_DIALOG_TEXT.referenceRequired }, formError: '' };
      }
      return { ok: true, data: { way, options } };
    },
    send: async ({ way: chosen, options: allowed }) => {
      const answer = await refundOrder(orderId, { way: chosen, reference: reference.trim(), restock: allowed.asksForRestock && restock });
      // The dialog stays open with every choice as it was; the server's words say what to fix.
      if (!answer.ok || !answer.data) return answer.message || ADMIN_REFUND_DIALOG_TEXT.failed;
      const done = answer.data.status === 'Reembolsado' ? DONE[chosen] : (answer.data.message ?? ADMIN_REFUND_DIALOG_TEXT.inProgress);
      ref.current?.close();
      onDone(done);
    },
  });
  const { busy, formError: failure, setFormError } = form;
  const referenceError = form.errors.reference ?? '';

  useEffect(() => {
    ref.current?.showModal();
    let current = true;
    void refundOptions(orderId).then((answer) => {
      if (!current) return;
      if (!answer.ok || !answer.data) {
        const message = answer.message || ADMIN_REFUND_DIALOG_TEXT.failed;
        setLoadFailure(message);
        setFormError(message);
        return;
      }
      setOptions(answer.data);
      setWay(answer.data.ways[0] ?? null);
    });
    return () => {
      current = false;
    };
  }, [orderId, setFormError]);

  const method = paymentMethodLabel({ method: order.payment_method, installments: order.installments, provider: order.payment_provider }, { months: true });
  return (
    <dialog
      ref={ref}
      className="adm-dialog"
      aria-labelledby={`${id}-title`}
      onClose={onClose}
      onCancel={(e) => busy && e.preventDefault()}
      data-testid="refund-dialog"
    >
      <h2 id={`${id}-title`}>{ADMIN_REFUND_DIALOG_TEXT.title(orderDisplayId(orderId))}</h2>
      <dl className="adm-dl">
        <dt>{ADMIN_REFUND_DIALOG_TEXT.amount}</dt>
        <dd data-testid="refund-amount">{formatOrderAmount(order.totalCentavos)}</dd>
        <dt>{ADMIN_REFUND_DIALOG_TEXT.paymentMethod}</dt>
        <dd data-testid="refund-method">{method ?? ADMIN_REFUND_DIALOG_TEXT.noPayment}</dd>
      </dl>
      <form className="acct-form" onSubmit={(e) => void form.onSubmit(e)} noValidate aria-busy={busy}>
        {options && way ? (
          <WayChoice name={`${id}-way`} choices={choices} way={way} disabled={busy} onChange={setWay} />
        ) : (
          !failure && (
            <p className="muted" role="status">
              {ADMIN_REFUND_DIALOG_TEXT.loading}
            </p>
          )
        )}
        {way === 'bank_transfer' && (
          <TransferReference
            inputRef={referenceInput}
            id={`${id}-reference`}
            value={reference}
            error={referenceError}
            disabled={busy}
            onChange={setReference}
          />
        )}
        <RestockChoice id={`${id}-restock`} asks={options?.asksForRestock ?? false} checked={restock} disabled={busy} onChange={setRestock} />
        <p>{ADMIN_REFUND_DIALOG_TEXT.warning}</p>
        {failure && (
          <p className="acct-error" role="alert">
            {failure}
          </p>
        )}
        <div className="adm-actions">
          <button type="submit" className="btn btn-primary" disabled={busy || !options}>
            {busy ? ADMIN_REFUND_DIALOG_TEXT.refunding : ADMIN_REFUND_DIALOG_TEXT.confirm}
          </button>
          <button type="button" className="btn btn-outline" disabled={busy} onClick={() => ref.current?.close()}>
            {ADMIN_REFUND_DIALOG_TEXT.back}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** '¿Cómo se devuelve el dinero?': one radio button per way, each with what it does. */
function WayChoice({
  name,
  choices,
  way,
  disabled,
  onChange,
}: {
  name: string;
  choices: RefundChoice[];
  way: RefundWay;
  disabled: boolean;
  onChange: (way: RefundWay) => void;
}) {
  return (
    <fieldset className="adm-choices">
      <legend>{ADMIN_REFUND_DIALOG_TEXT.howBack}</legend>
      {choices.map((c) => (
        <div className="adm-choice-item" key={c.way}>
          <label className="adm-choice">
            <input
              type="radio"
              name={name}
              value={c.way}
              checked={way === c.way}
              disabled={disabled}
              onChange={() => onChange(c.way)}
              aria-describedby={`${name}-${c.way}-hint`}
            />
            {c.label}
          </label>
          <p className="muted adm-choice-hint" id={`${name}-${c.way}-hint`}>
            {c.hint}
          </p>
        </div>
      ))}
    </fieldset>
  );
}

interface ReferenceProps {
  inputRef: RefObject<HTMLInputElement | null>;
  id: string;
  value: string;
  error: string;
  disabled: boolean;
  onChange: (value: string) => void;
}

/** 'Referencia de la transferencia', required for a bank transfer. */
function TransferReference({ inputRef, id, value, error, disabled, onChange }: ReferenceProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{ADMIN_REFUND_DIALOG_TEXT.reference}</label>
      <p className="muted" id={`${id}-hint`}>
        {ADMIN_REFUND_DIALOG_TEXT.referenceHint}
      </p>
      <input
        ref={inputRef}
        id={id}
        className="input"
        value={value}
        maxLength={100}
        autoComplete="off"
        required
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error ${id}-hint` : `${id}-hint`}
        onChange={(e) => onChange(e.target.value)}
      />
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** What happens to the order's units: asked for a shipped or completed order, said for the others. */
function RestockChoice({
  id,
  asks,
  checked,
  disabled,
  onChange,
}: {
  id: string;
  asks: boolean;
  checked: boolean;
  disabled: boolean;
  onChange: (value: boolean) => void;
}) {
  if (!asks) return <p>{ADMIN_REFUND_DIALOG_TEXT.restocked}</p>;
  return (
    <div className="adm-choice-item">
      <label className="adm-choice" htmlFor={id}>
        <input id={id} type="checkbox" checked={checked} disabled={disabled} aria-describedby={`${id}-hint`} onChange={(e) => onChange(e.target.checked)} />
        {ADMIN_REFUND_DIALOG_TEXT.returned}
      </label>
      <p className="muted adm-choice-hint" id={`${id}-hint`}>
        {ADMIN_REFUND_DIALOG_TEXT.returnedHint}
      </p>
    </div>
  );
}
