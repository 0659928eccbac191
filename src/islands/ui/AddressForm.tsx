/**
 * The address form of the account and of the checkout's shipping step, checked with the domain's
 * address rules before it is sent.
 *
 * For México the postal code comes first: five digits ask the SEPOMEX lookup (debounced; only the
 * answer for the code still in the field is used), which fills estado, municipio (and the city when
 * the catalogue has one) and offers the code's colonias in a list with 'Otra', which reveals a text
 * field. An unknown code or a failed lookup leaves every field to be typed, with no error. Then
 * calle, número exterior e interior, referencias and the contact phone. Other countries keep the
 * specification's fields: street, city, state, postal code.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { DEFAULT_COUNTRY, isMexico, MX_ADDRESS_LIMITS, MX_ZIP_PATTERN, validateAddress, type AddressInput } from '~/domain/validation/address.ts';
import { addressLines, partsOfAddress } from '~/domain/address-copy.ts';
import type { Address } from '~/data/addresses.ts';
import { lookupPostalCode, type PostalCodeInfo } from '~/data/postal-codes.ts';
import { CountrySelect, Field, TextField, describedBy } from './Field.tsx';
import { FormActions } from './FormActions.tsx';
import { useForm } from './use-form.ts';
import { usePrebuiltForm } from '../prebuilt.ts';
import { CATALOG_ADDRESS_FORM_TEXT as TEXT } from '~/i18n/catalog.ts';
import { ADDRESS_FORM_MX_TEXT as MX } from '~/i18n/addresses.ts';

/** The form's values. */
export type AddressFormFields = {
  label: string;
  street: string;
  exterior_number: string;
  interior_number: string;
  neighborhood: string;
  municipality: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  references: string;
  phone: string;
  is_default: boolean;
};

/** An empty form (country: the shop's default). */
export const EMPTY_ADDRESS: AddressFormFields = {
  label: '',
  street: '',
  exterior_number: '',
  interior_number: '',
  neighborhood: '',
  municipality: '',
  city: '',
  state: '',
  zip: '',
  country: DEFAULT_COUNTRY,
  references: '',
  phone: '',
  is_default: false,
};

/** The validated fields back in the form's shape (an empty part as ''). */
function formFieldsOf(data: AddressInput): AddressFormFields {
  return {
    label: data.label ?? '',
    street: data.street,
    exterior_number: data.exterior_number ?? '',
    interior_number: data.interior_number ?? '',
    neighborhood: data.neighborhood ?? '',
    municipality: data.municipality ?? '',
    city: data.city,
    state: data.state,
    zip: data.zip,
    country: data.country,
    references: data.references ?? '',
    phone: data.phone ?? '',
    is_default: data.is_default,
  };
}

