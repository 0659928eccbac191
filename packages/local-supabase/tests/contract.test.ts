/**
 * Contract suite: every table call of the specification's section 7, made through the unmodified
 * supabase-js against the local stack with the real migrations and seed. Each test is named after
 * the call. Calls the shop deliberately replaced (orders and their items are created by
 * create_order, only the server marks an order paid) are checked to be refused.
 */
import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADDRESS_IDS, DEMO_ORDER_COUNT, DEMO_REWARD_POINTS, DEMO_SHOPPER } from '../../../scripts/seed/constants.ts';
import { startTestStack, type TestStack } from './helpers.ts';

let stack: TestStack;
let anon: SupabaseClient;
let service: SupabaseClient;
let shopper: SupabaseClient;
/** A shopper created for this suite, whose rows the write calls change. */
let fresh: SupabaseClient;
let freshId: string;

function client(key: string): SupabaseClient {
  return createClient(stack.url, key, { auth: { persistSession: false, autoRefreshToken: false } });
}

async function signedIn(email: string, password: string): Promise<SupabaseClient> {
  const c = client(stack.anonKey);
  const { error } = await c.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return c;
}

function subscribed(channel: RealtimeChannel): Promise<void> {
  return new Promise((resolve, reject) => {
    channel.subscribe((status, err) => {
      if (status === 'SUBSCRIBED') resolve();
      else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(err ?? new Error(status));
    });
  });
}

const ADDRESS = { street: 'Av. Juárez 100', city: 'Guadalajara', state: 'Jalisco', zip: '44100', country: 'México' };

beforeAll(async () => {
  stack = await startTestStack();
  anon = client(stack.anonKey);
  service = client(stack.serviceRoleKey);
  shopper = await signedIn(DEMO_SHOPPER.email, DEMO_SHOPPER.password);
  const email = `contrato-${Date.now()}@example.com`;
  const signUp = await client(stack.anonKey).auth.signUp({
    email,
    password: 'Contrato123!',
    options: { data: { username: `contrato${Date.now()}`, name: 'Carla', lastname: 'Contreras', phone: '33 1234 5678' } },
  });
  if (signUp.error || !signUp.data.user) throw signUp.error ?? new Error('sin usuario');
  freshId = signUp.data.user.id;
  fresh = await signedIn(email, 'Contrato123!');
});

afterAll(async () => {
  await stack?.stop();
});

describe('profiles', () => {
  it('select all by id (single)', async () => {
    const { data, error } = await shopper.from('profiles').select('*').eq('id', DEMO_SHOPPER.id).single();
    expect(error).toBeNull();
    expect(data).toMatchObject({ id: DEMO_SHOPPER.id, username: DEMO_SHOPPER.username, name: 'Ana', lastname: 'García', is_admin: false });
  });

  it('select id/username by username (uniqueness)', async () => {
    const own = await shopper.from('profiles').select('id, username').eq('username', DEMO_SHOPPER.username);
    expect(own.data).toEqual([{ id: DEMO_SHOPPER.id, username: DEMO_SHOPPER.username }]);
    // Another user's row is hidden by RLS, so sign-up asks username_available instead.
    const other = await fresh.from('profiles').select('id, username').eq('username', DEMO_SHOPPER.username);
    expect(other.data).toEqual([]);
    const taken = await anon.rpc('username_available', { username: DEMO_SHOPPER.username });
    expect(taken.data).toBe(false);
  });

  it('insert {id, username, name, lastname, phone, is_admin, created_at}', async () => {
    // The sign-up trigger already made the row; remove it to replay the spec's own insert.
    expect((await service.from('profiles').delete().eq('id', freshId)).error).toBeNull();
    const asAdmin = await fresh
      .from('profiles')
      .insert({ id: freshId, username: null, name: 'Carla', lastname: 'Contreras', phone: null, is_admin: true, created_at: new Date().toISOString() });
    expect(asAdmin.error).not.toBeNull();
    const ok = await fresh
      .from('profiles')
      .insert({ id: freshId, username: null, name: 'Carla', lastname: 'Contreras', phone: null, is_admin: false, created_at: new Date().toISOString() })
      .select('id, is_admin')
      .single();
    expect(ok.error).toBeNull();
    expect(ok.data).toEqual({ id: freshId, is_admin: false });
  });

  it('update username, name, lastname, phone by id', async () => {
    const username = `carla${Date.now()}`;
    const { data, error } = await fresh
      .from('profiles')
      .update({ username, name: 'Carla María', lastname: 'Contreras', phone: '+52 33 0000 0000' })
      .eq('id', freshId)
      .select('username, name, phone')
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ username, name: 'Carla María', phone: '+52 33 0000 0000' });
    // The same call aimed at someone else changes nothing.
    const other = await fresh.from('profiles').update({ name: 'Intrusa' }).eq('id', DEMO_SHOPPER.id).select('id');
    expect(other.data).toEqual([]);
  });

  it('select stripe_customer_id by id', async () => {
    const { data, error } = await shopper.from('profiles').select('stripe_customer_id').eq('id', DEMO_SHOPPER.id).single();
    expect(error).toBeNull();
    expect(data).toHaveProperty('stripe_customer_id');
  });
});

