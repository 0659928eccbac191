/**
 * The labelled form controls of the account, auth and checkout screens: a text input with its
 * error line, and the country picker of the address forms.
 */
import { useId, type Ref } from 'react';
import { COUNTRIES } from '../../domain/validation/address.ts';

interface FieldProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  type?: string;
  autoComplete?: string;
  inputMode?: 'numeric' | 'tel' | 'email' | 'text';
  maxLength?: number;
  placeholder?: string;
  inputRef?: Ref<HTMLInputElement>;
}

/** A labelled input; the error, when given, is shown under it and marks the input invalid. */
export function Field({ label, name, value, onChange, error, type = 'text', autoComplete, inputMode, maxLength, placeholder, inputRef }: FieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        ref={inputRef}
        name={name}
        className="input"
        type={type}
        autoComplete={autoComplete}
        inputMode={inputMode}
        maxLength={maxLength}
        placeholder={placeholder}
        value={value}
        aria-invalid={error ? true : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}

/** Country picker of the address forms. */
export function CountrySelect({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>País</label>
      <select id={id} name="country" className="input" value={value} onChange={(event) => onChange(event.target.value)}>
        {COUNTRIES.map((country) => (
          <option key={country} value={country}>
            {country}
          </option>
        ))}
      </select>
    </div>
  );
}
