/**
 * The browser's order call in unit tests, answered by the shop's own handler: fetch('/api/orders')
 * runs postOrder (src/server/orders/create.ts) with a fresh sold-out gate and a database client
 * given by the test (a fakeSupabase's), so the tests of the checkout exercise the same request and
 * answer the server makes. Any other fetch fails the test.
 */
import { vi } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/data/database.types.ts';
import { handle } from '~/server/http/json.ts';
import { postOrder } from '~/server/orders/create.ts';
import { createSoldOutGate } from '~/server/orders/sold-out-gate.ts';

/** Stubs fetch for /api/orders; `database()` is the client the handler acts with. Returns the tokens the handler was given. */
export function routeOrdersToHandler(database: () => unknown): string[] {
  const tokens: string[] = [];
  const gate = createSoldOutGate();
  const asUser = (token: string) => {
    tokens.push(token);
    return database() as SupabaseClient<Database>;
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
      if (path !== '/api/orders') throw new Error(`fetch inesperado: ${path}`);
      return handle(() => postOrder(new Request(`http://shop.test${path}`, init), { asUser, gate }));
    }),
  );
  return tokens;
}
