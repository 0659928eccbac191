/**
 * Step 2: the shopper's saved addresses as a radio list (default preselected, else the first),
 * 'Usar esta dirección', and the 'Agregar nueva dirección' form, which opens by itself and focuses
 * the street when there are no addresses yet.
 */
import { useCallback, useEffect, useId, useState } from 'react';
import { createAddress, listAddresses, updateAddress, type Address } from '~/data/addresses.ts';
import { CHECKOUT_SHIPPING_TEXT } from '~/i18n/checkout.ts';
import { COMMON_TEXT } from '~/i18n/common.ts';
import { VALIDATION_MESSAGES } from '~/i18n/validation.ts';
import { needsMexicanParts, validateAddress } from '~/domain/validation/address.ts';
import { partsOfAddress } from '~/domain/address-copy.ts';
import { CHECKOUT_ADDRESS_COMPLETE_TEXT } from '~/i18n/addresses.ts';
import { AddressForm, addressFields, EMPTY_ADDRESS, type AddressFormFields } from '../ui/AddressForm.tsx';
import { AddressLines } from '../ui/AddressLines.tsx';

/** Delay before focusing the street field of a form that opened by itself (spec: 50 ms). */
export const ADDRESS_FOCUS_DELAY_MS = 50;

interface Props {
  userId: string;
  /** The order's current address, preselected when present. */
  selectedId: string | null;
  busy: boolean;
  error: string | null;
  /**
   * The server's message when a payment refused the order's address (`selectedId`) as
   * incomplete: that address opens for its missing parts, with the message above its form.
   */
  refused?: string | null;
  onUse(addressId: string): void;
}

/** The shipping step. */
export default function ShippingStep({ userId, selectedId, busy, error, refused = null, onUse }: Props) {
  const [addresses, setAddresses] = useState<Address[] | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [choice, setChoice] = useState<string | null>(selectedId);
  const [formOpen, setFormOpen] = useState(false);
  const [focusStreet, setFocusStreet] = useState(false);
  const [saving, setSaving] = useState(false);
  const [selectMessage, setSelectMessage] = useState('');
  const [completing, setCompleting] = useState<Address | null>(null);
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
      setFocusStreet(true);
      return;
    }
    setChoice((current) => {
      if (current && result.data.some((a) => a.id === current)) return current;
      return (result.data.find((a) => a.is_default) ?? result.data[0])!.id;
    });
  }, [userId]);

  // Once per user: `load` changes only with the user.
  useEffect(() => void load(), [load]);
  const refusedMessage = useOpenRefused(addresses, selectedId, refused, setCompleting);

  function use() {
    const chosen = addresses?.find((a) => a.id === choice);
    setSelectMessage(chosen ? '' : VALIDATION_MESSAGES.selectAddress);
    // An address saved before the Mexican parts were asked is completed before the purchase.
    const incomplete = chosen !== undefined && needsMexicanParts(chosen);
    setCompleting(incomplete ? chosen : null);
    if (incomplete) setFormOpen(false);
    else if (chosen) onUse(chosen.id);
  }

  /** Saves a valid new address and selects it; resolves to the form's error when it fails. */
  async function save(fields: AddressFormFields): Promise<string | undefined> {
    const result = validateAddress({ ...fields, is_default: fields.is_default || (addresses?.length ?? 0) === 0 });
    if (!result.ok) return result.formError;
    setSaving(true);
    const created = await createAddress(userId, result.data);
    setSaving(false);
    if (created.error) return CHECKOUT_SHIPPING_TEXT.saveFailed;
    const list = await listAddresses(userId);
    setAddresses(list.error ? [...(addresses ?? []), created.data] : list.data);
    setChoice(created.data.id);
    setFormOpen(false);
    setFocusStreet(false);
    return undefined;
  }

  return (
    <section className="checkout-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{CHECKOUT_SHIPPING_TEXT.title}</h2>
      {loadError && (
        <div className="alert alert-error" role="alert">
          <p>{CHECKOUT_SHIPPING_TEXT.loadFailed}</p>
          <button type="button" className="btn btn-outline" onClick={() => void load()}>
            {COMMON_TEXT.retry}
          </button>
        </div>
      )}
      {addresses === null && !loadError && <p role="status">{CHECKOUT_SHIPPING_TEXT.loading}</p>}
      {addresses && addresses.length > 0 && <SavedAddresses name={`${id}-address`} addresses={addresses} choice={choice} onChoose={setChoice} />}
      {(selectMessage || error || refusedMessage) && (
        <p className="field-error" role="alert">
          {selectMessage || error || refusedMessage}
        </p>
      )}
      {addresses && addresses.length > 0 && !completing && (
        <button type="button" className="btn btn-primary" onClick={use} disabled={busy} aria-busy={busy}>
          {CHECKOUT_SHIPPING_TEXT.use}
        </button>
      )}
      {completing && (
        <CompleteAddress
          key={completing.id}
          address={completing}
          busy={busy}
          onSaved={(updated) => {
            setAddresses((list) => (list ?? []).map((a) => (a.id === updated.id ? updated : a)));
            setCompleting(null);
            onUse(updated.id);
          }}
          onCancel={() => setCompleting(null)}
        />
      )}

      <div className="new-address">
        <button
          type="button"
          className="btn btn-outline"
          aria-expanded={formOpen}
          aria-controls={`${id}-form`}
          onClick={() => {
            setFormOpen((o) => !o);
            setFocusStreet(false);
          }}
        >
          {CHECKOUT_SHIPPING_TEXT.add}
        </button>
        {formOpen && (
          <AddressForm
            id={`${id}-form`}
            look="checkout"
            initial={EMPTY_ADDRESS}
            title={CHECKOUT_SHIPPING_TEXT.formTitle}
            submitLabel={CHECKOUT_SHIPPING_TEXT.save}
            streetLabel={CHECKOUT_SHIPPING_TEXT.street}
            labelPlaceholder={CHECKOUT_SHIPPING_TEXT.labelPlaceholder}
            offerDefault={(addresses?.length ?? 0) > 0}
            focusStreetAfterMs={focusStreet ? ADDRESS_FOCUS_DELAY_MS : undefined}
            busy={saving}
            onSubmit={save}
          />
        )}
      </div>
    </section>
  );
}

