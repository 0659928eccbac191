/**
 * Database access for the local stack: PGlite in a worker thread by default, a Postgres
 * server when DATABASE_URL is set (postgres.ts). Every request runs in one transaction as the
 * caller's role with `request.jwt.claims` set, exactly as PostgREST does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

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

/** How a request's transaction starts (asRole). */
export interface RoleOptions {
  /** A read-only transaction (`begin read only`), as PostgREST runs GET and HEAD. */
  readOnly?: boolean;
  /** `request.headers` for the functions that read it (a JSON object of lower-case names). */
  headers?: string;
  /**
   * `fn` sends one statement and nothing after it may undo it (an RPC's call): on a Postgres
   * server the settings and that statement go out together as one script, which PostgreSQL runs
   * as one transaction (committed at its end, rolled back on an error): one round trip for the
   * whole request instead of three (start, statement, commit). A statement whose parameters cannot
   * be written as literals, or a second statement, runs in an ordinary transaction instead.
   */
  oneStatement?: boolean;
}

export interface Db {
  /**
   * Runs `fn` in one transaction as `role` with `request.jwt.claims` = claims
   * (`set local role`, `set_config('request.jwt.claims', …, true)`); commits when
   * fn resolves, rolls back when it throws. On a Postgres server the transaction's start and all
   * its settings take one round trip whatever the options (PostgREST pipelines them likewise).
   */
  asRole<T>(role: Role, claims: Record<string, unknown>, fn: (tx: Tx) => Promise<T>, options?: RoleOptions): Promise<T>;
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
 * One statement sets the role and every claim setting, the role validated against the fixed list
 * first. PGlite binds the values as parameters; a Postgres server gets them as literals quoted by
 * the driver, in the same round trip as `begin` (postgres.ts).
 */
const ROLE_SETUP_SQL =
  "select set_config('role', $1, true), set_config('request.jwt.claims', $2, true), " +
  "set_config('request.jwt.claim.sub', $3, true), set_config('request.jwt.claim.role', $4, true), " +
  "set_config('statement_timeout', $5, true)";

/** The same with `request.headers` as well ($6). */
const ROLE_SETUP_WITH_HEADERS_SQL = ROLE_SETUP_SQL + ", set_config('request.headers', $6, true)";

/** The statement that opens a request's transaction. */
export function beginSql(options: RoleOptions | undefined): string {
  return options?.readOnly ? 'begin read only' : 'begin';
}

/** The role setup's text and parameters for a request (headers included when given). */
export function roleSetup(role: Role, claims: Record<string, unknown>, options: RoleOptions | undefined): { sql: string; params: unknown[] } {
  const params = roleSetupParams(role, claims);
  if (options?.headers === undefined) return { sql: ROLE_SETUP_SQL, params };
  return { sql: ROLE_SETUP_WITH_HEADERS_SQL, params: [...params, options.headers] };
}

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
    const prefix = archive
      .subarray(offset + 257, offset + 263)
      .toString('latin1')
      .startsWith('ustar')
      ? text(offset + 345, 155)
      : '';
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

/** A Postgres error as the worker sends it back: an Error carrying code, detail and hint. */
function workerError(plain: Record<string, unknown>): Error {
  return Object.assign(new Error(String(plain.message ?? 'Database error')), plain);
}

/**
 * Opens PGlite (in memory or in `dataDir`) behind the Db contract. PGlite runs in a worker
 * thread (pglite-worker.mjs): a statement blocks the thread that runs it, and the HTTP server
 * must keep answering (/health, other requests' I/O) while a heavy one runs.
 */
export async function openPglite(options: PgliteOptions = {}): Promise<Db> {
  if (options.dataDir) fs.mkdirSync(path.dirname(options.dataDir), { recursive: true });
  let loadDataDir: ArrayBuffer | undefined;
  if (options.template) {
    const archive = await options.template.arrayBuffer();
    if (options.dataDir) {
      // Native file writes are much faster than PGlite unpacking through its virtual file system.
      extractTar(Buffer.from(archive), options.dataDir);
    } else {
      loadDataDir = archive;
    }
  }
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
    workerData: { dataDir: options.dataDir, loadDataDir },
    transferList: loadDataDir ? [loadDataDir] : [],
  });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  const listeners = new Map<number, (payload: string) => void>();
  let nextId = 1;
  let exited = false;
  await new Promise<void>((resolve, reject) => {
    const onMessage = (msg: { type?: string; error?: Record<string, unknown> }) => {
      if (msg.type === 'ready') {
        worker.off('message', onMessage);
        resolve();
      } else if (msg.type === 'failed') {
        worker.off('message', onMessage);
        reject(workerError(msg.error ?? {}));
      }
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`El proceso de PGlite terminó al iniciar (código ${code})`)));
  });
  worker.removeAllListeners('error');
  worker.removeAllListeners('exit');
  worker.on('message', (msg: { id?: number; type?: string; listenId?: number; payload?: string; result?: unknown; error?: Record<string, unknown> }) => {
    if (msg.type === 'notify') {
      listeners.get(msg.listenId!)?.(msg.payload ?? '');
      return;
    }
    const call = pending.get(msg.id!);
    if (!call) return;
    pending.delete(msg.id!);
    if (msg.error) call.reject(workerError(msg.error));
    else call.resolve(msg.result);
  });
  const failAll = (err: Error) => {
    for (const call of pending.values()) call.reject(err);
    pending.clear();
  };
  worker.on('error', (err) => {
    console.error('[local-supabase] PGlite falló:', err);
    failAll(err);
  });
  worker.on('exit', () => {
    exited = true;
    failAll(new Error('PGlite ya no está en ejecución'));
  });

  const call = <T>(message: Record<string, unknown>): Promise<T> => {
    if (exited) return Promise.reject(new Error('PGlite ya no está en ejecución'));
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ ...message, id });
    });
  };

  const lock = new Mutex();
  let closed = false;
  const tx: Tx = {
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await call<{ rows: T[]; affectedRows?: number }>({ op: 'query', sql, params });
      return { rows: r.rows, affectedRows: r.affectedRows };
    },
  };
  const inTransaction = async <T>(setup: (() => Promise<unknown>) | null, fn: (tx: Tx) => Promise<T>, begin = 'begin'): Promise<T> => {
    await call({ op: 'exec', sql: begin });
    try {
      if (setup) await setup();
      const out = await fn(tx);
      await call({ op: 'exec', sql: 'commit' });
      return out;
    } catch (err) {
      await call({ op: 'exec', sql: 'rollback' }).catch(() => undefined);
      throw err;
    }
  };

  const db: Db = {
    kind: 'pglite',
    async asRole(role, claims, fn, options) {
      const setup = roleSetup(role, claims, options);
      return lock.run(() => inTransaction(() => tx.query(setup.sql, setup.params), fn, beginSql(options)));
    },
    admin(fn) {
      return lock.run(() => inTransaction(null, fn));
    },
    async listen(channel, onPayload) {
      const listenId = nextId++;
      listeners.set(listenId, onPayload);
      await lock.run(() => call({ op: 'listen', channel, listenId }));
      return async () => {
        listeners.delete(listenId);
        if (closed) return;
        await lock.run(() => call({ op: 'unlisten', listenId }));
      };
    },
    async exec(sql) {
      await lock.run(() => call({ op: 'exec', sql }));
    },
    snapshot() {
      return lock.run(async () => new Blob([await call<ArrayBuffer>({ op: 'dump' })]));
    },
    async close() {
      if (closed) return;
      closed = true;
      // Waits for queued transactions so nothing is cut off mid-commit.
      await lock.run(async () => {
        try {
          await call({ op: 'close' });
        } finally {
          await worker.terminate();
        }
      });
    },
  };
  return db;
}