describe('addresses', () => {
  let firstId: string;
  let secondId: string;

  it('insert {label, street, city, state, zip, country, user_id, is_default} returning the row', async () => {
    const first = await fresh
      .from('addresses')
      .insert({ label: 'Casa', ...ADDRESS, user_id: freshId, is_default: false })
      .select()
      .single();
    expect(first.error).toBeNull();
    // The first address of a user is the default whatever the form said.
    expect(first.data).toMatchObject({ label: 'Casa', street: ADDRESS.street, user_id: freshId, is_default: true });
    firstId = first.data.id;
    const second = await fresh
      .from('addresses')
      .insert({ label: 'Oficina', ...ADDRESS, street: 'Calle 2 #5', user_id: freshId, is_default: false })
      .select()
      .single();
    expect(second.data).toMatchObject({ label: 'Oficina', is_default: false });
    secondId = second.data.id;
  });

  it('select all by user_id ordered by is_default desc then created_at desc', async () => {
    const { data, error } = await fresh
      .from('addresses')
      .select('*')
      .eq('user_id', freshId)
      .order('is_default', { ascending: false })
      .order('created_at', { ascending: false });
    expect(error).toBeNull();
    expect(data?.map((a) => a.id)).toEqual([firstId, secondId]);
  });

  it('select default (user_id, is_default true, single)', async () => {
    const { data } = await shopper.from('addresses').select('*').eq('user_id', DEMO_SHOPPER.id).eq('is_default', true).single();
    expect(data?.id).toBe(DEMO_ADDRESS_IDS.home);
  });

  it('update by id with form fields', async () => {
    const { data, error } = await fresh.from('addresses').update({ city: 'Zapopan', zip: '45010' }).eq('id', secondId).select('city, zip').single();
    expect(error).toBeNull();
    expect(data).toEqual({ city: 'Zapopan', zip: '45010' });
  });

  it("update is_default false for all of a user (or the user's other rows)", async () => {
    const { error } = await fresh.from('addresses').update({ is_default: false }).eq('user_id', freshId).neq('id', secondId);
    expect(error).toBeNull();
    const { data } = await fresh.from('addresses').select('id').eq('user_id', freshId).eq('is_default', true);
    expect(data).toEqual([]);
  });

  it('update is_default true by id', async () => {
    const { error } = await fresh.from('addresses').update({ is_default: true }).eq('id', secondId);
    expect(error).toBeNull();
    const { data } = await fresh.from('addresses').select('id').eq('user_id', freshId).eq('is_default', true);
    expect(data).toEqual([{ id: secondId }]);
  });

  it('upsert (conflict on id) with id, user_id, street, city, state, zip, country, is_default true', async () => {
    const { data, error } = await fresh
      .from('addresses')
      .upsert({ id: firstId, user_id: freshId, ...ADDRESS, street: 'Av. Juárez 200', is_default: true }, { onConflict: 'id' })
      .select('id, street, is_default')
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ id: firstId, street: 'Av. Juárez 200', is_default: true });
    const defaults = await fresh.from('addresses').select('id').eq('user_id', freshId).eq('is_default', true);
    expect(defaults.data).toEqual([{ id: firstId }]);
  });

  it('delete by id', async () => {
    const { error } = await fresh.from('addresses').delete().eq('id', firstId);
    expect(error).toBeNull();
    const { data } = await fresh.from('addresses').select('id, is_default').eq('user_id', freshId);
    // The remaining address was promoted to default.
    expect(data).toEqual([{ id: secondId, is_default: true }]);
    // Another user's address cannot be deleted.
    await fresh.from('addresses').delete().eq('id', DEMO_ADDRESS_IDS.office);
    const still = await service.from('addresses').select('id').eq('id', DEMO_ADDRESS_IDS.office);
    expect(still.data).toHaveLength(1);
  });
});

