import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from '../../support/fake-supabase.ts';

let fake = fakeSupabase();
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => fake.client,
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const addresses = await import('~/data/addresses.ts');

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
};

beforeEach(() => {
  fake = fakeSupabase();
});

describe('addresses', () => {
  it('lists default first, then newest', async () => {
    fake = fakeSupabase({ addresses: [{ data: [address], error: null }] });
    expect(await addresses.listAddresses('u1')).toEqual({ data: [address], error: null });
    const steps = fake.calls[0]!.steps;
    expect(steps).toContainEqual({ method: 'eq', args: ['user_id', 'u1'] });
    expect(steps.filter((s) => s.method === 'order').map((s) => s.args)).toEqual([
      ['is_default', { ascending: false }],
      ['created_at', { ascending: false }],
    ]);
  });

  it('creates with trimmed fields and an empty label as null', async () => {
    fake = fakeSupabase({ addresses: [{ data: address, error: null }] });
    await addresses.createAddress('u1', { label: '  ', street: ' Calle 1 ', city: 'Puebla', state: 'Puebla', zip: '72000', country: 'México' });
    const insert = fake.calls[0]!.steps.find((s) => s.method === 'insert')!;
    expect(insert.args[0]).toEqual({
      label: null,
      street: 'Calle 1',
      city: 'Puebla',
      state: 'Puebla',
      zip: '72000',
      country: 'México',
      user_id: 'u1',
      is_default: false,
    });
  });

  it('tells the database refusal of deleting the only address apart from other failures', async () => {
    fake = fakeSupabase({ addresses: [{ data: null, error: { message: 'Debes tener al menos una dirección', details: 'last_address' } }] });
    expect(await addresses.deleteAddress('a1')).toMatchObject({ lastAddress: true });
    fake = fakeSupabase({ addresses: [{ data: null, error: { message: 'boom' } }] });
    expect(await addresses.deleteAddress('a1')).toMatchObject({ lastAddress: false });
    fake = fakeSupabase({ addresses: [{ data: null, error: null }] });
    expect(await addresses.deleteAddress('a1')).toEqual({ error: null, lastAddress: false });
  });

  it('sets the default through the RPC', async () => {
    fake = fakeSupabase({ 'rpc:set_default_address': [{ data: null, error: null }] });
    expect(await addresses.setDefaultAddress('a2')).toEqual({ error: null });
    expect(fake.calls[0]!.steps).toContainEqual({ method: 'rpc', args: [{ address_id: 'a2' }] });
  });

  it('saves the main address over the default one, or creates the first', async () => {
    fake = fakeSupabase({
      addresses: [
        { data: address, error: null },
        { data: { ...address, street: 'Nueva 2' }, error: null },
      ],
    });
    const updated = await addresses.saveMainAddress('u1', { street: 'Nueva 2', city: 'Puebla', state: 'Puebla', zip: '72000', country: 'México' });
    expect(updated.data?.street).toBe('Nueva 2');
    expect(fake.calls[1]!.steps.some((s) => s.method === 'update')).toBe(true);

    fake = fakeSupabase({
      addresses: [
        { data: null, error: null },
        { data: address, error: null },
      ],
    });
    await addresses.saveMainAddress('u1', { street: 'Calle 1', city: 'Puebla', state: 'Puebla', zip: '72000', country: 'México' });
    expect(fake.calls[1]!.steps.find((s) => s.method === 'insert')?.args[0]).toMatchObject({ is_default: true });
  });
});
