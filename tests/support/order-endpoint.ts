/**
 * The browser's order call in unit tests, answered by the shop's own handler: fetch('/api/orders')
 * runs postOrder (src/server/orders/create.ts) with a fresh sold-out gate and the database client
 * of a fakeSupabase given by the test, so the tests of the checkout exercise the same request and
 * answer the server makes. Any other fetch fails the test.
 */
import { vi } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/data/database.types.ts';
import { handle } from '~/server/http/json.ts';
import { postOrder } from '~/server/orders/create.ts';
import { createSoldOutGate } from '~/server/orders/sold-out-gate.ts';

/** Stubs fetch for /api/orders; `database()` is the client the handler calls. Returns the tokens each call carried. */
export function routeOrdersToHandler(database: () => { calls: { steps: { method: string; args: unknown[] }[] }[]; client: unknown }): string[] {
  const tokens: string[] = [];
  const gate = createSoldOutGate();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
      if (path !== '/api/orders') throw new Error(`fetch inesperado: ${path}`);
      const fake = database();
      const before = fake.calls.length;
      const answer = await handle(() => postOrder(new Request(`http://shop.test${path}`, init), { database: fake.client as SupabaseClient<Database>, gate }));
      for (const call of fake.calls.slice(before)) {
        for (const step of call.steps)
          if (step.method === 'setHeader' && step.args[0] === 'Authorization') tokens.push(String(step.args[1]).replace(/^Bearer /, ''));
      }
      return answer;
    }),
  );
  return tokens;
}