describe('orders and order_items', () => {
  let orderId: string;

  it('select by user_id ordered by created_at desc', async () => {
    const { data, error } = await shopper.from('orders').select('*').eq('user_id', DEMO_SHOPPER.id).order('created_at', { ascending: false });
    expect(error).toBeNull();
    expect(data).toHaveLength(DEMO_ORDER_COUNT);
    const times = data!.map((o) => Date.parse(o.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('select id, created_at, total by user_id', async () => {
    const { data } = await shopper.from('orders').select('id, created_at, total').eq('user_id', DEMO_SHOPPER.id);
    expect(data).toHaveLength(DEMO_ORDER_COUNT);
    expect(Object.keys(data![0]).sort()).toEqual(['created_at', 'id', 'total']);
    expect(typeof data![0].total).toBe('number');
  });

  it('select id where created_at within last 30 days', async () => {
    const since = new Date(Date.now() - 30 * 24 * 3600 * 1000).toISOString();
    const { data, error } = await shopper.from('orders').select('id').eq('user_id', DEMO_SHOPPER.id).gte('created_at', since);
    expect(error).toBeNull();
    const all = await service.from('orders').select('id, created_at').eq('user_id', DEMO_SHOPPER.id);
    const expected = all.data!.filter((o) => Date.parse(o.created_at) >= Date.parse(since)).length;
    expect(data).toHaveLength(expected);
  });

  it('insert {user_id, total, status, created_at} returning id — replaced by create_order', async () => {
    const forged = await fresh.from('orders').insert({ user_id: freshId, total: 1, status: 'Pagado', created_at: new Date().toISOString() }).select('id');
    expect(forged.error).not.toBeNull();
    const { data: product } = await anon
      .from('products')
      .select('id, price')
      .gt('stock', 0)
      .eq('available', true)
      // A sealed product: a single card is bought by offer (create_order refuses it without one).
      .not('product_type_id', 'like', '%single-card')
      .order('price')
      .limit(1)
      .single();
    const created = await fresh.rpc('create_order', { items: [{ product_id: product!.id, quantity: 1 }], coupon_code: null });
    expect(created.error).toBeNull();
    orderId = created.data as string;
    const { data: order } = await fresh.from('orders').select('status, subtotal').eq('id', orderId).single();
    expect(order).toEqual({ status: 'Pendiente', subtotal: product!.price });
  });

  it('insert list {order_id, product_id, quantity, price} — refused: create_order writes the items', async () => {
    const { error } = await fresh.from('order_items').insert([{ order_id: orderId, product_id: 'pk-boosterbox-journey-together', quantity: 1, price: 0.01 }]);
    expect(error).not.toBeNull();
  });

  it('update shipping_address_id by id', async () => {
    const { data: addresses } = await fresh.from('addresses').select('id').eq('user_id', freshId);
    const { error } = await fresh.from('orders').update({ shipping_address_id: addresses![0].id }).eq('id', orderId);
    expect(error).toBeNull();
    const { data } = await fresh.from('orders').select('shipping_address_id').eq('id', orderId).single();
    expect(data?.shipping_address_id).toBe(addresses![0].id);
  });

  it('update status and paid_at by id — only the server may', async () => {
    await fresh.from('orders').update({ status: 'Pagado', paid_at: new Date().toISOString() }).eq('id', orderId);
    const { data } = await service.from('orders').select('status, paid_at').eq('id', orderId).single();
    expect(data).toEqual({ status: 'Pendiente', paid_at: null });
  });

  it('select by id with nested order_items and products (single)', async () => {
    const { data, error } = await fresh.from('orders').select('*, order_items(*, products(*))').eq('id', orderId).single();
    expect(error).toBeNull();
    expect(data.order_items).toHaveLength(1);
    expect(data.order_items[0].products).toHaveProperty('name');
  });

  it('order_items: select id, quantity, price, product_id by order_id', async () => {
    const { data, error } = await fresh.from('order_items').select('id, quantity, price, product_id').eq('order_id', orderId);
    expect(error).toBeNull();
    expect(data).toHaveLength(1);
    expect(data![0].quantity).toBe(1);
    // Someone else's order lines stay hidden.
    const other = await shopper.from('order_items').select('id').eq('order_id', orderId);
    expect(other.data).toEqual([]);
  });
});

describe('catalogue, rewards and coupons', () => {
  it('products: select id, name, image where id in item product ids', async () => {
    const ids = ['pk-boosterbox-journey-together', 'no-existe'];
    const { data, error } = await anon.from('products').select('id, name, image').in('id', ids);
    expect(error).toBeNull();
    expect(data?.map((p) => p.id)).toEqual(['pk-boosterbox-journey-together']);
  });

  it('products, franchises, product_types: full-table reads', async () => {
    const [products, franchises, types] = await Promise.all([
      anon.from('products').select('*'),
      anon.from('franchises').select('*'),
      anon.from('product_types').select('*'),
    ]);
    expect(products.data!.length).toBeGreaterThanOrEqual(120);
    expect(franchises.data!.map((f) => f.id).sort()).toEqual(['one-piece', 'pokemon', 'riftbound']);
    expect(types.data!.length).toBeGreaterThanOrEqual(31);
  });

  it('expansions: all ordered by name asc, optionally filtered by franchise_id', async () => {
    const all = await anon.from('expansions').select('*').order('name', { ascending: true });
    const names = all.data!.map((e) => e.name as string);
    expect(names.length).toBeGreaterThan(8);
    const pokemon = await anon.from('expansions').select('*').eq('franchise_id', 'pokemon').order('name', { ascending: true });
    expect(pokemon.data!.every((e) => e.franchise_id === 'pokemon')).toBe(true);
    expect(pokemon.data!.map((e) => e.id)).toEqual(expect.arrayContaining(['journey-together', 'destined-rivals']));
  });

  it('rewards: select points by user_id (single)', async () => {
    const { data } = await shopper.from('rewards').select('points').eq('user_id', DEMO_SHOPPER.id).single();
    expect(data).toEqual({ points: DEMO_REWARD_POINTS });
  });

  it('coupons: select id by user_id', async () => {
    const own = await shopper.from('coupons').select('id').eq('user_id', DEMO_SHOPPER.id);
    expect(own.data!.length).toBeGreaterThan(0);
    const others = await fresh.from('coupons').select('id').eq('user_id', DEMO_SHOPPER.id);
    expect(others.data).toEqual([]);
  });
});

describe('realtime subscriptions', () => {
  it('profiles: a change to the own profile reaches its subscription', async () => {
    const events: unknown[] = [];
    const channel = fresh
      .channel(`perfil-${freshId}`)
      .on('postgres_changes', { event: '*', schema: 'public', table: 'profiles', filter: `id=eq.${freshId}` }, (p) => events.push(p));
    await subscribed(channel);
    await fresh.from('profiles').update({ lastname: 'Cambiada' }).eq('id', freshId);
    await expect.poll(() => events.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await fresh.removeChannel(channel);
  });

  it('expansions: a catalogue change reaches an anonymous subscription', async () => {
    const events: Array<{ new: { id?: string } }> = [];
    const channel = anon
      .channel('expansiones')
      .on('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'expansions' }, (p) => events.push(p as never));
    await subscribed(channel);
    await service.from('expansions').update({ name: 'Journey Together (EN)' }).eq('id', 'journey-together');
    await expect.poll(() => events.map((e) => e.new.id), { timeout: 10_000 }).toContain('journey-together');
    await anon.removeChannel(channel);
  });
});
