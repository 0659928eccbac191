import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../src/jwt.ts';
import { FIXTURE_SQL, ORDER_A1, ORDER_A2, ORDER_B1, startTestStack, USER_A, USER_B, type TestStack } from './helpers.ts';

let stack: TestStack;
let service: SupabaseClient;
let anon: SupabaseClient;
let userA: SupabaseClient;
let userB: SupabaseClient;
let tokenA: string;

function client(key: string, token?: string): SupabaseClient {
  return createClient(stack.url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  });
}

async function userToken(sub: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return signJwt({ sub, role: 'authenticated', aud: 'authenticated', iat: now, exp: now + 3600 }, stack.jwtSecret);
}

beforeAll(async () => {
  stack = await startTestStack({ migrate: false, setupSql: FIXTURE_SQL });
  service = client(stack.serviceRoleKey);
  anon = client(stack.anonKey);
  tokenA = await userToken(USER_A);
  userA = client(stack.anonKey, tokenA);
  userB = client(stack.anonKey, await userToken(USER_B));
});

afterAll(async () => {
  await stack?.stop();
});

describe('select', () => {
  it('returns every column with PostgREST types (numeric as number, timestamptz as ISO text, arrays, jsonb)', async () => {
    const { data, error, status } = await anon.from('fx_products').select('*').eq('id', 1);
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toEqual([
      {
        id: 1,
        name: 'Caja de sobres Rivales Destinados',
        price: 2899,
        stock: 5,
        tags: ['pokemon', 'sellado'],
        details: { idioma: 'es', cartas: 36 },
        created_at: '2026-01-15T10:00:00+00:00',
      },
    ]);
  });

  it('selects a column list with aliases, casts and JSON paths', async () => {
    const { data, error } = await anon.from('fx_products').select('id, nombre:name, price::text, idioma:details->>idioma').eq('id', 2);
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 2, nombre: 'Sobre Viaje Juntos', price: '99.50', idioma: 'en' }]);
  });

  it('rejects an unknown column with 400 and 42703', async () => {
    const { error, status } = await anon.from('fx_products').select('id, nope');
    expect(status).toBe(400);
    expect(error?.code).toBe('42703');
  });

  it('answers 404 PGRST205 for an unknown table', async () => {
    const { error, status } = await anon.from('fx_nothing').select('*');
    expect(status).toBe(404);
    expect(error?.code).toBe('PGRST205');
  });
});

describe('embedding', () => {
  it('embeds orders → order_items (array) → products (object)', async () => {
    const { data, error } = await service
      .from('fx_orders')
      .select('id, total, fx_order_items(quantity, fx_products(name, price))')
      .eq('id', ORDER_A1)
      .order('id', { referencedTable: 'fx_order_items' });
    expect(error).toBeNull();
    expect(data).toEqual([
      {
        id: ORDER_A1,
        total: 3098,
        fx_order_items: [
          { quantity: 1, fx_products: { name: 'Caja de sobres Rivales Destinados', price: 2899 } },
          { quantity: 2, fx_products: { name: 'Sobre Viaje Juntos', price: 99.5 } },
        ],
      },
    ]);
  });

  it('embeds to-one from the child side with an alias and * inside', async () => {
    const { data, error } = await service.from('fx_order_items').select('id, quantity, producto:fx_products(*)').eq('id', 4).single();
    expect(error).toBeNull();
    expect(data).toMatchObject({ id: 4, quantity: 1, producto: { id: 3, name: 'Mazo inicial One Piece', price: 450 } });
  });

  it('gives [] for a to-many embed without rows', async () => {
    const { data: created } = await service.from('fx_orders').insert({ user_id: USER_B }).select('id').single();
    const { data, error } = await service.from('fx_orders').select('id, fx_order_items(*)').eq('id', created!.id).single();
    expect(error).toBeNull();
    expect(data).toEqual({ id: created!.id, fx_order_items: [] });
    await service.from('fx_orders').delete().eq('id', created!.id);
  });

  it('filters embedded rows without filtering parents, and !inner filters parents', async () => {
    const loose = await service.from('fx_orders').select('id, fx_order_items(product_id)').eq('fx_order_items.product_id', 3).order('created_at');
    expect(loose.error).toBeNull();
    expect(loose.data).toEqual([
      { id: ORDER_A1, fx_order_items: [] },
      { id: ORDER_B1, fx_order_items: [{ product_id: 3 }] },
      { id: ORDER_A2, fx_order_items: [] },
    ]);
    const inner = await service.from('fx_orders').select('id, fx_order_items!inner(product_id)').eq('fx_order_items.product_id', 3);
    expect(inner.error).toBeNull();
    expect(inner.data).toEqual([{ id: ORDER_B1, fx_order_items: [{ product_id: 3 }] }]);
  });

  it('applies limit on an embedded resource', async () => {
    const { data, error } = await service
      .from('fx_orders')
      .select('id, fx_order_items(id)')
      .eq('id', ORDER_A1)
      .order('id', { referencedTable: 'fx_order_items', ascending: false })
      .limit(1, { referencedTable: 'fx_order_items' });
    expect(error).toBeNull();
    expect(data).toEqual([{ id: ORDER_A1, fx_order_items: [{ id: 2 }] }]);
  });

  it('answers 400 PGRST200 for an unknown relationship', async () => {
    const { error, status } = await service.from('fx_products').select('*, fx_notes(*)');
    expect(status).toBe(400);
    expect(error?.code).toBe('PGRST200');
  });
});

