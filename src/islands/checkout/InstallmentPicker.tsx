/**
 * 'Meses sin intereses': the plans the card's issuer offers for this total, as radio buttons, with
 * 'Pago de contado' first and chosen by default. The server checks the chosen plan again.
 */
import { useId } from 'react';
import type * as z from 'zod/mini';
import type { planOption } from '~/domain/api-answers.ts';
import { CHECKOUT_INSTALLMENTS_TEXT, MEXICAN_PAYMENT_MESSAGES } from '~/i18n/checkout.ts';

/** A plan as the server answers it (monthly in integer centavos). */
export type PlanOption = z.infer<typeof planOption>;

interface Props {
  plans: PlanOption[];
  /** Months chosen; null: 'Pago de contado'. */
  value: number | null;
  onChange(months: number | null): void;
  disabled?: boolean;
}

/** The plan choice; renders nothing when the card has no plans. */
export default function InstallmentPicker({ plans, value, onChange, disabled = false }: Props) {
  const name = useId();
  if (plans.length === 0) return null;
  return (
    <fieldset className="installments" data-testid="installments">
      <legend>{CHECKOUT_INSTALLMENTS_TEXT.legend}</legend>
      <label className="checkbox">
        <input type="radio" name={name} checked={value === null} onChange={() => onChange(null)} disabled={disabled} />
        {MEXICAN_PAYMENT_MESSAGES.cashPayment}
      </label>
      {plans.map((plan) => (
        <label className="checkbox" key={plan.months}>
          <input type="radio" name={name} checked={value === plan.months} onChange={() => onChange(plan.months)} disabled={disabled} />
          {plan.label}
        </label>
      ))}
    </fieldset>
  );
}
