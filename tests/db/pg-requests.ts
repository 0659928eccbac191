/**
 * Requests to the throwaway PostgreSQL server (pg-server.ts) made the way PostgREST makes them:
 * a transaction acting as a signed-in user (role and JWT claims as local settings), a pending
 * order through create_order, several create_order calls at once, and closing every connection of a suite.
 */
import type pg from 'pg';
import type { PgServer } from './pg-server.ts';
import { claimsFor } from './support.ts';

/** Opens a transaction on `client` acting as the signed-in user `userId`. */
export async function beginAsUser(client: pg.Client, userId: string): Promise<void> {
  await client.query('begin');
  await client.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [claimsFor('authenticated', userId)]);
}

/** A pending order of `userId` for `items`, made through create_order as that user and committed. */
export async function createOrderAs(client: pg.Client, userId: string, items: Array<{ product_id: string; quantity: number }>): Promise<string> {
  await beginAsUser(client, userId);
  const { rows } = await client.query<{ id: string }>('select public.create_order($1::jsonb) as id', [JSON.stringify(items)]);
  await client.query('commit');
  return rows[0]!.id;
}

/** What one of several overlapping create_order calls came to: committed, or refused with its error code and detail. */
export interface Attempt {
  ok: boolean;
  code?: string;
  detail?: string;
}

/**
 * Opens one request per client (begin, role, claims), then fires every create_order at once, so
 * the calls really overlap inside the database; each is committed or rolled back.
 */
export async function orderAtOnce(calls: { client: pg.Client; user: string; items: unknown }[]): Promise<Attempt[]> {
  await Promise.all(calls.map(({ client, user }) => beginAsUser(client, user)));
  return Promise.all(
    calls.map(async ({ client, items }): Promise<Attempt> => {
      try {
        await client.query('select public.create_order($1::jsonb) as id', [JSON.stringify(items)]);
        await client.query('commit');
        return { ok: true };
      } catch (err) {
        await client.query('rollback');
        const e = err as { code?: string; detail?: string };
        return { ok: false, code: e.code, detail: e.detail };
      }
    }),
  );
}

/** Ends the suite's connections (those already gone included) and stops the server. */
export async function closeAll(server: PgServer | undefined, admin: pg.Client | undefined, clients: pg.Client[]): Promise<void> {
  await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  await admin?.end().catch(() => undefined);
  await server?.stop();
}