describe('filters', () => {
  const ids = async (q: PromiseLike<{ data: Array<{ id: number }> | null; error: unknown }>) => {
    const { data, error } = await q;
    expect(error).toBeNull();
    return (data ?? []).map((r) => r.id).sort((a, b) => a - b);
  };
  const p = () => anon.from('fx_products').select('id');

  it('eq, neq, gt, gte, lt, lte', async () => {
    expect(await ids(p().eq('price', 450))).toEqual([3]);
    expect(await ids(p().neq('price', 450))).toEqual([1, 2, 4, 5]);
    expect(await ids(p().gt('price', 120))).toEqual([1, 3]);
    expect(await ids(p().gte('price', 120))).toEqual([1, 3, 5]);
    expect(await ids(p().lt('price', 99.5))).toEqual([4]);
    expect(await ids(p().lte('price', 99.5))).toEqual([2, 4]);
  });

  it('in, including quoted values with commas and parentheses', async () => {
    expect(await ids(p().in('id', [1, 3, 99]))).toEqual([1, 3]);
    expect(await ids(p().in('name', ['Sobre Viaje Juntos', 'a,b (c)']))).toEqual([2]);
    expect(await ids(p().in('id', []))).toEqual([]);
  });

  it('eq(any) and gt(all) compare each value with the column as its own type', async () => {
    expect(await ids(p().filter('id', 'eq(any)', '{1,3,99}'))).toEqual([1, 3]);
    expect(await ids(p().filter('price', 'gt(all)', '{100,400}'))).toEqual([1, 3]);
    expect(await ids(p().filter('name', 'like(any)', '{Sobre*,Mazo*}'))).toEqual([2, 3]);
  });

  it('is null / not null / true / false', async () => {
    expect(await ids(p().is('stock', null))).toEqual([2]);
    expect(await ids(p().not('stock', 'is', null))).toEqual([1, 3, 4, 5]);
    const bools = await service.from('fx_products').select('id').is('details', null);
    expect(bools.data?.map((r) => r.id).sort()).toEqual([3, 5]);
    const viaRpc = await anon.rpc('fx_cheap', { max_price: 100 }).select('id').is('stock', null);
    expect(viaRpc.data).toEqual([{ id: 2 }]);
  });

  it('like and ilike with % and * wildcards, a literal % in the value', async () => {
    expect(await ids(p().like('name', '%One Piece'))).toEqual([3]);
    expect(await ids(p().like('name', 'sobre*'))).toEqual([]);
    expect(await ids(p().ilike('name', 'sobre*'))).toEqual([2]);
    expect(await ids(p().ilike('name', '%100\\%%'))).toEqual([5]);
  });

  it('not.<op>', async () => {
    expect(await ids(p().not('name', 'ilike', '%sobre%'))).toEqual([3, 4, 5]);
    expect(await ids(p().not('id', 'in', '(1,2,3)'))).toEqual([4, 5]);
  });

  it('or and nested and, on a top-level and an embedded resource', async () => {
    expect(await ids(p().or('stock.is.null,price.gt.1000'))).toEqual([1, 2]);
    expect(await ids(p().or('id.eq.5,and(price.lt.100,stock.gte.1)'))).toEqual([4, 5]);
    expect(await ids(p().or('name.eq."Mazo inicial One Piece",id.in.(1,2)'))).toEqual([1, 2, 3]);
    const { data, error } = await service
      .from('fx_orders')
      .select('id, fx_order_items(product_id)')
      .eq('id', ORDER_A1)
      .or('product_id.eq.2,quantity.gt.5', { referencedTable: 'fx_order_items' });
    expect(error).toBeNull();
    expect(data).toEqual([{ id: ORDER_A1, fx_order_items: [{ product_id: 2 }] }]);
  });

  it('array containment and overlap', async () => {
    expect(await ids(p().contains('tags', ['pokemon', 'suelta']))).toEqual([4]);
    expect(await ids(p().overlaps('tags', ['mazo', 'sellado']))).toEqual([1, 3]);
  });

  it('a value of the wrong type is a 400 22P02, not a crash', async () => {
    const { error, status } = await anon.from('fx_products').select('id').eq('id', 'uno');
    expect(status).toBe(400);
    expect(error?.code).toBe('22P02');
  });

  it('a bad operator is a 400 PGRST100', async () => {
    const res = await fetch(`${stack.url}/rest/v1/fx_products?id=equals.1`, { headers: { apikey: stack.anonKey } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('PGRST100');
  });
});

describe('order, range, count', () => {
  it('orders by several columns with nulls first/last', async () => {
    const first = await anon.from('fx_products').select('id').order('stock', { ascending: false, nullsFirst: true }).order('id');
    expect(first.data?.map((r) => r.id)).toEqual([2, 5, 4, 1, 3]);
    const last = await anon.from('fx_products').select('id').order('stock', { ascending: true, nullsFirst: false });
    expect(last.data?.map((r) => r.id)).toEqual([3, 1, 4, 5, 2]);
  });

  it('limit, offset and range', async () => {
    const limited = await anon.from('fx_products').select('id').order('id').limit(2);
    expect(limited.data?.map((r) => r.id)).toEqual([1, 2]);
    const ranged = await anon.from('fx_products').select('id').order('id').range(1, 3);
    expect(ranged.data?.map((r) => r.id)).toEqual([2, 3, 4]);
  });

  it('count=exact gives Content-Range and 206 for a partial page, 200 for all', async () => {
    const page = await anon.from('fx_products').select('id', { count: 'exact' }).order('id').range(0, 1);
    expect(page.status).toBe(206);
    expect(page.count).toBe(5);
    const all = await anon.from('fx_products').select('id', { count: 'exact' });
    expect(all.status).toBe(200);
    expect(all.count).toBe(5);
    const raw = await fetch(`${stack.url}/rest/v1/fx_products?select=id&order=id&offset=2&limit=2`, {
      headers: { apikey: stack.anonKey, prefer: 'count=exact' },
    });
    expect(raw.headers.get('content-range')).toBe('2-3/5');
  });

  it('head with count returns no body', async () => {
    const { data, count, status } = await anon.from('fx_products').select('*', { count: 'exact', head: true }).gt('price', 100);
    expect(status).toBe(200);
    expect(count).toBe(3);
    expect(data).toBeNull();
  });

  it('honours the Range header', async () => {
    const res = await fetch(`${stack.url}/rest/v1/fx_products?select=id&order=id`, {
      headers: { apikey: stack.anonKey, range: '1-2', 'range-unit': 'items' },
    });
    expect(await res.json()).toEqual([{ id: 2 }, { id: 3 }]);
    expect(res.headers.get('content-range')).toBe('1-2/*');
  });
});

describe('single and maybeSingle', () => {
  it('single returns a bare object', async () => {
    const { data, error } = await anon.from('fx_products').select('id, name').eq('id', 4).single();
    expect(error).toBeNull();
    expect(data).toEqual({ id: 4, name: 'Carta suelta Pikachu' });
  });

  it('single with zero or many rows is 406 PGRST116', async () => {
    const none = await anon.from('fx_products').select('id').eq('id', 999).single();
    expect(none.status).toBe(406);
    expect(none.error?.code).toBe('PGRST116');
    expect(none.error?.details).toBe('The result contains 0 rows');
    const many = await anon.from('fx_products').select('id').single();
    expect(many.status).toBe(406);
    expect(many.error?.details).toBe('The result contains 5 rows');
  });

  it('maybeSingle gives null for no rows and an error for several', async () => {
    const none = await anon.from('fx_products').select('id').eq('id', 999).maybeSingle();
    expect(none.error).toBeNull();
    expect(none.data).toBeNull();
    const many = await anon.from('fx_products').select('id').maybeSingle();
    expect(many.error?.code).toBe('PGRST116');
  });
});

describe('writes', () => {
  it('inserts one row and returns it', async () => {
    const { data, error, status } = await service.from('fx_products').insert({ name: 'Nuevo 1', price: 10 }).select('name, price, stock').single();
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toEqual({ name: 'Nuevo 1', price: 10, stock: null });
  });

  it('inserts many rows (columns=) and returns them; missing keys become null', async () => {
    const { data, error } = await service
      .from('fx_products')
      .insert([
        { name: 'Nuevo 2', price: 20, stock: 1 },
        { name: 'Nuevo 3', price: 30 },
      ])
      .select('name, stock');
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: 'Nuevo 2', stock: 1 },
      { name: 'Nuevo 3', stock: null },
    ]);
  });

  it('inserts with return=minimal: 201 and no body', async () => {
    const { data, error, status } = await service.from('fx_products').insert({ name: 'Nuevo 4', price: 40 });
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toBeNull();
    const check = await service.from('fx_products').select('price').eq('name', 'Nuevo 4').single();
    expect(check.data).toEqual({ price: 40 });
  });

  it('updates with filters and returns the rows', async () => {
    const { data, error, status } = await service
      .from('fx_products')
      .update({ stock: 7 })
      .like('name', 'Nuevo%')
      .lt('price', 25)
      .select('name, stock')
      .order('name');
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toEqual([
      { name: 'Nuevo 1', stock: 7 },
      { name: 'Nuevo 2', stock: 7 },
    ]);
    const minimal = await service.from('fx_products').update({ stock: 8 }).eq('name', 'Nuevo 3');
    expect(minimal.status).toBe(204);
  });

  it('deletes with filters', async () => {
    const { data, error } = await service.from('fx_products').delete().eq('name', 'Nuevo 4').select('name');
    expect(error).toBeNull();
    expect(data).toEqual([{ name: 'Nuevo 4' }]);
    const gone = await service.from('fx_products').select('id').eq('name', 'Nuevo 4');
    expect(gone.data).toEqual([]);
  });

  it('upserts on the primary key and on on_conflict, merging or ignoring duplicates', async () => {
    const merged = await service.from('fx_products').upsert({ id: 5, name: 'Funda 100% protectora', price: 125 }).select('id, price');
    expect(merged.error).toBeNull();
    expect(merged.data).toEqual([{ id: 5, price: 125 }]);
    const byName = await service
      .from('fx_products')
      .upsert(
        [
          { name: 'Nuevo 1', price: 11 },
          { name: 'Nuevo 5', price: 55 },
        ],
        { onConflict: 'name' },
      )
      .select('name, price')
      .order('name');
    expect(byName.error).toBeNull();
    expect(byName.data).toEqual([
      { name: 'Nuevo 1', price: 11 },
      { name: 'Nuevo 5', price: 55 },
    ]);
    const ignored = await service.from('fx_products').upsert({ name: 'Nuevo 1', price: 999 }, { onConflict: 'name', ignoreDuplicates: true }).select();
    expect(ignored.error).toBeNull();
    expect(ignored.data).toEqual([]);
    const still = await service.from('fx_products').select('price').eq('name', 'Nuevo 1').single();
    expect(still.data).toEqual({ price: 11 });
  });

  it('maps constraint errors: unique 409, foreign key 409, check 400, not null 400, unknown column PGRST204', async () => {
    const dup = await service.from('fx_products').insert({ name: 'Nuevo 1', price: 1 });
    expect(dup.status).toBe(409);
    expect(dup.error?.code).toBe('23505');
    const fk = await service.from('fx_order_items').insert({ order_id: ORDER_A1, product_id: 12345, quantity: 1 });
    expect(fk.status).toBe(409);
    expect(fk.error?.code).toBe('23503');
    const check = await service.from('fx_products').insert({ name: 'Negativo', price: -1 });
    expect(check.status).toBe(400);
    expect(check.error?.code).toBe('23514');
    const nn = await service.from('fx_products').insert({ price: 1 });
    expect(nn.status).toBe(400);
    expect(nn.error?.code).toBe('23502');
    const col = await service.from('fx_products').insert({ name: 'X', price: 1, color: 'rojo' });
    expect(col.status).toBe(400);
    expect(col.error?.code).toBe('PGRST204');
  });

  it('a write with the object Accept that touches several rows is rolled back with 406', async () => {
    const res = await service.from('fx_products').update({ stock: 0 }).like('name', 'Nuevo%').select().single();
    expect(res.status).toBe(406);
    expect(res.error?.code).toBe('PGRST116');
    const after = await service.from('fx_products').select('stock').eq('name', 'Nuevo 1').single();
    expect(after.data).toEqual({ stock: 7 });
  });

  it('Prefer tx=rollback answers but keeps nothing', async () => {
    const res = await fetch(`${stack.url}/rest/v1/fx_products?select=name`, {
      method: 'POST',
      headers: {
        apikey: stack.serviceRoleKey,
        authorization: `Bearer ${stack.serviceRoleKey}`,
        'content-type': 'application/json',
        prefer: 'return=representation, tx=rollback',
      },
      body: JSON.stringify({ name: 'Fantasma', price: 1 }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual([{ name: 'Fantasma' }]);
    const check = await service.from('fx_products').select('id').eq('name', 'Fantasma');
    expect(check.data).toEqual([]);
  });

  it('a GET cannot write: a volatile function over GET is 405 25006', async () => {
    const res = await anon.rpc('fx_bump', { product: 1 }, { get: true });
    expect(res.status).toBe(405);
    expect(res.error?.code).toBe('25006');
  });
});

describe('rpc', () => {
  it('returns a scalar, using a default argument', async () => {
    expect((await anon.rpc('fx_add', { a: 2, b: 3 })).data).toBe(5);
    expect((await anon.rpc('fx_add', { a: 2 })).data).toBe(12);
    expect((await anon.rpc('fx_add', { a: 4 }, { get: true })).data).toBe(14);
  });

  it('returns a set of rows that accepts filters, order and single', async () => {
    const { data, error } = await anon.rpc('fx_cheap', { max_price: 200 }).select('id, name').gt('price', 50).lte('id', 5).order('price', { ascending: false });
    expect(error).toBeNull();
    expect(data).toEqual([
      { id: 5, name: 'Funda 100% protectora' },
      { id: 2, name: 'Sobre Viaje Juntos' },
    ]);
    const one = await anon.rpc('fx_cheap', { max_price: 16 }).select('id').gt('price', 15).single();
    expect(one.data).toEqual({ id: 4 });
  });

  it('void gives 204 and null', async () => {
    const { data, error, status } = await service.rpc('fx_touch');
    expect(error).toBeNull();
    expect(status).toBe(204);
    expect(data).toBeNull();
  });

  it('sees the caller through auth.uid()', async () => {
    expect((await anon.rpc('fx_whoami')).data).toBe('nadie');
    expect((await userA.rpc('fx_whoami')).data).toBe(USER_A);
  });

  it("hands a function the request's headers as request.headers, the caller's address appended to x-forwarded-for", async () => {
    expect((await anon.rpc('fx_header', { name: 'apikey' })).data).toBe(stack.anonKey);
    expect((await anon.rpc('fx_header', { name: 'x-forwarded-for' })).data).toBe('127.0.0.1');
    // A caller's own x-forwarded-for is kept, and the address the stack saw comes last.
    const spoofing = createClient(stack.url, stack.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      global: { headers: { 'x-forwarded-for': '203.0.113.7' } },
    });
    expect((await spoofing.rpc('fx_header', { name: 'x-forwarded-for' })).data).toBe('203.0.113.7, 127.0.0.1');
    expect((await anon.rpc('fx_header', { name: 'x-ninguno' })).data).toBeNull();
  });

  it('passes RAISE as 400 P0001 with the message, and unknown functions as 404 PGRST202', async () => {
    const raised = await anon.rpc('fx_fail', { msg: 'Sin existencias' });
    expect(raised.status).toBe(400);
    expect(raised.error).toMatchObject({ code: 'P0001', message: 'Sin existencias' });
    const unknown = await anon.rpc('fx_nope', { a: 1 });
    expect(unknown.status).toBe(404);
    expect(unknown.error?.code).toBe('PGRST202');
    const wrongArgs = await anon.rpc('fx_add', { z: 1 });
    expect(wrongArgs.status).toBe(404);
  });
});

describe('roles and row-level security', () => {
  it('anon sees no orders, each shopper only their own, the service role all', async () => {
    expect((await anon.from('fx_orders').select('id')).data).toEqual([]);
    const a = await userA.from('fx_orders').select('id, fx_order_items(product_id)').order('created_at');
    expect(a.data?.map((o) => o.id)).toEqual([ORDER_A1, ORDER_A2]);
    const b = await userB.from('fx_orders').select('id');
    expect(b.data?.map((o) => o.id)).toEqual([ORDER_B1]);
    const all = await service.from('fx_orders').select('id', { count: 'exact', head: true });
    expect(all.count).toBe(3);
  });

  it('RLS also filters embedded rows and write targets', async () => {
    const items = await userB.from('fx_order_items').select('order_id');
    expect(items.data).toEqual([{ order_id: ORDER_B1 }]);
    const del = await userB.from('fx_notes').delete().eq('body', 'nota de A').select();
    expect(del.data).toEqual([]);
    const stillThere = await service.from('fx_notes').select('body').eq('body', 'nota de A');
    expect(stillThere.data).toHaveLength(1);
  });

  it('an RLS violation is 401 for anon and 403 for a signed-in user (42501)', async () => {
    const asAnon = await anon.from('fx_notes').insert({ body: 'x', owner: USER_A });
    expect(asAnon.status).toBe(401);
    expect(asAnon.error?.code).toBe('42501');
    const forged = await userB.from('fx_notes').insert({ body: 'suplantada', owner: USER_A });
    expect(forged.status).toBe(403);
    expect(forged.error?.code).toBe('42501');
    const own = await userB.from('fx_notes').insert({ body: 'propia' }).select('owner, body').single();
    expect(own.error).toBeNull();
    expect(own.data).toEqual({ owner: USER_B, body: 'propia' });
  });

  it('a bad JWT is 401 PGRST301, an expired one 401 PGRST303', async () => {
    const forged = await signJwt({ sub: USER_A, role: 'service_role' }, 'otro-secreto-de-al-menos-32-caracteres!!');
    const res = await client(stack.anonKey, forged).from('fx_orders').select('id');
    expect(res.status).toBe(401);
    expect(res.error?.code).toBe('PGRST301');
    const past = Math.floor(Date.now() / 1000) - 7200;
    const expired = await signJwt({ sub: USER_A, role: 'authenticated', iat: past, exp: past + 60 }, stack.jwtSecret);
    const late = await client(stack.anonKey, expired).from('fx_orders').select('id');
    expect(late.status).toBe(401);
    expect(late.error?.code).toBe('PGRST303');
    const forgedExpired = await signJwt({ sub: USER_A, role: 'authenticated', iat: past, exp: past + 60 }, 'otro-secreto-de-al-menos-32-caracteres!!');
    expect((await client(stack.anonKey, forgedExpired).from('fx_orders').select('id')).error?.code).toBe('PGRST301');
    const weirdRole = await signJwt({ sub: USER_A, role: 'postgres' }, stack.jwtSecret);
    expect((await client(stack.anonKey, weirdRole).from('fx_orders').select('id')).status).toBe(401);
  });

  it('only the public schema is exposed (406 PGRST106)', async () => {
    const res = await anon.schema('auth').from('users').select('*');
    expect(res.status).toBe(406);
    expect(res.error?.code).toBe('PGRST106');
  });

  it("sends CORS headers and answers preflights for the shop's origin (never *)", async () => {
    const pre = await fetch(`${stack.url}/rest/v1/fx_products`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:4321', 'access-control-request-method': 'POST' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://localhost:4321');
    const get = await fetch(`${stack.url}/rest/v1/fx_products?select=id&limit=1`, { headers: { apikey: stack.anonKey } });
    expect(get.headers.get('access-control-expose-headers')).toContain('content-range');
  });
});
