import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import type { Address } from '~/data/addresses.ts';
import { ACCOUNT_ADDRESS_MESSAGES, ACCOUNT_ADDRESSES_TEXT } from '~/i18n/account.ts';
import { $addresses, addAddress, editAddress, makeDefaultAddress, reloadAddresses, removeAddress, startAddresses } from '~/stores/account.ts';
import { AddressForm, addressFields, describeAddress, EMPTY_ADDRESS } from '../ui/AddressForm.tsx';
import { AddressLines } from '../ui/AddressLines.tsx';
import { partsOfAddress } from '~/domain/address-copy.ts';
import { AsyncState, Loading } from '../ui/AsyncState.tsx';
import ConfirmDialog from '../ui/ConfirmDialog.tsx';
import { useLiveRows } from './useLive.ts';

/** What one address of the list is doing. */
type Busy = { id: string; deleting: boolean } | null;

/** "Mis direcciones": list (default first), add, inline edit, delete with confirmation, default. */
export default function AddressesPanel({ userId }: { userId: string }) {
  const state = useStore($addresses);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [adding, setAdding] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const [toDelete, setToDelete] = useState<Address | null>(null);

  useEffect(() => startAddresses(userId), [userId]);
  useLiveRows('addresses', userId, () => void reloadAddresses(userId));

  async function run(address: Address, action: () => Promise<unknown>, deleting = false) {
    setBusy({ id: address.id, deleting });
    await action();
    setBusy(null);
  }

  const list = state.value ?? [];
  const onlyOne = list.length === 1;

  return (
    <>
      <h2>{ACCOUNT_ADDRESSES_TEXT.title}</h2>
      <AsyncState
        state={state}
        failed={ACCOUNT_ADDRESS_MESSAGES.loadFailed}
        onRetry={() => void reloadAddresses(userId)}
        loading={<Loading text={ACCOUNT_ADDRESSES_TEXT.loading} />}
      >
        {(addresses) =>
          addresses.length === 0 ? (
            <p>{ACCOUNT_ADDRESS_MESSAGES.empty}</p>
          ) : (
            <ul className="acct-list" data-testid="address-list">
              {addresses.map((address) => (
                <AddressItem
                  key={address.id}
                  address={address}
                  editing={editingId === address.id}
                  busy={busy}
                  onlyOne={onlyOne}
                  onEdit={() => setEditingId(address.id)}
                  onCancel={() => setEditingId(null)}
                  onSave={(fields) =>
                    run(address, async () => {
                      if (await editAddress(address, fields)) setEditingId(null);
                    })
                  }
                  onMakeDefault={() => void run(address, () => makeDefaultAddress(address))}
                  onDelete={() => setToDelete(address)}
                />
              ))}
            </ul>
          )
        }
      </AsyncState>

      {state.value !== null && (
        <section className="acct-section" aria-labelledby="acct-new-address">
          <h3 id="acct-new-address">{ACCOUNT_ADDRESSES_TEXT.addTitle}</h3>
          <AddressForm
            key={formKey}
            initial={EMPTY_ADDRESS}
            title={ACCOUNT_ADDRESSES_TEXT.addTitle}
            submitLabel={ACCOUNT_ADDRESSES_TEXT.addSubmit}
            offerDefault={list.length > 0}
            busy={adding}
            onSubmit={async (fields) => {
              setAdding(true);
              // Emptied as the address is saved, with its toast, not once the list has been read
              // again: what the shopper starts typing for the next address meanwhile stays.
              const saved = await addAddress(userId, fields, () => {
                setAdding(false);
                setFormKey((k) => k + 1);
              });
              if (!saved) setAdding(false);
            }}
          />
        </section>
      )}

      <ConfirmDialog
        look="account"
        open={toDelete !== null}
        title={ACCOUNT_ADDRESSES_TEXT.confirmDelete}
        confirmLabel={ACCOUNT_ADDRESSES_TEXT.confirmYes}
        cancelLabel={ACCOUNT_ADDRESSES_TEXT.cancel}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          const address = toDelete;
          setToDelete(null);
          if (address) void run(address, () => removeAddress(address), true);
        }}
      >
        {toDelete && <p>{describeAddress(toDelete)}</p>}
      </ConfirmDialog>
    </>
  );
}

interface ItemProps {
  address: Address;
  editing: boolean;
  busy: Busy;
  onlyOne: boolean;
  onEdit: () => void;
  onCancel: () => void;
  onSave: (fields: ReturnType<typeof addressFields>) => Promise<void>;
  onMakeDefault: () => void;
  onDelete: () => void;
}

/** One address of the list: its text and actions, or its edit form. */
function AddressItem({ address, editing, busy, onlyOne, onEdit, onCancel, onSave, onMakeDefault, onDelete }: ItemProps) {
  const mine = busy?.id === address.id;
  const deleting = mine && busy.deleting;
  const state = deleting ? 'deleting' : mine ? 'saving' : editing ? 'edit' : 'view';
  return (
    <li className="acct-item" data-testid="address" data-state={state} data-default={address.is_default}>
      {editing ? (
        <AddressForm
          initial={addressFields(address)}
          title={ACCOUNT_ADDRESSES_TEXT.editTitle}
          submitLabel={ACCOUNT_ADDRESSES_TEXT.editSubmit}
          offerDefault={!address.is_default}
          busy={mine}
          onSubmit={onSave}
          onCancel={onCancel}
        />
      ) : (
        <>
          <div>
            {address.label && <strong>{address.label} </strong>}
            {address.is_default && <span className="badge badge-success">{ACCOUNT_ADDRESSES_TEXT.isDefault}</span>}
            <AddressLines className="acct-email" address={partsOfAddress(address)} />
          </div>
          <div className="acct-actions">
            <button type="button" className="btn btn-outline" disabled={busy !== null} onClick={onEdit}>
              {ACCOUNT_ADDRESSES_TEXT.edit}
            </button>
            {!address.is_default && (
              <button type="button" className="btn btn-outline" disabled={busy !== null} onClick={onMakeDefault}>
                {ACCOUNT_ADDRESSES_TEXT.makeDefault}
              </button>
            )}
            <button
              type="button"
              className="btn btn-outline"
              disabled={busy !== null || onlyOne}
              aria-describedby={onlyOne ? `only-${address.id}` : undefined}
              onClick={onDelete}
            >
              {deleting ? ACCOUNT_ADDRESSES_TEXT.deleting : ACCOUNT_ADDRESSES_TEXT.delete}
            </button>
          </div>
          {onlyOne && (
            <p className="muted" id={`only-${address.id}`}>
              {ACCOUNT_ADDRESS_MESSAGES.lastAddress}
            </p>
          )}
        </>
      )}
    </li>
  );
}
