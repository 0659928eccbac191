/**
 * The account area of the signed-in user: the quick summary, the main address, the address book
 * and the order history, each a store the panels draw, and the actions that change them (saving
 * the profile, adding, editing, deleting an address, making one default). Panels call `start…`
 * when they open (shows the loading state, then reads) and `reload…` when a live change arrives.
 */
import { atom, type WritableAtom } from 'nanostores';
import { loadSummary, type AccountSummary } from '~/data/account.ts';
import {
  createAddress,
  deleteAddress,
  getDefaultAddress,
  listAddresses,
  saveMainAddress,
  setDefaultAddress,
  updateAddress,
  type Address,
  type AddressFields,
} from '~/data/addresses.ts';
import { listOrders, type AccountOrder } from '~/data/orders.ts';
import { isUsernameConflict, isUsernameTaken, updateProfile, type Profile } from '~/data/profiles.ts';
import { profileChanged, validateProfile } from '~/domain/validation/profile.ts';
import { ACCOUNT_ADDRESS_MESSAGES, ACCOUNT_PROFILE_MESSAGES } from '~/i18n/account.ts';
import { VALIDATION_MESSAGES } from '~/i18n/validation.ts';
import { notify } from './toast.ts';
import { setProfile } from './session.ts';

/** Something read from the backend: still loading, there (value), or the read failed. */
export interface Loadable<T> {
  loading: boolean;
  failed: boolean;
  value: T | null;
}

function loading<T>(): Loadable<T> {
  return { loading: true, failed: false, value: null };
}

export const $summary = atom<Loadable<AccountSummary>>(loading());
export const $mainAddress = atom<Loadable<Address | null>>(loading());
export const $addresses = atom<Loadable<Address[]>>(loading());
export const $orders = atom<Loadable<AccountOrder[]>>(loading());

/**
 * A read into a store: a failure keeps what was shown and marks it failed (and is logged when
 * `log` is given; the panels that say so on screen do not log).
 */
async function readInto<T>(
  store: WritableAtom<Loadable<T>>,
  read: () => Promise<{ data: T | null; error: unknown }>,
  log?: (error: unknown) => void,
): Promise<void> {
  let result: { data: T | null; error: unknown };
  try {
    result = await read();
  } catch (error) {
    result = { data: null, error };
  }
  if (result.error) {
    log?.(result.error);
    store.set({ ...store.get(), loading: false, failed: true });
    return;
  }
  store.set({ loading: false, failed: false, value: result.data });
}

/** Reads the quick summary again. */
export function reloadSummary(userId: string): Promise<void> {
  return readInto(
    $summary,
    async () => ({ data: await loadSummary(userId), error: null }),
    (error) => console.error('No se pudo cargar el resumen de la cuenta', error),
  );
}

/** Reads the main (default) address again. */
export function reloadMainAddress(userId: string): Promise<void> {
  return readInto(
    $mainAddress,
    () => getDefaultAddress(userId),
    (error) => console.error('No se pudo cargar la dirección principal', error),
  );
}

/** Reads the address book again. */
export function reloadAddresses(userId: string): Promise<void> {
  return readInto($addresses, () => listAddresses(userId));
}

/** Reads the order history again. */
export function reloadOrders(userId: string): Promise<void> {
  return readInto($orders, () => listOrders(userId));
}

/** Opens the profile panel: summary and main address from scratch. */
export function startProfile(userId: string): void {
  $summary.set(loading());
  $mainAddress.set(loading());
  void reloadSummary(userId);
  void reloadMainAddress(userId);
}

/** Opens the address book from scratch. */
export function startAddresses(userId: string): void {
  $addresses.set(loading());
  void reloadAddresses(userId);
}

/** Opens the order history from scratch. */
export function startOrders(userId: string): void {
  $orders.set(loading());
  void reloadOrders(userId);
}

// Profile -----------------------------------------------------------------------------------------

/** The profile form: the profile's fields and the main address's. */
export type ProfileForm = Record<'username' | 'name' | 'lastname' | 'phone' | 'street' | 'city' | 'state' | 'zip' | 'country', string>;

/** The form filled from the stored profile and main address. */
export function profileForm(profile: Profile, address: Address | null): ProfileForm {
  return {
    username: profile.username ?? '',
    name: profile.name ?? '',
    lastname: profile.lastname ?? '',
    phone: profile.phone ?? '',
    street: address?.street ?? '',
    city: address?.city ?? '',
    state: address?.state ?? '',
    zip: address?.zip ?? '',
    country: address?.country ?? '',
  };
}

/** Outcome of saving the profile form. */
export type SaveProfileResult = { ok: true } | { ok: false; formError: string; fieldErrors: Record<string, string> };

