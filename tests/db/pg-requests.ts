/**
 * Requests to the throwaway PostgreSQL server (pg-server.ts) made the way PostgREST makes them:
 * a transaction acting as a signed-in user (role and JWT claims as local settings), a pending
 * order through create_order, and closing every connection of a suite.
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

/** Ends the suite's connections (those already gone included) and stops the server. */
export async function closeAll(server: PgServer | undefined, admin: pg.Client | undefined, clients: pg.Client[]): Promise<void> {
  await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  await admin?.end().catch(() => undefined);
  await server?.stop();
}
