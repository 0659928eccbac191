import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  createAddress,
  deleteAddress,
  listAddresses,
  setDefaultAddress,
  updateAddress,
  LAST_ADDRESS_MESSAGE,
  type Address,
} from '../../data/addresses.ts';
import { DEFAULT_COUNTRY, validateAddress } from '../../domain/validation.ts';
import { CountrySelect } from './ProfilePanel.tsx';
import { showToast } from './toast.ts';
import { useLiveRows } from './useLive.ts';

export const ADDRESS_MESSAGES = {
  empty: 'Aún no has agregado direcciones.',
  loadFailed: 'No se pudieron cargar tus direcciones.',
  updateFailed: 'No se pudo actualizar.',
  defaultFailed: 'No se pudo actualizar la dirección predeterminada.',
  saveFailed: 'No se pudo guardar la dirección.',
  deleteFailed: 'No se pudo eliminar.',
  updated: 'Dirección actualizada',
  defaultDone: 'Predeterminada actualizada',
  saved: 'Dirección guardada',
  deleted: 'Dirección eliminada',
} as const;

type Fields = { label: string; street: string; city: string; state: string; zip: string; country: string; is_default: boolean };
const EMPTY: Fields = { label: '', street: '', city: '', state: '', zip: '', country: DEFAULT_COUNTRY, is_default: false };

function fieldsOf(address: Address): Fields {
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

interface FormProps {
  initial: Fields;
  title: string;
  submitLabel: string;
  /** Whether to offer the default checkbox (not for the first address, which is always default). */
  offerDefault: boolean;
  busy: boolean;
  onSubmit: (fields: Fields) => Promise<void>;
  onCancel?: () => void;
}

function AddressForm({ initial, title, submitLabel, offerDefault, busy, onSubmit, onCancel }: FormProps) {
  const id = useId();
  const [fields, setFields] = useState<Fields>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState('');
  const set = (key: keyof Fields) => (value: string | boolean) => setFields((f) => ({ ...f, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = validateAddress(fields);
    if (!parsed.ok) {
      setErrors(parsed.fieldErrors);
      setFormError(parsed.formError);
      return;
    }
    setErrors({});
    setFormError('');
    await onSubmit(fields);
  }

  const input = (key: 'label' | 'street' | 'city' | 'state' | 'zip', label: string, autoComplete?: string, inputMode?: 'numeric') => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        name={key}
        className="input"
        value={fields[key]}
        autoComplete={autoComplete}
        inputMode={inputMode}
        maxLength={key === 'zip' ? 5 : undefined}
        aria-invalid={errors[key] ? true : undefined}
        onChange={(event) => set(key)(event.target.value)}
      />
      {errors[key] && <p className="field-error">{errors[key]}</p>}
    </div>
  );

  return (
    <form className="acct-form" onSubmit={submit} noValidate aria-label={title} aria-busy={busy}>
      {input('label', 'Etiqueta (opcional)')}
      {input('street', 'Calle', 'street-address')}
      <div className="acct-row">
        {input('city', 'Ciudad', 'address-level2')}
        {input('state', 'Estado', 'address-level1')}
      </div>
      <div className="acct-row">
        {input('zip', 'Código Postal', 'postal-code', 'numeric')}
        <CountrySelect value={fields.country} onChange={(value) => set('country')(value)} />
      </div>
      {offerDefault && (
        <label className="acct-check">
          <input type="checkbox" name="is_default" checked={fields.is_default} onChange={(event) => set('is_default')(event.target.checked)} />
          Usar como dirección predeterminada
        </label>
      )}
      {formError && (
        <p className="acct-error" role="alert">
          {formError}
        </p>
      )}
      <div className="acct-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Guardando…' : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="btn btn-outline" onClick={onCancel} disabled={busy}>
            Cancelar
          </button>
        )}
      </div>
    </form>
  );
}

function describe(address: Address): string {
  return `${address.street}, ${address.city}, ${address.state} ${address.zip}, ${address.country}`;
}