function refused(formError: string, fieldErrors: Record<string, string> = {}): SaveProfileResult {
  return { ok: false, formError, fieldErrors };
}

/**
 * Saves the profile form, all or nothing: the form is checked with the rules the database checks;
 * should the main address still fail, the profile goes back to what it was. Database messages
 * are English and technical: the shopper reads the Spanish one.
 */
export async function saveProfile(profile: Profile, form: ProfileForm): Promise<SaveProfileResult> {
  const parsed = validateProfile(form);
  if (!parsed.ok) return refused(parsed.formError, parsed.fieldErrors);
  const address = $mainAddress.get().value;
  const previous = { username: profile.username, name: profile.name, lastname: profile.lastname, phone: profile.phone };
  if (!profileChanged({ ...previous, address }, parsed.data)) return refused(VALIDATION_MESSAGES.noChanges);
  const taken = { username: VALIDATION_MESSAGES.profileUsernameTaken };
  try {
    const wanted = parsed.data.username;
    if ((profile.username ?? '').toLowerCase() !== wanted.toLowerCase() && (await isUsernameTaken(wanted, profile.id))) {
      return refused(VALIDATION_MESSAGES.profileUsernameTaken, taken);
    }
    const saved = await updateProfile(profile.id, parsed.data);
    if (saved.error) {
      if (isUsernameConflict(saved.error)) return refused(VALIDATION_MESSAGES.profileUsernameTaken, taken);
      console.warn('profile save failed', saved.error.message);
      return refused(ACCOUNT_PROFILE_MESSAGES.saveFailed);
    }
    if (parsed.data.address) {
      const addressResult = await saveMainAddress(profile.id, parsed.data.address);
      if (addressResult.error) {
        console.warn('address save failed', addressResult.error.message);
        await updateProfile(profile.id, previous).catch(() => undefined);
        return refused(ACCOUNT_PROFILE_MESSAGES.saveFailed);
      }
      $mainAddress.set({ loading: false, failed: false, value: addressResult.data });
    }
    setProfile(saved.data);
    return { ok: true };
  } catch (error) {
    console.warn('profile save failed', error);
    return refused(ACCOUNT_PROFILE_MESSAGES.saveFailed);
  }
}

// Address book --------------------------------------------------------------------------------------

/**
 * Adds an address (the user's first is always the default); whether it was saved. `onSaved` runs
 * as it is saved, with its toast, before the list is read again: a form emptied there keeps what
 * the shopper starts typing while the list is read (the list may show the new address sooner,
 * through the realtime reload).
 */
export async function addAddress(userId: string, fields: AddressFields, onSaved?: () => void): Promise<boolean> {
  const first = ($addresses.get().value ?? []).length === 0;
  const result = await createAddress(userId, { ...fields, is_default: first || fields.is_default === true });
  if (result.error) {
    notify(ACCOUNT_ADDRESS_MESSAGES.saveFailed, 'error');
    return false;
  }
  notify(ACCOUNT_ADDRESS_MESSAGES.saved, 'success');
  onSaved?.();
  await reloadAddresses(userId);
  return true;
}

/** Saves an edited address (asking to become default only when it is not already); whether it was saved. */
export async function editAddress(address: Address, fields: AddressFields): Promise<boolean> {
  const result = await updateAddress(address.id, { ...fields, is_default: !address.is_default && fields.is_default === true });
  if (result.error) {
    notify(ACCOUNT_ADDRESS_MESSAGES.updateFailed, 'error');
    return false;
  }
  notify(ACCOUNT_ADDRESS_MESSAGES.updated, 'success');
  await reloadAddresses(address.user_id);
  return true;
}

/** Makes an address the default. */
export async function makeDefaultAddress(address: Address): Promise<void> {
  const { error } = await setDefaultAddress(address.id);
  if (error) {
    notify(ACCOUNT_ADDRESS_MESSAGES.defaultFailed, 'error');
    return;
  }
  notify(ACCOUNT_ADDRESS_MESSAGES.defaultDone, 'success');
  await reloadAddresses(address.user_id);
}

/** Deletes an address; the database refuses the user's only one. */
export async function removeAddress(address: Address): Promise<void> {
  const { error, lastAddress } = await deleteAddress(address.id);
  if (error) {
    notify(lastAddress ? ACCOUNT_ADDRESS_MESSAGES.lastAddress : ACCOUNT_ADDRESS_MESSAGES.deleteFailed, 'error');
    return;
  }
  notify(ACCOUNT_ADDRESS_MESSAGES.deleted, 'success');
  await reloadAddresses(address.user_id);
}
