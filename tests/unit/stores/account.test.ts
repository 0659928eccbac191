import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from '../../support/fake-supabase.ts';
import { ACCOUNT_ADDRESS_MESSAGES as ADDRESS_MESSAGES, ACCOUNT_PROFILE_MESSAGES as PROFILE_MESSAGES } from '~/i18n/account.ts';

let fake = fakeSupabase();
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => fake.client,
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const account = await import('~/stores/account.ts');
const { $toasts, dismissToast } = await import('~/stores/toast.ts');
const { $session } = await import('~/stores/session.ts');

const address = {
  id: 'a1',
  user_id: 'u1',
  label: 'Casa',
  street: 'Calle 1',
  city: 'Puebla',
  state: 'Puebla',
  zip: '72000',
  country: 'México',
  is_default: true,
  created_at: '2026-01-01T00:00:00Z',
  exterior_number: null,
  interior_number: null,
  neighborhood: null,
  municipality: null,
  delivery_references: null,
  phone: null,
};
const profile = {
  id: 'u1',
  username: 'lucia',
  name: 'Lucía',
  lastname: 'Pérez',
  phone: '5512345678',
  is_admin: false,
  created_at: '2026-01-01T00:00:00Z',
  stripe_customer_id: null,
};
const fields = { label: 'Oficina', street: 'Av. Reforma 10', city: 'CDMX', state: 'CDMX', zip: '06600', country: 'México', is_default: false };

function toastTitles(): string[] {
  return $toasts.get().map((toast) => toast.title);
}

