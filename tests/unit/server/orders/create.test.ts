import { describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { fakeSupabase, type Result } from '../../../support/fake-supabase.ts';
import { apiRequest, callApi } from '../../../support/api-requests.ts';
import type { Database } from '~/data/database.types.ts';
import { postOrder } from '~/server/orders/create.ts';
import { createSoldOutGate } from '~/server/orders/sold-out-gate.ts';

const SOLD_OUT = { code: 'P0001', message: 'Agotado: ya no quedan unidades de «Caja».', details: 'out_of_stock:caja', hint: '0' };

/** The endpoint with a database answering `answers` in turn, and the tokens its calls carried. */
function endpoint(answers: Result[]) {
  const fake = fakeSupabase({ 'rpc:create_order_unless_sold_out': answers });
  const context = { database: fake.client as unknown as SupabaseClient<Database>, gate: createSoldOutGate() };
  const post = (body: unknown, token: string | null = 'tok') => callApi(() => postOrder(apiRequest('POST', '/api/orders', token, body), context));
  /** The raw answer, headers included. */
  const raw = (body: unknown) => postOrder(apiRequest('POST', '/api/orders', 'tok', body), context);
  const orderCalls = () => fake.calls.filter((call) => call.table === 'rpc:create_order_unless_sold_out');
  const asked = () => orderCalls().length;
  const tokens = () => orderCalls().flatMap((call) => call.steps.filter((step) => step.method === 'setHeader').map((step) => step.args));
  return { post, raw, tokens, fake, asked };
}

describe('POST /api/orders', () => {
  it('makes the order as the signed-in shopper from ids and quantities only', async () => {
    const { post, tokens, fake } = endpoint([{ data: 'o1', error: null }]);
    const items = [{ product_id: 'caja', quantity: 1 }];
    expect(await post({ items, coupon_code: 'MEKACAT10', price: 1, user_id: 'someone-else' })).toEqual({ status: 201, body: { orderId: 'o1' } });
    expect(tokens()).toEqual([['Authorization', 'Bearer tok']]);
    // Nothing but the cart reaches the database: no price, no user id.
    expect(fake.calls[0]!.steps).toContainEqual({ method: 'rpc', args: [{ items, coupon_code: 'MEKACAT10' }] });
  });

  it('passes a waitlist choice on, and leaves it out otherwise', async () => {
    const { post, fake } = endpoint([{ data: 'o1', error: null }]);
    await post({ items: [{ product_id: 'caja', quantity: 1 }], waitlist: true });
    expect(fake.calls[0]!.steps[0]!.args[0]).toEqual({ items: [{ product_id: 'caja', quantity: 1 }], coupon_code: null, waitlist: true });
  });

  it('refuses without a session, and a malformed cart, before asking the database', async () => {
    const { post, asked } = endpoint([{ data: 'o1', error: null }]);
    const noSession = await post({ items: [{ product_id: 'caja', quantity: 1 }] }, null);
    expect(noSession).toMatchObject({ status: 401, body: { message: 'Debes iniciar sesión para finalizar tu compra.' } });
    for (const body of [
      {},
      { items: [] },
      { items: [{ product_id: 'caja', quantity: 0 }] },
      { items: [{ product_id: 'caja', quantity: 1.5 }] },
      'no es json',
    ]) {
      const answer = await post(body);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(/\S/);
    }
    expect(asked()).toBe(0);
  });

  it('hands the database’s refusal on with its details, as 409', async () => {
    const refusal = { code: 'P0001', message: 'Stock insuficiente para «Caja» (disponible: 2).', details: 'out_of_stock:caja', hint: '2' };
    const { post } = endpoint([{ data: null, error: refusal }]);
    expect(await post({ items: [{ product_id: 'caja', quantity: 3 }] })).toEqual({
      status: 409,
      body: { error: 'out_of_stock', message: refusal.message, details: 'out_of_stock:caja', hint: '2' },
    });
  });

  it('answers a rejected session as 401 and an unexpected failure as 502, never a 500', async () => {
    const expired = endpoint([{ data: null, error: { code: 'PGRST301', message: 'JWT expired', details: null, hint: null } }]);
    const first = await expired.post({ items: [{ product_id: 'caja', quantity: 1 }] });
    expect(first).toMatchObject({ status: 401, body: { message: 'Tu sesión no es válida o expiró. Inicia sesión de nuevo.' } });
    const notSignedIn = endpoint([{ data: null, error: { code: 'P0001', message: 'x', details: 'not_authenticated' } }]);
    expect((await notSignedIn.post({ items: [{ product_id: 'caja', quantity: 1 }] })).status).toBe(401);
    const down = endpoint([{ data: null, error: { code: '08006', message: 'connection failure' } }]);
    const answer = await down.post({ items: [{ product_id: 'caja', quantity: 1 }] });
    expect(answer).toMatchObject({ status: 502, body: { message: 'Ocurrió un problema al crear tu pedido.' } });
  });

  it('tells the next shoppers a product is sold out without asking the database again', async () => {
    const { post, asked } = endpoint([{ data: null, error: SOLD_OUT }]);
    const cart = { items: [{ product_id: 'caja', quantity: 1 }] };
    const first = await post(cart);
    const second = await post(cart);
    expect(first).toEqual(second);
    expect(second).toEqual({ status: 409, body: { error: 'out_of_stock', message: SOLD_OUT.message, details: 'out_of_stock:caja', hint: '0' } });
    expect(asked()).toBe(1);
    // A shopper joining a waitlist still reaches the database.
    await post({ ...cart, waitlist: true });
    expect(asked()).toBe(2);
  });

  it('lets a proxy keep a sold-out refusal for a second, and nothing personal', async () => {
    const cart = { items: [{ product_id: 'caja', quantity: 1 }] };
    const soldOut = endpoint([{ data: null, error: SOLD_OUT }]);
    expect((await soldOut.raw(cart)).headers.get('cache-control')).toBe('public, max-age=1');
    expect((await soldOut.raw(cart)).headers.get('cache-control')).toBe('public, max-age=1');
    const limit = { code: 'P0001', message: 'Solo puedes comprar 1 unidad(es) de «Caja».', details: 'limit_exceeded:caja', hint: '0' };
    for (const answer of [
      { data: 'o1', error: null },
      { data: null, error: limit },
      { data: null, error: { ...SOLD_OUT, hint: '2' } },
    ]) {
      const res = await endpoint([answer]).raw(cart);
      expect(res.headers.get('cache-control'), JSON.stringify(answer)).toBe('no-store');
    }
  });
});
