/** The CLABE field: checked as it is typed (18 digits, the check digit), the bank named from its first three digits. */
import { useId } from 'react';
import { checkClabe } from '~/domain/clabe.ts';
import { CLABE_TEXT } from '~/i18n/buylist.ts';

/** A typed CLABE's state: nothing yet, wrong (its message) or right (its bank). */
export function clabeState(typed: string) {
  if (!typed.trim()) return { valid: false, message: null, bank: null };
  const check = checkClabe(typed);
  return check.ok ? { valid: true, message: null, bank: check.bank } : { valid: false, message: check.message, bank: null };
}

export default function ClabeField({ value, onChange, showError }: { value: string; onChange: (value: string) => void; showError: boolean }) {
  const id = useId();
  const state = clabeState(value);
  // While typing, only a full-length CLABE shows an error; submitting shows it in any case.
  const error = state.message && (showError || value.replace(/\D/g, '').length >= 18) ? state.message : null;
  return (
    <div className="field">
      <label htmlFor={id}>{CLABE_TEXT.label}</label>
      <input
        id={id}
        className="input"
        inputMode="numeric"
        autoComplete="off"
        maxLength={24}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-note`}
      />
      <p id={`${id}-note`} className={error ? 'field-error' : 'muted'} aria-live="polite">
        {error ?? (state.bank ? CLABE_TEXT.bank(state.bank) : '')}
      </p>
    </div>
  );
}
