/**
 * Shared helpers of the database suites: a migrated in-memory PGlite, and running SQL the way
 * PostgREST does (one transaction, `set local role`, JWT claims as a local setting).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { applyMigrations } from 'local-supabase/migrate';

export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type ApiRole = 'anon' | 'authenticated' | 'service_role';

/** Something that runs SQL: PGlite itself or a transaction/connection wrapper. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[]; affectedRows?: number }>;
  exec(sql: string): Promise<unknown>;
}

/** A fresh in-memory PGlite with local bootstrap, migrations and (optionally) the seed applied. */
export async function migratedPglite(options: { seed?: boolean } = {}): Promise<PGlite> {
  const db = new PGlite();
  await applyMigrations(
    async (sql, name) => {
      try {
        await db.exec(sql);
      } catch (err) {
        throw new Error(`${name}: ${(err as Error).message}`, { cause: err });
      }
    },
    ROOT_DIR,
    { seed: options.seed ?? false },
  );
  return db;
}

/** The claims PostgREST would set for this role and user. */
export function claimsFor(role: ApiRole, sub?: string): string {
  return JSON.stringify(sub ? { sub, role, aud: 'authenticated' } : { role });
}

/** The outcome of one statement: its rows, or the error it raised. */
export interface Outcome<T = Record<string, unknown>> {
  ok: boolean;
  rows: T[];
  affected: number;
  error?: { message: string; code?: string; detail?: string; hint?: string };
}

function toOutcome<T>(result: { rows: T[]; affectedRows?: number }): Outcome<T> {
  // SELECT reports affectedRows 0 in PGlite, so returned rows count first.
  return { ok: true, rows: result.rows, affected: result.rows.length > 0 ? result.rows.length : (result.affectedRows ?? 0) };
}

function toError<T>(err: unknown): Outcome<T> {
  const e = err as { message: string; code?: string; detail?: string; hint?: string };
  return { ok: false, rows: [], affected: 0, error: { message: e.message, code: e.code, detail: e.detail, hint: e.hint } };
}

/**
 * Runs `fn` inside `begin; set local role …; set_config('request.jwt.claims', …, true)` and rolls
 * everything back afterwards, so each case starts from the same state.
 */
export async function inRolledBackTx<T>(db: Queryable, role: ApiRole | 'postgres', sub: string | undefined, fn: (q: Queryable) => Promise<T>): Promise<T> {
  await db.exec('begin');
  try {
    if (role !== 'postgres') {
      await db.query("select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)", [role, claimsFor(role, sub)]);
    }
    return await fn(db);
  } finally {
    await db.exec('rollback');
  }
}

/** Runs one statement as `role` (and user `sub`) in a rolled-back transaction; never throws. */
export async function attempt<T = Record<string, unknown>>(
  db: Queryable,
  role: ApiRole | 'postgres',
  sub: string | undefined,
  sql: string,
  params: unknown[] = [],
): Promise<Outcome<T>> {
  return inRolledBackTx(db, role, sub, async (q) => {
    try {
      return toOutcome(await q.query<T>(sql, params));
    } catch (err) {
      return toError<T>(err);
    }
  });
}

/** Runs one statement as `role` in its own committed transaction; never throws. */
export async function commit<T = Record<string, unknown>>(
  db: Queryable,
  role: ApiRole | 'postgres',
  sub: string | undefined,
  sql: string,
  params: unknown[] = [],
): Promise<Outcome<T>> {
  await db.exec('begin');
  try {
    if (role !== 'postgres') {
      await db.query("select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)", [role, claimsFor(role, sub)]);
    }
    const outcome = toOutcome(await db.query<T>(sql, params));
    await db.exec('commit');
    return outcome;
  } catch (err) {
    await db.exec('rollback');
    return toError<T>(err);
  }
}

/**
 * The arguments of mark_order_paid after the charge's reference that a charge of exactly what the
 * order $1 still owes in MXN carries (its total less the balance applied, in centavos).
 */
export const OWED = "(select round((o.total - o.credit_applied) * 100)::bigint from public.orders o where o.id = $1), 'mxn'";
