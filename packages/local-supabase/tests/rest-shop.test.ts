/** The REST API over the shop's real migrations and seed, as the browser uses it. */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../src/jwt.ts';
import { DEMO_ORDER_COUNT, DEMO_SHOPPER } from '../../../scripts/seed/constants.ts';
import { startTestStack, type TestStack } from './helpers.ts';

let stack: TestStack;
let anon: SupabaseClient;
let shopper: SupabaseClient;
let service: SupabaseClient;

function client(key: string, token?: string): SupabaseClient {
  return createClient(stack.url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  });
}

beforeAll(async () => {
  stack = await startTestStack();
  const now = Math.floor(Date.now() / 1000);
  const token = await signJwt(
    { sub: DEMO_SHOPPER.id, email: DEMO_SHOPPER.email, role: 'authenticated', aud: 'authenticated', iat: now, exp: now + 3600 },
    stack.jwtSecret,
  );
  anon = client(stack.anonKey);
  shopper = client(stack.anonKey, token);
  service = client(stack.serviceRoleKey);
});

afterAll(async () => {
  await stack?.stop();
});

describe('shop data through the REST API', () => {
  it('lets anyone list products, with prices as JSON numbers', async () => {
    const { data, error, count } = await anon.from('products').select('id, name, price, stock', { count: 'exact' }).order('id');
    expect(error).toBeNull();
    expect(count).toBeGreaterThan(0);
    expect(data).toHaveLength(count!);
    for (const p of data!) {
      expect(typeof p.price).toBe('number');
      expect(typeof p.stock).toBe('number');
    }
  });

  it('shows the demo shopper their orders with items and products, newest first, and nobody else', async () => {
    const { data, error, count } = await shopper
      .from('orders')
      .select('*, order_items(*, products(*))', { count: 'exact' })
      .eq('user_id', DEMO_SHOPPER.id)
      .order('created_at', { ascending: false, nullsFirst: false })
      .limit(8);
    expect(error).toBeNull();
    expect(count).toBe(DEMO_ORDER_COUNT);
    expect(data).toHaveLength(Math.min(8, DEMO_ORDER_COUNT));
    const dates = data!.map((o) => Date.parse(o.created_at as string));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    for (const order of data!) {
      expect(Array.isArray(order.order_items)).toBe(true);
      for (const item of order.order_items as Array<Record<string, unknown>>) {
        expect(item.order_id).toBe(order.id);
        if (item.product_id !== null) expect((item.products as { id: string }).id).toBe(item.product_id);
      }
    }
    // Visitors have no grant on orders at all: PostgREST's 401 for the anon role.
    const anonOrders = await anon.from('orders').select('id');
    expect(anonOrders.status).toBe(401);
    expect(anonOrders.error?.code).toBe('42501');
    const all = await service.from('orders').select('id', { count: 'exact', head: true });
    expect(all.count).toBeGreaterThanOrEqual(DEMO_ORDER_COUNT);
  });

  it('filters and sorts orders by their status, a Postgres enum, as PostgREST does', async () => {
    const all = await service.from('orders').select('id, status');
    expect(all.error).toBeNull();
    const orders = all.data as Array<{ id: string; status: string }>;
    const having = (test: (status: string) => boolean) =>
      orders
        .filter((o) => test(o.status))
        .map((o) => o.id)
        .sort();
    const ids = async (query: PromiseLike<{ data: Array<{ id: string }> | null; error: unknown }>) => {
      const { data, error } = await query;
      expect(error).toBeNull();
      return (data ?? []).map((o) => o.id).sort();
    };
    const q = () => service.from('orders').select('id');
    // The seed has an order in every status.
    expect(new Set(orders.map((o) => o.status)).size).toBe(8);
    expect(await ids(q().eq('status', 'Pagado'))).toEqual(having((s) => s === 'Pagado'));
    expect(await ids(q().neq('status', 'Pagado'))).toEqual(having((s) => s !== 'Pagado'));
    expect(await ids(q().in('status', ['Pagado', 'Enviado']))).toEqual(having((s) => s === 'Pagado' || s === 'Enviado'));
    expect(await ids(q().not('status', 'in', '(Pagado,Enviado)'))).toEqual(having((s) => s !== 'Pagado' && s !== 'Enviado'));
    expect(await ids(q().filter('status', 'eq(any)', '{Cancelado,Fallido}'))).toEqual(having((s) => s === 'Cancelado' || s === 'Fallido'));
    expect(await ids(q().filter('status', 'neq(all)', '{Cancelado,Fallido}'))).toEqual(having((s) => s !== 'Cancelado' && s !== 'Fallido'));
    expect(await ids(q().like('status', 'P%'))).toEqual(having((s) => s.startsWith('P')));
    expect(await ids(q().or('status.eq.Reembolsado,status.eq.Completado'))).toEqual(having((s) => s === 'Reembolsado' || s === 'Completado'));
    // Sorted in the enum's order (the order an order goes through them), not alphabetically.
    const sorted = await service.from('orders').select('status').order('status');
    expect(sorted.error).toBeNull();
    const seen = (sorted.data as Array<{ status: string }>).map((o) => o.status).filter((s, i, list) => list.indexOf(s) === i);
    expect(seen).toEqual(['Pendiente', 'Pagado', 'Procesando', 'Enviado', 'Completado', 'Cancelado', 'Fallido', 'Reembolsado']);
    // A status the enum does not have is PostgREST's 400 22P02.
    const unknown = await q().eq('status', 'Perdido');
    expect(unknown.status).toBe(400);
    expect(unknown.error?.code).toBe('22P02');
  });

  it('creates an order through the create_order function as the signed-in shopper only', async () => {
    const { data: product } = await anon
      .from('products')
      .select('id, price, stock')
      .gt('stock', 0)
      .eq('available', true)
      // A sealed product: a single card is bought by offer (create_order refuses it without one).
      .not('product_type_id', 'like', '%single-card')
      .order('price')
      .limit(1)
      .single();
    expect(product).not.toBeNull();
    const denied = await anon.rpc('create_order', { items: [{ product_id: product!.id, quantity: 1 }] });
    expect(denied.status).toBe(401);
    expect(denied.error?.code).toBe('42501');
    const empty = await shopper.rpc('create_order', { items: [] });
    expect(empty.status).toBe(400);
    expect(empty.error).toMatchObject({ code: 'P0001', message: 'Tu carrito está vacío.', details: 'empty_order' });
    const created = await shopper.rpc('create_order', { items: [{ product_id: product!.id, quantity: 1 }] });
    expect(created.error).toBeNull();
    expect(typeof created.data).toBe('string');
    const order = await shopper
      .from('orders')
      .select('id, status, subtotal, order_items(quantity, price)')
      .eq('id', created.data as string)
      .single();
    expect(order.error).toBeNull();
    expect(order.data).toMatchObject({
      id: created.data,
      status: 'Pendiente',
      subtotal: product!.price,
      order_items: [{ quantity: 1, price: product!.price }],
    });
  });
});
