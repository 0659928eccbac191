import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from './fake-supabase.ts';

let fake = fakeSupabase();
vi.mock('../../../src/data/supabase.ts', () => ({
  getSupabase: () => fake.client,
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const addresses = await import('../../../src/data/addresses.ts');
const profiles = await import('../../../src/data/profiles.ts');
const orders = await import('../../../src/data/orders.ts');
const account = await import('../../../src/data/account.ts');

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
    fake = fakeSupabase({ addresses: [{ data: address, error: null }, { data: { ...address, street: 'Nueva 2' }, error: null }] });
    const updated = await addresses.saveMainAddress('u1', { street: 'Nueva 2', city: 'Puebla', state: 'Puebla', zip: '72000', country: 'México' });
    expect(updated.data?.street).toBe('Nueva 2');
    expect(fake.calls[1]!.steps.some((s) => s.method === 'update')).toBe(true);

    fake = fakeSupabase({ addresses: [{ data: null, error: null }, { data: address, error: null }] });
    await addresses.saveMainAddress('u1', { street: 'Calle 1', city: 'Puebla', state: 'Puebla', zip: '72000', country: 'México' });
    expect(fake.calls[1]!.steps.find((s) => s.method === 'insert')?.args[0]).toMatchObject({ is_default: true });
  });
});

describe('profiles', () => {
  it('stores empty username and phone as null', async () => {
    fake = fakeSupabase({ profiles: [{ data: {}, error: null }] });
    await profiles.updateProfile('u1', { username: '  ', name: ' Ana ', lastname: 'García', phone: '' });
    expect(fake.calls[0]!.steps.find((s) => s.method === 'update')?.args[0]).toEqual({
      username: null,
      name: 'Ana',
      lastname: 'García',
      phone: null,
    });
  });

  it('recognises the unique username refusal', () => {
    expect(profiles.isUsernameConflict({ code: '23505', message: 'duplicate key value violates unique constraint "profiles_username_lower_key"' })).toBe(true);
    expect(profiles.isUsernameConflict({ code: '23505', message: 'duplicate key "profiles_pkey"' })).toBe(false);
    expect(profiles.isUsernameConflict(null)).toBe(false);
  });

  it('looks usernames up case-insensitively, escaping patterns, excluding the user', async () => {
    fake = fakeSupabase({ profiles: [{ data: [{ id: 'x' }], error: null }] });
    expect(await profiles.isUsernameTaken('ana_g%', 'u1')).toBe(true);
    const steps = fake.calls[0]!.steps;
    expect(steps).toContainEqual({ method: 'ilike', args: ['username', 'ana\\_g\\%'] });
    expect(steps).toContainEqual({ method: 'neq', args: ['id', 'u1'] });
    expect(await profiles.isUsernameTaken('  ')).toBe(false);
  });
});

describe('orders', () => {
  it('joins lines with their products, prices as centavos; a deleted product is null', async () => {
    fake = fakeSupabase({
      order_items: [{ data: [{ id: 'l1', quantity: 2, price: 10, product_id: 'p1' }, { id: 'l2', quantity: 1, price: '5.50', product_id: null }], error: null }],
      products: [{ data: [{ id: 'p1', name: 'Caja', image: 'products/p1.svg' }], error: null }],
    });
    const result = await orders.listOrderLines('o1');
    expect(result.data).toEqual([
      { id: 'l1', quantity: 2, priceCentavos: 1000, product_id: 'p1', product: { id: 'p1', name: 'Caja', image: 'products/p1.svg' } },
      { id: 'l2', quantity: 1, priceCentavos: 550, product_id: null, product: null },
    ]);
  });

  it('reports a failure to read the lines', async () => {
    fake = fakeSupabase({ order_items: [{ data: null, error: { message: 'x' } }] });
    expect((await orders.listOrderLines('o1')).error).toBeTruthy();
  });
});

describe('account summary', () => {
  it('counts orders, points, coupons and the last 30 days', async () => {
    fake = fakeSupabase({
      orders: [{ data: [{ id: 1 }, { id: 2 }, { id: 3 }], error: null }, { data: [{ id: 1 }], error: null }],
      rewards: [{ data: { points: 1250 }, error: null }],
      coupons: [{ data: [{ id: 'c' }], error: null }],
    });
    const now = new Date('2026-11-22T00:00:00Z');
    expect(await account.loadSummary('u1', now)).toEqual({ orders: 3, points: 1250, coupons: 1, ordersLast30Days: 1 });
    const recent = fake.calls.filter((c) => c.table === 'orders').flatMap((c) => c.steps).find((s) => s.method === 'gte');
    expect(recent?.args).toEqual(['created_at', '2026-10-23T00:00:00.000Z']);
  });

  it('throws the first failure so the panel can log it', async () => {
    fake = fakeSupabase({ rewards: [{ data: null, error: new Error('sin permiso') }] });
    await expect(account.loadSummary('u1')).rejects.toThrow('sin permiso');
  });
});
