/**
 * The price-drop e-mail's cancel link: each favorite has its own unguessable token, the queued
 * price-drop e-mail carries it (alert_mail_due), the cancel page reads it (price_alert_by_token)
 * and its button turns the favorite's price alert off without signing in
 * (cancel_stock_alert_by_token, which still cancels restock alerts by theirs). Only the service
 * role calls them; a shopper can neither set a token nor read another's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { attempt, commit, migratedPglite } from './support.ts';

const ANA = '22000000-0000-4000-a000-000000000001';
const BETO = '22000000-0000-4000-a000-000000000002';

let db: PGlite;

async function sql<T = Record<string, unknown>>(statement: string, params: unknown[] = []): Promise<T[]> {
  const outcome = await commit<T>(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

async function service<T = Record<string, unknown>>(statement: string, params: unknown[] = []): Promise<T[]> {
  const outcome = await commit<T>(db, 'service_role', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

beforeAll(async () => {
  db = await migratedPglite();
  await sql(`insert into auth.users (id, email, raw_user_meta_data) values ('${ANA}', 'ana@correo.mx', '{}'), ('${BETO}', 'beto@correo.mx', '{}')`);
  await sql(`insert into public.franchises (id, name) values ('pokemon', 'Pokémon')`);
  await sql(
    `insert into public.products (id, name, price, stock, limit_per_customer, franchise_id) values ('etb', 'Elite Trainer Box', 1299, 5, 5, 'pokemon')`,
  );
});

afterAll(async () => {
  await db?.close();
});

describe("a price-drop e-mail's cancel link", () => {
  it('gives each favorite its own token, which the shopper can neither set nor see for another', async () => {
    const own = await commit<{ id: string }>(db, 'authenticated', ANA, `insert into public.favorites (product_id) values ('etb') returning id`);
    expect(own.error).toBeUndefined();
    await commit(db, 'authenticated', BETO, `insert into public.favorites (product_id) values ('etb')`);
    const tokens = await sql<{ price_alert_token: string }>('select price_alert_token from public.favorites order by user_id');
    expect(tokens).toHaveLength(2);
    for (const { price_alert_token } of tokens) expect(price_alert_token).toMatch(/^[0-9a-f]{64}$/);
    expect(tokens[0]!.price_alert_token).not.toBe(tokens[1]!.price_alert_token);
    const forged = await attempt(db, 'authenticated', ANA, `update public.favorites set price_alert_token = $1 returning id`, ['f'.repeat(64)]);
    expect(forged.error?.code).toBe('42501');
    const seen = await attempt<{ user_id: string }>(db, 'authenticated', ANA, 'select user_id from public.favorites');
    expect(seen.rows).toEqual([{ user_id: ANA }]);
    for (const fn of ['price_alert_by_token', 'cancel_stock_alert_by_token']) {
      for (const role of ['anon', 'authenticated'] as const) {
        const call = await attempt(db, role, role === 'anon' ? undefined : ANA, `select public.${fn}($1)`, [tokens[0]!.price_alert_token]);
        expect(call.error?.code, `${fn} as ${role}`).toBe('42501');
      }
    }
  });

  it("carries the favorite's token in the queued e-mail and turns the price alert off once, the favorite kept", async () => {
    await commit(db, 'authenticated', ANA, `update public.favorites set price_alert = true where product_id = 'etb'`);
    const [{ price_alert_token: token }] = await sql<{ price_alert_token: string }>('select price_alert_token from public.favorites where user_id = $1', [ANA]);
    await sql(`update public.products set price = 999 where id = 'etb'`);
    const due = await service<{ kind: string; email: string; cancel_token: string }>('select kind, email, cancel_token from public.alert_mail_due(10)');
    expect(due).toEqual([{ kind: 'price_drop', email: 'ana@correo.mx', cancel_token: token }]);

    expect(await service('select product_id, product_name, offer_label, state from public.price_alert_by_token($1)', [token])).toEqual([
      { product_id: 'etb', product_name: 'Elite Trainer Box', offer_label: null, state: 'waiting' },
    ]);
    expect(await service<{ r: string }>('select public.cancel_stock_alert_by_token($1) as r', [token])).toEqual([{ r: 'cancelled' }]);
    expect(await sql('select price_alert from public.favorites where user_id = $1', [ANA])).toEqual([{ price_alert: false }]);
    expect(await service<{ r: string }>('select public.cancel_stock_alert_by_token($1) as r', [token])).toEqual([{ r: 'already' }]);
    expect((await service<{ state: string }>('select state from public.price_alert_by_token($1)', [token]))[0]!.state).toBe('cancelled');
    expect(await service<{ r: string }>('select public.cancel_stock_alert_by_token($1) as r', ['0'.repeat(64)])).toEqual([{ r: 'unknown' }]);
    // The next drop e-mails nobody: the alert is off.
    await sql(`update public.products set price = 899 where id = 'etb'`);
    expect(await service('select id from public.alert_mail_due(10) where new_price = 899')).toEqual([]);
  });
});