beforeEach(() => {
  fake = fakeSupabase();
  for (const toast of $toasts.get()) dismissToast(toast.id);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe('reads into the account stores', () => {
  it('startAddresses shows loading, then the list', async () => {
    fake = fakeSupabase({ addresses: [{ data: [address], error: null }] });
    account.startAddresses('u1');
    expect(account.$addresses.get()).toEqual({ loading: true, failed: false, value: null });
    await vi.waitFor(() => expect(account.$addresses.get().loading).toBe(false));
    expect(account.$addresses.get()).toEqual({ loading: false, failed: false, value: [address] });
  });

  it('a failed reload keeps the list on screen and marks it failed', async () => {
    account.$addresses.set({ loading: false, failed: false, value: [address] });
    fake = fakeSupabase({ addresses: [{ data: null, error: { message: 'down' } }] });
    await account.reloadAddresses('u1');
    expect(account.$addresses.get()).toEqual({ loading: false, failed: true, value: [address] });
  });

  it('the main address is null when the user has none', async () => {
    fake = fakeSupabase({ addresses: [{ data: null, error: null }] });
    await account.reloadMainAddress('u1');
    expect(account.$mainAddress.get()).toEqual({ loading: false, failed: false, value: null });
  });
});

describe('address actions', () => {
  it("the user's first address is always the default", async () => {
    account.$addresses.set({ loading: false, failed: false, value: [] });
    fake = fakeSupabase({
      addresses: [
        { data: address, error: null },
        { data: [address], error: null },
      ],
    });
    expect(await account.addAddress('u1', fields)).toBe(true);
    const insert = fake.calls[0]!.steps.find((step) => step.method === 'insert');
    expect(insert?.args[0]).toMatchObject({ user_id: 'u1', is_default: true, street: 'Av. Reforma 10' });
    expect(toastTitles()).toEqual([ADDRESS_MESSAGES.saved]);
    expect(account.$addresses.get().value).toEqual([address]);
  });

  it('tells the form the address is saved with its toast, before the list is read again', async () => {
    account.$addresses.set({ loading: false, failed: false, value: [] });
    fake = fakeSupabase({
      addresses: [
        { data: address, error: null },
        { data: [address], error: null },
      ],
    });
    const seen: Array<{ toasts: string[]; requests: number; list: unknown }> = [];
    const saved = await account.addAddress('u1', fields, () => {
      seen.push({ toasts: toastTitles(), requests: fake.calls.length, list: account.$addresses.get().value });
    });
    expect(saved).toBe(true);
    expect(seen).toEqual([{ toasts: [ADDRESS_MESSAGES.saved], requests: 1, list: [] }]);
    expect(fake.calls).toHaveLength(2);
    expect(account.$addresses.get().value).toEqual([address]);
  });

  it('a refused insert never tells the form it was saved', async () => {
    account.$addresses.set({ loading: false, failed: false, value: [address] });
    fake = fakeSupabase({ addresses: [{ data: null, error: { message: 'denied' } }] });
    const onSaved = vi.fn();
    expect(await account.addAddress('u1', fields, onSaved)).toBe(false);
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('a refused insert says so and reads nothing again', async () => {
    account.$addresses.set({ loading: false, failed: false, value: [address] });
    fake = fakeSupabase({ addresses: [{ data: null, error: { message: 'denied' } }] });
    expect(await account.addAddress('u1', fields)).toBe(false);
    expect(toastTitles()).toEqual([ADDRESS_MESSAGES.saveFailed]);
    expect(fake.calls).toHaveLength(1);
  });

  it('an edit asks to become default only for an address that is not already', async () => {
    fake = fakeSupabase({
      addresses: [
        { data: address, error: null },
        { data: [address], error: null },
      ],
    });
    await account.editAddress(address, { ...fields, is_default: true });
    const update = fake.calls[0]!.steps.find((step) => step.method === 'update');
    expect(update?.args[0]).not.toHaveProperty('is_default');
    expect(toastTitles()).toEqual([ADDRESS_MESSAGES.updated]);
  });

  it("deleting the user's only address shows the database's refusal", async () => {
    fake = fakeSupabase({ addresses: [{ data: null, error: { message: 'Debes tener al menos una dirección', details: 'last_address' } }] });
    await account.removeAddress(address);
    expect(toastTitles()).toEqual(['Debes tener al menos una dirección']);
  });

  it('making an address default goes through set_default_address', async () => {
    fake = fakeSupabase({ 'rpc:set_default_address': [{ data: null, error: null }], addresses: [{ data: [address], error: null }] });
    await account.makeDefaultAddress({ ...address, id: 'a2', is_default: false });
    expect(fake.calls[0]!.steps).toContainEqual({ method: 'rpc', args: [{ address_id: 'a2' }] });
    expect(toastTitles()).toEqual([ADDRESS_MESSAGES.defaultDone]);
  });
});

describe('saveProfile', () => {
  const form = account.profileForm(profile, address);

  beforeEach(() => {
    account.$mainAddress.set({ loading: false, failed: false, value: address });
    $session.set({ user: { id: 'u1' } as never, profile: { ...profile, isAdmin: false }, loading: false, error: null, lastEvent: null });
  });

  it('refuses an unchanged form without calling the backend', async () => {
    expect(await account.saveProfile(profile, form)).toEqual({ ok: false, formError: 'Sin cambios por guardar', fieldErrors: {} });
    expect(fake.calls).toHaveLength(0);
  });

  it('saves the profile and the main address, and updates the session', async () => {
    const saved = { ...profile, name: 'Lucy' };
    fake = fakeSupabase({
      profiles: [{ data: saved, error: null }],
      addresses: [{ data: address, error: null }],
    });
    expect(await account.saveProfile(profile, { ...form, name: 'Lucy' })).toEqual({ ok: true });
    expect($session.get().profile?.name).toBe('Lucy');
  });

  it('puts the profile back when the address cannot be saved (all or nothing)', async () => {
    fake = fakeSupabase({
      profiles: [
        { data: { ...profile, name: 'Lucy' }, error: null },
        { data: profile, error: null },
      ],
      addresses: [
        { data: address, error: null },
        { data: null, error: { message: 'check violation' } },
      ],
    });
    const result = await account.saveProfile(profile, { ...form, name: 'Lucy', street: 'Otra calle 5' });
    expect(result).toEqual({ ok: false, formError: PROFILE_MESSAGES.saveFailed, fieldErrors: {} });
    const updates = fake.calls.filter((call) => call.table === 'profiles').map((call) => call.steps.find((s) => s.method === 'update')?.args[0]);
    expect(updates.at(-1)).toMatchObject({ name: 'Lucía' });
    expect($session.get().profile?.name).toBe('Lucía');
  });

  it('a username the unique index refuses is reported on the field', async () => {
    fake = fakeSupabase({
      profiles: [
        { data: [], error: null },
        { data: null, error: { code: '23505', message: 'duplicate key value violates unique constraint "profiles_username_key"' } },
      ],
    });
    const result = await account.saveProfile(profile, { ...form, username: 'otra' });
    expect(result).toEqual({ ok: false, formError: 'El username ya está en uso', fieldErrors: { username: 'El username ya está en uso' } });
  });
});
