import { useId, useState } from 'react';
import { passwordStrength } from '~/domain/password.ts';
import { AUTH_PASSWORD_FIELD_TEXT } from '~/i18n/auth.ts';

interface Props {
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password';
  name?: string;
  /** Shows the strength meter under the field (sign-up and new password). */
  meter?: boolean;
  error?: string;
}

/** A password input with a show/hide button and, optionally, the strength meter. */
export default function PasswordField({ label, value, onChange, autoComplete, name = 'password', meter = false, error }: Props) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  const strength = passwordStrength(value);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="acct-password">
        <input
          id={id}
          name={name}
          className="input"
          type={visible ? 'text' : 'password'}
          autoComplete={autoComplete}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={meter ? `${id}-meter` : undefined}
          onChange={(event) => onChange(event.target.value)}
        />
        <button type="button" className="acct-password-toggle" aria-pressed={visible} aria-controls={id} onClick={() => setVisible((v) => !v)}>
          {visible ? AUTH_PASSWORD_FIELD_TEXT.hide : AUTH_PASSWORD_FIELD_TEXT.show}
          <span className="visually-hidden">{AUTH_PASSWORD_FIELD_TEXT.toggleSuffix}</span>
        </button>
      </div>
      {meter && (
        <div className="acct-meter" id={`${id}-meter`} data-testid="password-strength" data-score={strength.score} data-color={strength.color}>
          <div
            className="acct-meter-track"
            role="meter"
            aria-label={AUTH_PASSWORD_FIELD_TEXT.meterLabel}
            aria-valuemin={0}
            aria-valuemax={4}
            aria-valuenow={strength.score}
            aria-valuetext={strength.label}
          >
            <div className={`acct-meter-bar acct-meter-${strength.color}`} style={{ width: `${strength.percent}%` }} />
          </div>
          <span className="acct-meter-label">{AUTH_PASSWORD_FIELD_TEXT.strength(strength.label)}</span>
        </div>
      )}
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}
