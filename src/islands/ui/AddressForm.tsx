/**
 * The address form of the account and of the checkout's shipping step: label, street, city, state,
 * postal code, country and (when offered) the default checkbox, checked with the domain's address
 * rules before it is sent.
 */
import { useEffect, useRef, useState } from 'react';
import { DEFAULT_COUNTRY, validateAddress } from '~/domain/validation/address.ts';
import type { Address } from '~/data/addresses.ts';
import { CountrySelect, TextField } from './Field.tsx';
import { FormActions } from './FormActions.tsx';
import { useForm } from './use-form.ts';
import { CATALOG_ADDRESS_FORM_TEXT as TEXT } from '~/i18n/catalog.ts';

/** The form's values. */
export type AddressFormFields = {
  label: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  is_default: boolean;
};

/** An empty form (country: the shop's default). */
export const EMPTY_ADDRESS: AddressFormFields = {
  label: '',
  street: '',
  city: '',
  state: '',
  zip: '',
  country: DEFAULT_COUNTRY,
  is_default: false,
};

/** The form filled with a stored address. */
export function addressFields(address: Address): AddressFormFields {
  return {
    label: address.label ?? '',
    street: address.street,
    city: address.city,
    state: address.state,
    zip: address.zip,
    country: address.country,
    is_default: address.is_default,
  };
}

interface Props {
  initial: AddressFormFields;
  title: string;
  submitLabel: string;
  /** Whether to offer the default checkbox (not for the first address, which is always default). */
  offerDefault: boolean;
  busy: boolean;
  /** Sends the fields; a string it resolves to is shown as the form's error. */
  onSubmit: (fields: AddressFormFields) => Promise<unknown>;
  onCancel?: () => void;
  /** The street field's label (default 'Calle'). */
  streetLabel?: string;
  /** The label field's placeholder. */
  labelPlaceholder?: string;
  /** When given, the street field is focused this many milliseconds after the form opens. */
  focusStreetAfterMs?: number;
  /** The form element's id. */
  id?: string;
  /** The styles to use: the account's (default) or the checkout's. */
  look?: 'account' | 'checkout';
}

const LOOKS = {
  account: { form: 'acct-form', row: 'acct-row', check: 'acct-check' },
  checkout: { form: 'address-form', row: 'field-row', check: 'checkbox' },
} as const;

/** The add / edit address form. */
export function AddressForm(props: Props) {
  const {
    initial,
    title,
    submitLabel,
    offerDefault,
    busy,
    onSubmit,
    onCancel,
    streetLabel = TEXT.street,
    labelPlaceholder,
    focusStreetAfterMs,
    id,
    look = 'account',
  } = props;
  const [fields, setFields] = useState<AddressFormFields>(initial);
  const streetRef = useRef<HTMLInputElement>(null);
  const set = (key: keyof AddressFormFields) => (value: string | boolean) => setFields((f) => ({ ...f, [key]: value }));
  const classes = LOOKS[look];

  // Once when the form opens: the delay is fixed for the form's life.
  useEffect(() => {
    if (focusStreetAfterMs === undefined) return;
    const timer = setTimeout(() => {
      const street = streetRef.current;
      // A shopper already typing in the form keeps their cursor where it is.
      if (!street || street.form?.contains(document.activeElement)) return;
      street.focus();
    }, focusStreetAfterMs);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once, when the form opens
  }, []);

  const form = useForm({
    validate: () => validateAddress(fields),
    send: () => onSubmit(fields).then((outcome) => (typeof outcome === 'string' ? outcome : undefined)),
  });
  const { errors } = form;

  const input = (key: 'label' | 'street' | 'city' | 'state' | 'zip', label: string, autoComplete?: string) => (
    <TextField
      label={label}
      name={key}
      value={fields[key]}
      onChange={set(key)}
      error={errors[key]}
      autoComplete={autoComplete}
      inputMode={key === 'zip' ? 'numeric' : undefined}
      maxLength={key === 'zip' ? 5 : undefined}
      placeholder={key === 'label' ? labelPlaceholder : undefined}
      inputRef={key === 'street' ? streetRef : undefined}
    />
  );

  return (
    <form id={id} className={classes.form} onSubmit={form.onSubmit} noValidate aria-label={title} aria-busy={busy || form.busy}>
      {input('label', TEXT.label)}
      {input('street', streetLabel, 'street-address')}
      <div className={classes.row}>
        {input('city', TEXT.city, 'address-level2')}
        {input('state', TEXT.state, 'address-level1')}
      </div>
      <div className={classes.row}>
        {input('zip', TEXT.zip, 'postal-code')}
        <CountrySelect value={fields.country} onChange={(value) => set('country')(value)} />
      </div>
      {offerDefault && (
        <label className={classes.check}>
          <input type="checkbox" name="is_default" checked={fields.is_default} onChange={(event) => set('is_default')(event.target.checked)} />
          {TEXT.makeDefault}
        </label>
      )}
      <FormActions error={form.formError} busy={busy || form.busy} submitLabel={submitLabel} busyLabel={TEXT.saving} onCancel={onCancel} />
    </form>
  );
}

/** An address on one line: 'street, city, state zip, country'. */
export function describeAddress(address: Pick<Address, 'street' | 'city' | 'state' | 'zip' | 'country'>): string {
  return `${address.street}, ${address.city}, ${address.state} ${address.zip}, ${address.country}`;
}
