/**
 * Reservations expire on time: the running server's sweeper (every minute) releases an abandoned
 * checkout's stock. The reservation is shortened to a few seconds by the test (the shop's is 30
 * minutes), so the order must be cancelled within 70 s, and the server must have swept in that
 * time. (Another test's create_order may release it first, as it releases every expired order;
 * tests/server/payments-late.test.ts shows the sweep alone releasing one.)
 */
import { expect, test } from './fixtures';
import { createConfirmedUser, serviceRest, stackKeys, STACK_URL } from './pages/auth';

// A product no other end-to-end test buys, so its stock is this test's alone.
const PRODUCT = 'op-boosterbox-op-03';

async function stock(): Promise<number> {
  const { body } = await serviceRest('GET', `products?id=eq.${PRODUCT}&select=stock`);
  return Number((body as Array<{ stock: number }>)[0]!.stock);
}

test('an abandoned checkout gives its units back within 70 s', async ({ baseURL }) => {
  test.setTimeout(120_000);
  const user = await createConfirmedUser('abandono');
  const { anonKey } = await stackKeys();
  const login = await fetch(`${STACK_URL}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  const token = ((await login.json()) as { access_token: string }).access_token;
  const before = await stock();
  const created = await fetch(`${STACK_URL}/rest/v1/rpc/create_order`, {
    method: 'POST',
    headers: { apikey: anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ items: [{ product_id: PRODUCT, quantity: 1 }] }),
  });
  expect(created.status).toBe(200);
  const orderId = (await created.json()) as string;
  expect(await stock()).toBe(before - 1);
  const expiresAt = Date.now() + 3000;
  const shortened = await serviceRest('PATCH', `orders?id=eq.${orderId}`, { expires_at: new Date(expiresAt).toISOString() });
  expect(shortened.status).toBe(200);
  const started = Date.now();
  await expect
    .poll(async () => ((await serviceRest('GET', `orders?id=eq.${orderId}&select=status`)).body as Array<{ status: string }>)[0]!.status, {
      timeout: 70_000,
      intervals: [1000],
    })
    .toBe('Cancelado');
  expect(Date.now() - started).toBeLessThan(70_000);
  expect(await stock()).toBe(before);
  // The server's own sweeper ran after the reservation ended, within the same 70 s.
  const { serviceRoleKey } = await stackKeys();
  await expect
    .poll(
      async () => {
        const res = await fetch(`${baseURL}/api/internal/sweep`, { headers: { authorization: `Bearer ${serviceRoleKey}` } });
        const body = (await res.json()) as { last: { at: string } | null };
        return body.last ? Date.parse(body.last.at) : 0;
      },
      { timeout: Math.max(1000, 70_000 - (Date.now() - started)), intervals: [1000] },
    )
    .toBeGreaterThan(expiresAt);
  const { body: events } = await serviceRest('GET', `order_events?order_id=eq.${orderId}&select=to_status,note&order=id`);
  expect(events).toEqual([
    { to_status: 'Pendiente', note: null },
    { to_status: 'Cancelado', note: 'La reserva expiró' },
  ]);
});