/** The form filled with a stored address. */
export function addressFields(address: Address): AddressFormFields {
  return {
    label: address.label ?? '',
    street: address.street,
    exterior_number: address.exterior_number ?? '',
    interior_number: address.interior_number ?? '',
    neighborhood: address.neighborhood ?? '',
    municipality: address.municipality ?? '',
    city: address.city,
    state: address.state,
    zip: address.zip,
    country: address.country,
    references: address.delivery_references ?? '',
    phone: address.phone ?? '',
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
  /** The street field's label outside México (default 'Calle'). */
  streetLabel?: string;
  /** The label field's placeholder. */
  labelPlaceholder?: string;
  /** When given, the first field (México: the postal code; else the street) is focused this many milliseconds after the form opens. */
  focusStreetAfterMs?: number;
  /** The form element's id. */
  id?: string;
  /** The styles to use: the account's (default) or the checkout's. */
  look?: 'account' | 'checkout';
  /**
   * Opens with the missing parts of `initial` marked with the form's own messages (an address a
   * payment refused); each mark stays until its field changes or the form is sent.
   */
  showGapsOnOpen?: boolean;
}

const LOOKS = {
  account: { form: 'acct-form', row: 'acct-row', check: 'acct-check' },
  checkout: { form: 'address-form', row: 'field-row', check: 'checkbox' },
} as const;

/** How long the postal code must stay still before it is looked up. */
const LOOKUP_DELAY_MS = 250;
/** The colonia list's value for 'Otra'. */
const OTHER = '__otra__';

type Lookup = { state: 'idle' } | { state: 'busy'; code: string } | { state: 'found'; info: PostalCodeInfo } | { state: 'unknown' } | { state: 'failed' };

/**
 * The missing parts of the values a form opened with, judged by the form's own rules, each shown
 * while its field still holds its opening value; `clear` drops them (the form is being sent).
 */
function useOpeningGaps(enabled: boolean, initial: AddressFormFields, fields: AddressFormFields) {
  const [gaps, setGaps] = useState<Record<string, string>>(() => {
    if (!enabled) return {};
    const judged = validateAddress(initial);
    return judged.ok ? {} : judged.fieldErrors;
  });
  const now = fields as Record<string, unknown>;
  const opened = initial as Record<string, unknown>;
  const shown = Object.fromEntries(Object.entries(gaps).filter(([key]) => now[key] === opened[key]));
  return { shown, clear: () => setGaps({}) };
}

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
    showGapsOnOpen = false,
  } = props;
  const [fields, setFields] = useState<AddressFormFields>(initial);
  const [otherNeighborhood, setOtherNeighborhood] = useState(false);
  const firstRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  /** Whether the shopper changed the postal code since the form opened (then the lookup's answer replaces estado and municipio). */
  const zipTyped = useRef(false);
  const set = (key: keyof AddressFormFields) => (value: string | boolean) => {
    if (key === 'zip') zipTyped.current = true;
    setFields((f) => ({ ...f, [key]: value }));
  };
  const classes = LOOKS[look];
  const mexican = isMexico(fields.country);
  const code = fields.zip.trim();

  // What was typed into the form before it was live (a phone that hydrates slowly) is kept.
  const textValues = Object.fromEntries(Object.entries(fields).filter(([, value]) => typeof value === 'string')) as Record<string, string>;
  usePrebuiltForm(formRef, textValues, (name, typed) => set(name as keyof AddressFormFields)(typed));

  // Once when the form opens: the delay is fixed for the form's life.
  useEffect(() => {
    if (focusStreetAfterMs === undefined) return;
    const timer = setTimeout(() => {
      const first = firstRef.current;
      // A shopper already typing in the form keeps their cursor where it is.
      if (!first || first.form?.contains(document.activeElement)) return;
      first.focus();
    }, focusStreetAfterMs);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once, when the form opens
  }, []);

  const lookup = usePostalLookup(mexican ? code : '', (info) => {
    if (!info) {
      setOtherNeighborhood(false);
      return;
    }
    const filled = fillFromLookup(fieldsRef.current, info, zipTyped.current);
    setOtherNeighborhood(filled.other);
    setFields((f) => ({ ...f, ...filled.fields }));
  });
  // The lookup's answer is applied to the latest fields (the shopper may have typed meanwhile).
  const fieldsRef = useRef(fields);
  fieldsRef.current = fields;

  const form = useForm({
    validate: () => validateAddress(fields),
    // What is sent is what the rules made of the fields: trimmed, the phone's digits, and no
    // Mexican parts for another country.
    send: (data) => onSubmit(formFieldsOf(data)).then((outcome) => (typeof outcome === 'string' ? outcome : undefined)),
  });
  const gaps = useOpeningGaps(showGapsOnOpen, initial, fields);
  const errors: Record<string, string> = { ...gaps.shown, ...form.errors };
  const submit = (event: FormEvent) => {
    gaps.clear();
    return form.onSubmit(event);
  };

  const input: RenderInput = (key, label, options = {}) => (
    <TextField
      label={label}
      name={key}
      value={fields[key]}
      onChange={set(key)}
      error={errors[key]}
      autoComplete={options.autoComplete}
      inputMode={options.inputMode}
      maxLength={options.maxLength}
      placeholder={options.placeholder}
      inputRef={options.first ? firstRef : undefined}
    />
  );

  return (
    <form ref={formRef} id={id} className={classes.form} onSubmit={submit} noValidate aria-label={title} aria-busy={busy || form.busy} data-prebuilt="">
      {input('label', TEXT.label, { placeholder: labelPlaceholder })}
      {mexican ? (
        mexicanFields({
          input,
          row: classes.row,
          country: <CountrySelect value={fields.country} onChange={(value) => set('country')(value)} />,
          lookup,
          neighborhood: fields.neighborhood,
          other: otherNeighborhood,
          errors,
          onNeighborhood: (value) => {
            setOtherNeighborhood(value === OTHER);
            set('neighborhood')(value === OTHER ? '' : value);
          },
          references: <ReferencesField value={fields.references} error={errors.references} onChange={set('references')} />,
        })
      ) : (
        <>
          {input('street', streetLabel, { autoComplete: 'street-address', first: true })}
          <div className={classes.row}>
            {input('city', TEXT.city, { autoComplete: 'address-level2' })}
            {input('state', TEXT.state, { autoComplete: 'address-level1' })}
          </div>
          <div className={classes.row}>
            {input('zip', TEXT.zip, { autoComplete: 'postal-code', inputMode: 'numeric', maxLength: 5 })}
            <CountrySelect value={fields.country} onChange={(value) => set('country')(value)} />
          </div>
        </>
      )}
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

type TextKey = Exclude<keyof AddressFormFields, 'is_default' | 'country' | 'references'>;
type RenderInput = (
  key: TextKey,
  label: string,
  options?: { autoComplete?: string; inputMode?: 'numeric' | 'tel'; maxLength?: number; placeholder?: string; first?: boolean },
) => ReactNode;

/** México's fields, postal code first; the colonia is a list once the code's colonias are known. */
function mexicanFields(p: {
  input: RenderInput;
  row: string;
  country: ReactNode;
  lookup: Lookup;
  neighborhood: string;
  other: boolean;
  errors: Record<string, string>;
  onNeighborhood: (value: string) => void;
  references: ReactNode;
}) {
  const { input, row, lookup } = p;
  const settlements = lookup.state === 'found' ? lookup.info.settlements : [];
  const listed = settlements.length > 0;
  return (
    <>
      <div className={row}>
        {input('zip', TEXT.zip, { autoComplete: 'postal-code', inputMode: 'numeric', maxLength: 5, first: true })}
        {p.country}
      </div>
      <p className="field-hint" role="status" aria-live="polite">
        {lookup.state === 'busy' && MX.lookingUp}
        {lookup.state === 'found' && listed && MX.found(settlements.length)}
        {lookup.state === 'unknown' && MX.notFound}
      </p>
      <div className={row}>
        {input('state', TEXT.state, { autoComplete: 'address-level1' })}
        {input('municipality', MX.municipality, { autoComplete: 'address-level2' })}
      </div>
      {listed ? (
        <NeighborhoodSelect
          names={settlements.map((s) => s.name)}
          value={p.other ? OTHER : p.neighborhood}
          error={p.other ? undefined : p.errors.neighborhood}
          onChange={p.onNeighborhood}
        />
      ) : (
        input('neighborhood', MX.neighborhood, { autoComplete: 'address-level3' })
      )}
      {listed && p.other && input('neighborhood', MX.neighborhoodOtherName, { autoComplete: 'address-level3' })}
      {input('city', MX.city)}
      {input('street', MX.street, { autoComplete: 'address-line1' })}
      <div className={row}>
        {input('exterior_number', MX.exteriorNumber, { maxLength: MX_ADDRESS_LIMITS.number })}
        {input('interior_number', MX.interiorNumber, { maxLength: MX_ADDRESS_LIMITS.number })}
      </div>
      {p.references}
      {input('phone', MX.phone, { autoComplete: 'tel-national', inputMode: 'tel', placeholder: MX.phonePlaceholder, maxLength: 14 })}
    </>
  );
}

/** Referencias: a short text for the courier, with its placeholder. */
function ReferencesField({ value, error, onChange }: { value: string; error: string | undefined; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <Field id={id} label={MX.references} error={error}>
      <textarea
        id={id}
        name="references"
        className="input"
        rows={2}
        maxLength={MX_ADDRESS_LIMITS.references}
        placeholder={MX.referencesPlaceholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        {...describedBy(id, error)}
      />
    </Field>
  );
}

/**
 * Asks the lookup for a 5-digit code once it stays still for LOOKUP_DELAY_MS; an answer for a code
 * no longer in the field is dropped. `onAnswer` gets the catalogue's answer (null: unknown code).
 */
function usePostalLookup(code: string, onAnswer: (info: PostalCodeInfo | null) => void): Lookup {
  const [lookup, setLookup] = useState<Lookup>({ state: 'idle' });
  const answer = useRef(onAnswer);
  answer.current = onAnswer;
  useEffect(() => {
    if (!MX_ZIP_PATTERN.test(code)) {
      setLookup({ state: 'idle' });
      return;
    }
    let current = true;
    setLookup({ state: 'busy', code });
    const timer = setTimeout(() => {
      lookupPostalCode(code).then(
        (info) => {
          if (!current) return;
          setLookup(info ? { state: 'found', info } : { state: 'unknown' });
          answer.current(info);
        },
        () => {
          if (current) setLookup({ state: 'failed' });
        },
      );
    }, LOOKUP_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [code]);
  return lookup;
}

/**
 * What a found postal code fills. A code the shopper typed replaces estado and municipio (and the
 * city when the catalogue has one); the code of an address being edited only fills what is blank
 * and keeps its colonia, under 'Otra' when it is not listed. A single colonia is chosen at once.
 */
function fillFromLookup(current: AddressFormFields, info: PostalCodeInfo, typedCode: boolean) {
  const names = info.settlements.map((s) => s.name);
  const typed = current.neighborhood.trim();
  const other = !typedCode && typed !== '' && !names.includes(typed);
  const neighborhood = typed !== '' && (other || names.includes(typed)) ? typed : names.length === 1 ? names[0]! : '';
  const fill = (value: string, found: string | null) => (found && (typedCode || value.trim() === '') ? found : value);
  return {
    other,
    fields: {
      state: fill(current.state, info.state),
      municipality: fill(current.municipality, info.municipality),
      city: fill(current.city, info.city),
      neighborhood,
    },
  };
}

/** The postal code's colonias, then 'Otra' (which reveals a text field). */
function NeighborhoodSelect({
  names,
  value,
  error,
  onChange,
}: {
  names: string[];
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const selectId = useId();
  return (
    <Field id={selectId} label={MX.neighborhood} error={error}>
      <select
        id={selectId}
        name="neighborhood_choice"
        className="input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        {...describedBy(selectId, error)}
      >
        <option value="">{MX.neighborhoodChoose}</option>
        {names.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
        <option value={OTHER}>{MX.neighborhoodOther}</option>
      </select>
    </Field>
  );
}

/** An address on one line, in the order a courier reads it (src/domain/address-copy.ts). */
export function describeAddress(address: Address): string {
  return addressLines(partsOfAddress(address)).join(', ');
}