/**
 * The address a payment refused opens for its missing parts as soon as the list is known, once
 * per refusal (later changes of the list keep what the shopper is doing). Answers the refusal's
 * message once that address is known.
 */
function useOpenRefused(addresses: Address[] | null, selectedId: string | null, refused: string | null, open: (address: Address) => void): string | null {
  const address = refused ? (addresses?.find((a) => a.id === selectedId) ?? null) : null;
  useEffect(() => {
    if (address) open(address);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the refused address's id and the refusal
  }, [address?.id, refused]);
  return address ? refused : null;
}

/**
 * The chosen address's form, to add the parts a Mexican delivery needs before it is used; it opens
 * with the missing parts marked with the form's own messages.
 */
function CompleteAddress({ address, busy, onSaved, onCancel }: { address: Address; busy: boolean; onSaved: (updated: Address) => void; onCancel: () => void }) {
  const [saving, setSaving] = useState(false);

  async function complete(fields: AddressFormFields): Promise<string | undefined> {
    const result = validateAddress({ ...fields, is_default: false });
    if (!result.ok) return result.formError;
    setSaving(true);
    const updated = await updateAddress(address.id, result.data);
    setSaving(false);
    if (updated.error) return CHECKOUT_SHIPPING_TEXT.saveFailed;
    onSaved(updated.data);
    return undefined;
  }

  return (
    <div className="complete-address">
      <h3>{CHECKOUT_ADDRESS_COMPLETE_TEXT.title}</h3>
      <p>{CHECKOUT_ADDRESS_COMPLETE_TEXT.intro}</p>
      <AddressForm
        look="checkout"
        initial={addressFields(address)}
        title={CHECKOUT_ADDRESS_COMPLETE_TEXT.title}
        submitLabel={CHECKOUT_ADDRESS_COMPLETE_TEXT.save}
        offerDefault={false}
        focusStreetAfterMs={ADDRESS_FOCUS_DELAY_MS}
        showGapsOnOpen
        busy={saving || busy}
        onSubmit={complete}
        onCancel={onCancel}
      />
    </div>
  );
}

/** The saved addresses as radio buttons. */
function SavedAddresses({ name, addresses, choice, onChoose }: { name: string; addresses: Address[]; choice: string | null; onChoose: (id: string) => void }) {
  return (
    <fieldset className="address-list">
      <legend>{CHECKOUT_SHIPPING_TEXT.saved}</legend>
      {addresses.map((a) => (
        <label key={a.id} className={`address-option${choice === a.id ? ' is-selected' : ''}`}>
          <input type="radio" name={name} value={a.id} checked={choice === a.id} onChange={() => onChoose(a.id)} />
          <span>
            {a.label && <strong>{a.label} </strong>}
            {a.is_default && <span className="badge">{CHECKOUT_SHIPPING_TEXT.default}</span>}
            <br />
            <AddressLines inline address={partsOfAddress(a)} />
            {needsMexicanParts(a) && (
              <>
                <br />
                <em>{CHECKOUT_ADDRESS_COMPLETE_TEXT.incomplete}</em>
              </>
            )}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
