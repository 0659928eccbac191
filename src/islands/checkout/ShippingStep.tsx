/**
 * Step 2: the shopper's saved addresses as a radio list (default preselected, else the first),
 * 'Usar esta dirección', and the 'Agregar nueva dirección' form, which opens by itself and focuses
 * the street when there are no addresses yet.
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { createAddress, listAddresses, type Address } from '../../data/addresses.ts';
import { CHECKOUT_MESSAGES } from '../../data/checkout.ts';
import { COUNTRIES, DEFAULT_COUNTRY, validateAddress } from '../../domain/validation.ts';

/** Delay before focusing the street field of a form that opened by itself (spec: 50 ms). */
export const ADDRESS_FOCUS_DELAY_MS = 50;

interface Props {
  userId: string;
  /** The order's current address, preselected when present. */
  selectedId: string | null;
  busy: boolean;
  error: string | null;
  onUse(addressId: string): void;
}

type Fields = { label: string; street: string; city: string; state: string; zip: string; country: string; is_default: boolean };
const EMPTY: Fields = { label: '', street: '', city: '', state: '', zip: '', country: DEFAULT_COUNTRY, is_default: false };

/** The shipping step. */
export default function ShippingStep({ userId, selectedId, busy, error, onUse }: Props) {
  const [addresses, setAddresses] = useState<Address[] | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [choice, setChoice] = useState<string | null>(selectedId);
  const [formOpen, setFormOpen] = useState(false);
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formMessage, setFormMessage] = useState('');
  const [saving, setSaving] = useState(false);
  const [selectMessage, setSelectMessage] = useState('');
  const streetRef = useRef<HTMLInputElement>(null);
  const id = useId();

  const load = useCallback(async () => {
    setLoadError(false);
    const result = await listAddresses(userId);
    if (result.error) {
      setLoadError(true);
      return;
    }
    setAddresses(result.data);
    if (result.data.length === 0) {
      setFormOpen(true);
      setTimeout(() => streetRef.current?.focus(), ADDRESS_FOCUS_DELAY_MS);
      return;
    }
    setChoice((current) => {
      if (current && result.data.some((a) => a.id === current)) return current;
      return (result.data.find((a) => a.is_default) ?? result.data[0])!.id;
    });
  }, [userId]);

  // Once per user: `load` changes only with the user.
  useEffect(() => {
    void load();
  }, [load]);

  function use() {
    const chosen = addresses?.find((a) => a.id === choice);
    setSelectMessage(chosen ? '' : CHECKOUT_MESSAGES.selectAddress);
    if (chosen) onUse(chosen.id);
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    const result = validateAddress({ ...fields, is_default: fields.is_default || (addresses?.length ?? 0) === 0 });
    if (!result.ok) {
      setFieldErrors(result.fieldErrors);
      setFormMessage(result.formError);
      return;
    }
    setFieldErrors({});
    setFormMessage('');
    setSaving(true);
    const created = await createAddress(userId, result.data);
    setSaving(false);
    if (created.error) {
      setFormMessage('No se pudo guardar la dirección.');
      return;
    }
    const list = await listAddresses(userId);
    setAddresses(list.error ? [...(addresses ?? []), created.data] : list.data);
    setChoice(created.data.id);
    setFields(EMPTY);
    setFormOpen(false);
  }

  const set = (key: keyof Fields) => (event: { target: { value: string } }) => setFields((f) => ({ ...f, [key]: event.target.value }));

  return (
    <section className="checkout-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Dirección de envío</h2>
      {loadError && (
        <div className="alert alert-error" role="alert">
          <p>No se pudieron cargar tus direcciones.</p>
          <button type="button" className="btn btn-outline" onClick={() => void load()}>
            Reintentar
          </button>
        </div>
      )}
      {addresses === null && !loadError && <p role="status">Cargando tus direcciones…</p>}
      {addresses && addresses.length > 0 && <SavedAddresses name={`${id}-address`} addresses={addresses} choice={choice} onChoose={setChoice} />}
      {(selectMessage || error) && (
        <p className="field-error" role="alert">
          {selectMessage || error}
        </p>
      )}
      {addresses && addresses.length > 0 && (
        <button type="button" className="btn btn-primary" onClick={use} disabled={busy} aria-busy={busy}>
          Usar esta dirección
        </button>
      )}

      <div className="new-address">
        <button type="button" className="btn btn-outline" aria-expanded={formOpen} aria-controls={`${id}-form`} onClick={() => setFormOpen((o) => !o)}>
          Agregar nueva dirección
        </button>
        {formOpen && (
          <form id={`${id}-form`} className="address-form" onSubmit={save} noValidate aria-label="Nueva dirección">
            <AddressFields id={id} fields={fields} errors={fieldErrors} set={set} streetRef={streetRef} />
            {addresses && addresses.length > 0 && (
              <label className="checkbox">
                <input type="checkbox" checked={fields.is_default} onChange={(e) => setFields((f) => ({ ...f, is_default: e.target.checked }))} />
                Usar como dirección predeterminada
              </label>
            )}
            {formMessage && (
              <p className="field-error" role="alert">
                {formMessage}
              </p>
            )}
            <button type="submit" className="btn btn-primary" disabled={saving} aria-busy={saving}>
              {saving ? 'Guardando…' : 'Guardar dirección'}
            </button>
          </form>
        )}
      </div>
    </section>
  );
}

