/**
 * Database access for the local stack: PGlite in-process by default, a Postgres
 * server when DATABASE_URL is set. Every request runs in one transaction as the
 * caller's role with `request.jwt.claims` set, exactly as PostgREST does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export type Role = 'anon' | 'authenticated' | 'service_role';

export const ROLES: readonly Role[] = ['anon', 'authenticated', 'service_role'];

export interface QueryResult<T = Record<string, unknown>> {
  rows: T[];
  /** Affected rows for INSERT/UPDATE/DELETE when known. */
  affectedRows?: number;
}

/** A connection inside a transaction. */
export interface Tx {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
}

export interface Db {
  /**
   * Runs `fn` in one transaction as `role` with `request.jwt.claims` = claims
   * (`set local role`, `set_config('request.jwt.claims', …, true)`); commits when
   * fn resolves, rolls back when it throws.
   */
  asRole<T>(role: Role, claims: Record<string, unknown>, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs `fn` in one transaction as the database owner (migrations, auth internals). */
  admin<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Subscribes to NOTIFY on `channel`; returns an unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** Runs a script of several statements as the owner, outside any request (migrations). */
  exec(sql: string): Promise<void>;
  /** Which engine answers: 'pglite' or 'postgres'. */
  readonly kind: 'pglite' | 'postgres';
  /** PGlite only: a tarball of the whole data dir (a template for the next fresh start). */
  snapshot?(): Promise<Blob>;
}

/** True when `value` is one of the three request roles. */
export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * One statement sets the role and every claim setting: role validated against the
 * fixed list and bound as a parameter, never spliced into SQL text.
 */
const ROLE_SETUP_SQL =
  "select set_config('role', $1, true), set_config('request.jwt.claims', $2, true), " +
  "set_config('request.jwt.claim.sub', $3, true), set_config('request.jwt.claim.role', $4, true), " +
  "set_config('statement_timeout', $5, true)";

/** Supabase's per-role statement timeouts (a Postgres server enforces them; PGlite cannot). */
const STATEMENT_TIMEOUT: Record<Role, string> = { anon: '3s', authenticated: '8s', service_role: '0' };

function roleSetupParams(role: Role, claims: Record<string, unknown>): unknown[] {
  if (!isRole(role)) throw new Error(`Rol no válido: ${String(role)}`);
  const sub = typeof claims.sub === 'string' ? claims.sub : '';
  return [role, JSON.stringify({ ...claims, role }), sub, role, STATEMENT_TIMEOUT[role]];
}

/** A FIFO lock: PGlite has one connection, so transactions must not interleave. */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs fn once every earlier caller has finished. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn, fn);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** Quotes a channel or identifier for LISTEN/UNLISTEN. */
function quoteIdent(name: string): string {
  return '"' + name.replace(/"/g, '""') + '"';
}

/**
 * Unpacks a ustar archive (PGlite's `dumpDataDir` format) into `dir`. Only regular files and
 * folders are written, and no entry may leave `dir`.
 */
export function extractTar(archive: Buffer, dir: string): void {
  const root = path.resolve(dir);
  fs.mkdirSync(root, { recursive: true });
  const text = (start: number, length: number) => {
    const raw = archive.subarray(start, start + length);
    const end = raw.indexOf(0);
    return raw.subarray(0, end < 0 ? raw.length : end).toString('utf8');
  };
  let offset = 0;
  while (offset + 512 <= archive.length) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const name = text(offset, 100);
    const prefix = archive.subarray(offset + 257, offset + 263).toString('latin1').startsWith('ustar') ? text(offset + 345, 155) : '';
    const size = parseInt(text(offset + 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const full = (prefix ? `${prefix}/${name}` : name).replace(/^\/+/, '');
    const body = offset + 512;
    offset = body + Math.ceil(size / 512) * 512;
    if (!full) continue;
    const target = path.resolve(root, full);
    if (target !== root && !target.startsWith(root + path.sep)) throw new Error(`Entrada de plantilla fuera de la carpeta: ${full}`);
    if (type === '5') fs.mkdirSync(target, { recursive: true });
    else if (type === '0' || type === '\0') {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, archive.subarray(body, body + size));
    }
  }
}

export interface PgliteOptions {
  /** Folder for the PGlite data dir; undefined keeps everything in memory. */
  dataDir?: string;
  /** Start from this data-dir tarball instead of running initdb. */
  template?: Blob;
}

/** Opens PGlite (in memory or in `dataDir`) behind the Db contract. */
export async function openPglite(options: PgliteOptions = {}): Promise<Db> {
  if (options.dataDir) fs.mkdirSync(path.dirname(options.dataDir), { recursive: true });
  let loadDataDir: Blob | undefined = options.template;
  if (options.template && options.dataDir) {
    // Native file writes are much faster than PGlite unpacking through its virtual file system.
    extractTar(Buffer.from(await options.template.arrayBuffer()), options.dataDir);
    loadDataDir = undefined;
  }
  const pglite = await PGlite.create({
    dataDir: options.dataDir,
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  const lock = new Mutex();
  let closed = false;

  const wrap = (t: { query: PGlite['query'] }): Tx => ({
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await t.query<T>(sql, params as never[]);
      return { rows: r.rows as T[], affectedRows: r.affectedRows };
    },
  });

  const db: Db = {
    kind: 'pglite',
    async asRole(role, claims, fn) {
      const params = roleSetupParams(role, claims);
      return lock.run(() =>
        pglite.transaction(async (t) => {
          await t.query(ROLE_SETUP_SQL, params as never[]);
          return fn(wrap(t));
        }),
      );
    },
    admin(fn) {
      return lock.run(() => pglite.transaction(async (t) => fn(wrap(t))));
    },
    async listen(channel, onPayload) {
      const unlisten = await lock.run(() => pglite.listen(channel, onPayload));
      return async () => {
        if (closed) return;
        await lock.run(() => unlisten());
      };
    },
    async exec(sql) {
      await lock.run(() => pglite.exec(sql));
    },
    snapshot() {
      return lock.run(() => pglite.dumpDataDir('none'));
    },
    async close() {
      if (closed) return;
      closed = true;
      // Waits for queued transactions so nothing is cut off mid-commit.
      await lock.run(async () => {
        try {
          await pglite.exec('checkpoint');
        } catch {
          // A checkpoint is an optimisation for the next start; closing matters more.
        }
        await pglite.close();
      });
    },
  };
  return db;
}

/** Connects to a Postgres server (DATABASE_URL) with a pool: one client per transaction. */
export async function openPostgres(connectionString: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // An idle client dropped by the server (restart, admin command) must not crash the stack.
  pool.on('error', (err) => console.error('[local-supabase] conexión a Postgres perdida:', err.message));
  // Fails fast with a clear error when the server is unreachable.
  const probe = await pool.connect();
  probe.release();
  const listeners: pg.PoolClient[] = [];

  const wrap = (client: pg.PoolClient): Tx => ({
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await client.query(sql, params);
      return { rows: r.rows as T[], affectedRows: r.rowCount ?? undefined };
    },
  });

  async function inTx<T>(setup: ((c: pg.PoolClient) => Promise<unknown>) | null, fn: (tx: Tx) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('begin');
      if (setup) await setup(client);
      const out = await fn(wrap(client));
      await client.query('commit');
      return out;
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  return {
    kind: 'postgres',
    async asRole(role, claims, fn) {
      const params = roleSetupParams(role, claims);
      return inTx((c) => c.query(ROLE_SETUP_SQL, params), fn);
    },
    admin(fn) {
      return inTx(null, fn);
    },
    async listen(channel, onPayload) {
      const client = await pool.connect();
      client.on('error', (err) => console.error('[local-supabase] LISTEN perdido:', err.message));
      listeners.push(client);
      const handler = (msg: pg.Notification) => {
        if (msg.channel === channel) onPayload(msg.payload ?? '');
      };
      client.on('notification', handler);
      await client.query(`listen ${quoteIdent(channel)}`);
      return async () => {
        client.off('notification', handler);
        const i = listeners.indexOf(client);
        if (i < 0) return;
        listeners.splice(i, 1);
        await client.query(`unlisten ${quoteIdent(channel)}`).catch(() => undefined);
        client.release();
      };
    },
    async exec(sql) {
      const client = await pool.connect();
      try {
        await client.query(sql);
      } finally {
        client.release();
      }
    },
    async close() {
      for (const c of listeners.splice(0)) c.release();
      await pool.end();
    },
  };
}