/** "Mis direcciones": list (default first), add, inline edit, delete with confirmation, default. */
export default function AddressesPanel({ userId }: { userId: string }) {
  const [addresses, setAddresses] = useState<Address[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [deletingId, setDeletingId] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const [toDelete, setToDelete] = useState<Address | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  const load = useCallback(async () => {
    const result = await listAddresses(userId);
    if (result.error) {
      setFailed(true);
      return;
    }
    setFailed(false);
    setAddresses(result.data);
  }, [userId]);

  useEffect(() => {
    void load();
  }, [load]);
  useLiveRows('addresses', userId, () => void load());

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (toDelete && !element.open) element.showModal();
    if (!toDelete && element.open) element.close();
  }, [toDelete]);

  async function add(fields: Fields) {
    setAdding(true);
    const first = (addresses ?? []).length === 0;
    const result = await createAddress(userId, { ...fields, is_default: first || fields.is_default });
    setAdding(false);
    if (result.error) {
      showToast(ADDRESS_MESSAGES.saveFailed, 'error');
      return;
    }
    showToast(ADDRESS_MESSAGES.saved, 'success');
    setFormKey((k) => k + 1);
    await load();
  }

  async function save(address: Address, fields: Fields) {
    setBusyId(address.id);
    const result = await updateAddress(address.id, { ...fields, is_default: !address.is_default && fields.is_default });
    setBusyId(null);
    if (result.error) {
      showToast(ADDRESS_MESSAGES.updateFailed, 'error');
      return;
    }
    showToast(ADDRESS_MESSAGES.updated, 'success');
    setEditingId(null);
    await load();
  }

  async function makeDefault(address: Address) {
    setBusyId(address.id);
    const { error } = await setDefaultAddress(address.id);
    setBusyId(null);
    if (error) {
      showToast(ADDRESS_MESSAGES.defaultFailed, 'error');
      return;
    }
    showToast(ADDRESS_MESSAGES.defaultDone, 'success');
    await load();
  }

  async function confirmDelete() {
    const address = toDelete;
    if (!address) return;
    setToDelete(null);
    setBusyId(address.id);
    setDeletingId(address.id);
    const { error, lastAddress } = await deleteAddress(address.id);
    setBusyId(null);
    setDeletingId(null);
    if (error) {
      showToast(lastAddress ? LAST_ADDRESS_MESSAGE : ADDRESS_MESSAGES.deleteFailed, 'error');
      return;
    }
    showToast(ADDRESS_MESSAGES.deleted, 'success');
    await load();
  }

  const list = addresses ?? [];
  const onlyOne = list.length === 1;

  return (
    <>
      <h2>Mis direcciones</h2>
      {failed && addresses === null ? (
        <div className="acct-actions">
          <p className="acct-error" role="alert">
            {ADDRESS_MESSAGES.loadFailed}
          </p>
          <button type="button" className="btn btn-outline" onClick={() => void load()}>
            Reintentar
          </button>
        </div>
      ) : addresses === null ? (
        <div className="acct-loading" role="status">
          <span className="acct-spinner" aria-hidden="true" /> Cargando direcciones…
        </div>
      ) : list.length === 0 ? (
        <p>{ADDRESS_MESSAGES.empty}</p>
      ) : (
        <ul className="acct-list" data-testid="address-list">
          {list.map((address) => {
            const state =
              deletingId === address.id ? 'deleting' : busyId === address.id ? 'saving' : editingId === address.id ? 'edit' : 'view';
            return (
              <li key={address.id} className="acct-item" data-testid="address" data-state={state} data-default={address.is_default}>
                {editingId === address.id ? (
                  <AddressForm
                    initial={fieldsOf(address)}
                    title="Editar dirección"
                    submitLabel="Guardar cambios"
                    offerDefault={!address.is_default}
                    busy={busyId === address.id}
                    onSubmit={(fields) => save(address, fields)}
                    onCancel={() => setEditingId(null)}
                  />
                ) : (
                  <>
                    <div>
                      {address.label && <strong>{address.label} </strong>}
                      {address.is_default && <span className="badge badge-success">Predeterminada</span>}
                      <p className="acct-email">{describe(address)}</p>
                    </div>
                    <div className="acct-actions">
                      <button type="button" className="btn btn-outline" disabled={busyId !== null} onClick={() => setEditingId(address.id)}>
                        Editar
                      </button>
                      {!address.is_default && (
                        <button type="button" className="btn btn-outline" disabled={busyId !== null} onClick={() => void makeDefault(address)}>
                          Hacer predeterminada
                        </button>
                      )}
                      <button
                        type="button"
                        className="btn btn-outline"
                        disabled={busyId !== null || onlyOne}
                        aria-describedby={onlyOne ? `only-${address.id}` : undefined}
                        onClick={() => setToDelete(address)}
                      >
                        {deletingId === address.id ? 'Eliminando…' : 'Eliminar'}
                      </button>
                    </div>
                    {onlyOne && (
                      <p className="muted" id={`only-${address.id}`}>
                        {LAST_ADDRESS_MESSAGE}
                      </p>
                    )}
                  </>
                )}
              </li>
            );
          })}
        </ul>
      )}

      {addresses !== null && (
        <section className="acct-section" aria-labelledby="acct-new-address">
          <h3 id="acct-new-address">Agregar nueva dirección</h3>
          <AddressForm
            key={formKey}
            initial={EMPTY}
            title="Agregar nueva dirección"
            submitLabel="Guardar dirección"
            offerDefault={list.length > 0}
            busy={adding}
            onSubmit={add}
          />
        </section>
      )}

      <dialog
        ref={dialog}
        className="acct-dialog"
        aria-labelledby="acct-delete-title"
        onClose={() => setToDelete(null)}
      >
        <h3 id="acct-delete-title">¿Eliminar esta dirección?</h3>
        {toDelete && <p>{describe(toDelete)}</p>}
        <div className="acct-actions">
          <button type="button" className="btn btn-primary" onClick={() => void confirmDelete()}>
            Sí, eliminar
          </button>
          <button type="button" className="btn btn-outline" onClick={() => setToDelete(null)}>
            Cancelar
          </button>
        </div>
      </dialog>
    </>
  );
}