interface FieldsProps {
  id: string;
  fields: Fields;
  errors: Record<string, string>;
  set: (key: keyof Fields) => (event: { target: { value: string } }) => void;
  streetRef: RefObject<HTMLInputElement | null>;
}

/** The fields of the new-address form, each error tied to its field. */
function AddressFields({ id, fields, errors: fieldErrors, set, streetRef }: FieldsProps) {
  const fieldError = (key: string) =>
    fieldErrors[key] ? (
      <p className="field-error" id={`${id}-${key}-error`}>
        {fieldErrors[key]}
      </p>
    ) : null;
  const described = (key: string) => (fieldErrors[key] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${key}-error` } : {});
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-label`}>Etiqueta (opcional)</label>
        <input id={`${id}-label`} className="input" value={fields.label} onChange={set('label')} placeholder="Casa, Oficina…" />
      </div>
      <div className="field">
        <label htmlFor={`${id}-street`}>Calle y número</label>
        <input id={`${id}-street`} ref={streetRef} className="input" value={fields.street} onChange={set('street')} autoComplete="street-address" {...described('street')} />
        {fieldError('street')}
      </div>
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-city`}>Ciudad</label>
          <input id={`${id}-city`} className="input" value={fields.city} onChange={set('city')} autoComplete="address-level2" {...described('city')} />
          {fieldError('city')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-state`}>Estado</label>
          <input id={`${id}-state`} className="input" value={fields.state} onChange={set('state')} autoComplete="address-level1" {...described('state')} />
          {fieldError('state')}
        </div>
      </div>
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-zip`}>Código Postal</label>
          <input id={`${id}-zip`} className="input" inputMode="numeric" maxLength={5} value={fields.zip} onChange={set('zip')} autoComplete="postal-code" {...described('zip')} />
          {fieldError('zip')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-country`}>País</label>
          <select id={`${id}-country`} className="input" value={fields.country} onChange={set('country')} {...described('country')}>
            {COUNTRIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
          {fieldError('country')}
        </div>
      </div>
    </>
  );
}

/** The saved addresses as radio buttons. */
function SavedAddresses({ name, addresses, choice, onChoose }: { name: string; addresses: Address[]; choice: string | null; onChoose: (id: string) => void }) {
  return (
    <fieldset className="address-list">
      <legend>Tus direcciones guardadas</legend>
      {addresses.map((a) => (
        <label key={a.id} className={`address-option${choice === a.id ? ' is-selected' : ''}`}>
          <input type="radio" name={name} value={a.id} checked={choice === a.id} onChange={() => onChoose(a.id)} />
          <span>
            {a.label && <strong>{a.label} </strong>}
            {a.is_default && <span className="badge">Predeterminada</span>}
            <br />
            {a.street}, {a.city}, {a.state}, C.P. {a.zip}, {a.country}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
