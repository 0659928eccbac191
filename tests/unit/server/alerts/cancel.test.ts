import { describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/data/database.types.ts';
import { alertByToken, postCancelAlert } from '~/server/alerts/cancel.ts';
import { handle } from '~/server/http/json.ts';

const TOKEN = '0123456789abcdef'.repeat(4);

/** A service-role client whose rpc answers from `answers` and records the calls. */
function fakeAdmin(answers: Record<string, { data: unknown; error: { message: string } | null }>) {
  const calls: Array<{ fn: string; args: unknown }> = [];
  const admin = {
    rpc: async (fn: string, args: unknown) => {
      calls.push({ fn, args });
      return answers[fn] ?? { data: null, error: { message: 'unexpected' } };
    },
  } as unknown as SupabaseClient<Database>;
  return { admin, calls };
}

const post = (body: unknown) =>
  new Request('http://tienda.mx/api/avisos/cancelar', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('POST /api/avisos/cancelar', () => {
  it('cancels the alert of a token, and says so again (not an error) the second time', async () => {
    const first = fakeAdmin({ cancel_stock_alert_by_token: { data: 'cancelled', error: null } });
    const response = await handle(() => postCancelAlert(post({ token: TOKEN }), first));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'cancelled' });
    expect(first.calls).toEqual([{ fn: 'cancel_stock_alert_by_token', args: { p_token: TOKEN } }]);

    const again = fakeAdmin({ cancel_stock_alert_by_token: { data: 'already', error: null } });
    expect(await (await handle(() => postCancelAlert(post({ token: TOKEN }), again))).json()).toEqual({ status: 'already' });
  });

  it('answers 400 in Spanish for a malformed token and never asks the database', async () => {
    for (const body of [{ token: 'abc' }, {}, { token: 12 }, { token: `${TOKEN}' or 1=1` }]) {
      const fake = fakeAdmin({});
      const response = await handle(() => postCancelAlert(post(body), fake));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'invalid_request', message: 'El enlace para cancelar el aviso no es válido.' });
      expect(fake.calls).toEqual([]);
    }
    const notJson = await handle(() => postCancelAlert(new Request('http://tienda.mx/api/avisos/cancelar', { method: 'POST', body: '{nope' }), fakeAdmin({})));
    expect(notJson.status).toBe(400);
  });

  it('answers 404 for an unknown token and 503 (not 500) when the database fails', async () => {
    const unknown = await handle(() => postCancelAlert(post({ token: TOKEN }), fakeAdmin({ cancel_stock_alert_by_token: { data: 'unknown', error: null } })));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'not_found', message: 'Este enlace no es válido o el aviso ya no existe.' });
    const down = await handle(() =>
      postCancelAlert(post({ token: TOKEN }), fakeAdmin({ cancel_stock_alert_by_token: { data: null, error: { message: 'down' } } })),
    );
    expect(down.status).toBe(503);
    expect((await down.json()).message).toBe('No pudimos cancelar el aviso. Intenta de nuevo en unos minutos.');
  });
});

describe('the cancel page’s alert', () => {
  it('reads the alert of a well-formed token only', async () => {
    const fake = fakeAdmin({
      stock_alert_by_token: { data: [{ product_id: 'p', product_name: 'Caja', offer_label: null, state: 'waiting' }], error: null },
    });
    expect(await alertByToken(fake, TOKEN)).toEqual({ productId: 'p', productName: 'Caja', offerLabel: null, state: 'waiting', kind: 'restock' });
    expect(await alertByToken(fake, 'nope')).toBeNull();
    expect(
      await alertByToken(fakeAdmin({ stock_alert_by_token: { data: [], error: null }, price_alert_by_token: { data: [], error: null } }), TOKEN),
    ).toBeNull();
    expect(fake.calls).toHaveLength(1);
  });
});

describe("the cancel page's price alert", () => {
  it("reads a favorite's price-alert token when no restock alert has it", async () => {
    const fake = fakeAdmin({
      stock_alert_by_token: { data: [], error: null },
      price_alert_by_token: { data: [{ product_id: 'p', product_name: 'Caja', offer_label: 'NM · Español · Holo', state: 'waiting' }], error: null },
    });
    expect(await alertByToken(fake, TOKEN)).toEqual({
      productId: 'p',
      productName: 'Caja',
      offerLabel: 'NM · Español · Holo',
      state: 'waiting',
      kind: 'price',
    });
    expect(fake.calls.map((call) => call.fn)).toEqual(['stock_alert_by_token', 'price_alert_by_token']);
  });
});
