/**
 * The labelled form controls of every form of the shop (account, auth, checkout, back office):
 * Field, a label with its control and the error line under it; TextField, a Field holding a text
 * input; SelectField, a Field holding a select; CountrySelect, the country picker of the address forms.
 */
import { useId, type ReactNode, type Ref } from 'react';
import { COUNTRIES } from '~/domain/validation/address.ts';
import { CATALOG_FIELD_TEXT } from '~/i18n/catalog.ts';

interface FieldProps {
  /** The id of the control inside; its error line is `${id}-error` (for aria-describedby). */
  id: string;
  label: string;
  error?: string | undefined;
  children: ReactNode;
}

/** A label, the control it names and, when given, the error under it. */
export function Field({ id, label, error, children }: FieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** What a control with an error says to assistive technology: invalid, described by its error line. */
export function describedBy(id: string, error: string | undefined) {
  return error ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};
}

interface TextFieldProps {
  label: string;
  /** The control's id; one is made when not given. */
  id?: string;
  name?: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  type?: string;
  /** The browser's autofill token (WHATWG autocomplete: 'email', 'postal-code', …). */
  autoComplete?: string;
  /** The phone keyboard to show. */
  inputMode?: 'numeric' | 'decimal' | 'tel' | 'email' | 'text';
  /** A multi-line field of this many rows instead of an input. */
  rows?: number;
  /** 'none' for user names and codes, which phones must not start with a capital. */
  autoCapitalize?: 'none' | 'characters' | 'words' | 'sentences';
  maxLength?: number;
  placeholder?: string;
  inputRef?: Ref<HTMLInputElement>;
}

/** A labelled input; the error, when given, is shown under it and marks the input invalid. */
export function TextField(props: TextFieldProps) {
  const { label, name, value, onChange, error, type = 'text', autoComplete, inputMode, autoCapitalize, maxLength, placeholder, inputRef, rows } = props;
  const madeId = useId();
  const id = props.id ?? madeId;
  if (rows !== undefined) {
    return (
      <Field id={id} label={label} error={error}>
        <textarea
          id={id}
          name={name}
          className="input"
          rows={rows}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          {...describedBy(id, error)}
        />
      </Field>
    );
  }
  return (
    <Field id={id} label={label} error={error}>
      <input
        id={id}
        ref={inputRef}
        name={name}
        className="input"
        type={type}
        autoComplete={autoComplete}
        inputMode={inputMode}
        autoCapitalize={autoCapitalize}
        spellCheck={autoCapitalize === 'none' ? false : undefined}
        maxLength={maxLength}
        placeholder={placeholder}
        value={value}
        {...describedBy(id, error)}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}

interface SelectFieldProps {
  label: string;
  /** The control's id; one is made when not given. */
  id?: string;
  name?: string;
  value: string;
  options: ReadonlyArray<{ code: string; label: string }>;
  onChange: (value: string) => void;
  error?: string | undefined;
  disabled?: boolean;
}

/** A labelled select; the error, when given, is shown under it and marks the select invalid. */
export function SelectField({ label, id: givenId, name, value, options, onChange, error, disabled }: SelectFieldProps) {
  const madeId = useId();
  const id = givenId ?? madeId;
  return (
    <Field id={id} label={label} error={error}>
      <select
        id={id}
        name={name}
        className="input"
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        {...describedBy(id, error)}
      >
        {options.map((option) => (
          <option key={option.code} value={option.code}>
            {option.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** Country picker of the address forms. */
export function CountrySelect({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <Field id={id} label={CATALOG_FIELD_TEXT.country}>
      <select id={id} name="country" className="input" autoComplete="country-name" value={value} onChange={(event) => onChange(event.target.value)}>
        {COUNTRIES.map((country) => (
          <option key={country} value={country}>
            {country}
          </option>
        ))}
      </select>
    </Field>
  );
}
