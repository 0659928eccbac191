/**
 * The stack's database on a PostgreSQL server (DATABASE_URL): a pool of connections, each request
 * a transaction as the caller's role, its start (and, for one statement, the whole request) sent
 * as one script with the values as literals quoted by the driver.
 */
import pg from 'pg';
import { beginSql, roleSetup, type Db, type Role, type RoleOptions, type Tx } from './db.ts';
import { quoteIdent } from './sql.ts';

/** The role setup with its values as literals, for a script (simple query protocol: no parameters). */
function literalSetup(role: Role, claims: Record<string, unknown>, options: RoleOptions | undefined): string {
  const setup = roleSetup(role, claims, options);
  return inlineParams(setup.sql, setup.params.map(String));
}

/** Whether a parameter can go into a script as a literal of the same meaning. */
function inlineable(value: unknown): boolean {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean';
}

/**
 * `sql` with each parameter `$n` replaced by its value as a literal quoted by the driver
 * (`pg.escapeLiteral`), `null` as NULL. Text inside quoted identifiers (a select alias may read
 * `"$1"`), string literals (E'' ones too), dollar-quoted strings and comments is copied as it is:
 * only a real parameter is replaced, so no value can land where it would end an identifier or a
 * comment. The statements built here carry their casts (`$1::json`), so a quoted literal means what
 * the parameter meant. Only for values `inlineable` accepts.
 */
function inlineParams(sql: string, params: readonly unknown[]): string {
  let out = '';
  let i = 0;
  const wordBefore = (at: number) => at > 0 && /[\w$]/.test(sql[at - 1]!);
  /** The index just past a quoted run that starts at `from` and ends with `quote` (doubled: kept). */
  const pastQuoted = (from: number, quote: string, backslashes: boolean) => {
    let j = from + 1;
    while (j < sql.length) {
      if (backslashes && sql[j] === '\\') j += 2;
      else if (sql[j] === quote && sql[j + 1] === quote) j += 2;
      else if (sql[j] === quote) return j + 1;
      else j += 1;
    }
    return sql.length;
  };
  while (i < sql.length) {
    const c = sql[i]!;
    let end = i + 1;
    if (c === "'") end = pastQuoted(i, "'", (sql[i - 1] === 'E' || sql[i - 1] === 'e') && !wordBefore(i - 1));
    else if (c === '"') end = pastQuoted(i, '"', false);
    else if (c === '-' && sql[i + 1] === '-') end = sql.includes('\n', i) ? sql.indexOf('\n', i) : sql.length;
    else if (c === '/' && sql[i + 1] === '*') end = sql.includes('*/', i + 2) ? sql.indexOf('*/', i + 2) + 2 : sql.length;
    else if (c === '$' && !wordBefore(i)) {
      const param = /^\$(\d+)/.exec(sql.slice(i, i + 12));
      if (param) {
        const value = params[Number(param[1]) - 1];
        out += value === null || value === undefined ? 'NULL' : pg.escapeLiteral(String(value));
        i += param[0].length;
        continue;
      }
      const tag = /^\$(?:[A-Za-z_]\w*)?\$/.exec(sql.slice(i, i + 64));
      if (tag) end = sql.includes(tag[0], i + tag[0].length) ? sql.indexOf(tag[0], i + tag[0].length) + tag[0].length : sql.length;
    }
    out += sql.slice(i, end);
    i = end;
  }
  return out;
}

/**
 * A request's start as one script (`begin …; select set_config(…)`), one round trip to the server
 * instead of two. The simple query protocol carries no parameters, so the values go in as literals
 * quoted by the driver (`pg.escapeLiteral`): the role is one of the fixed three, the claims come
 * from a verified token, the headers from the request.
 */
function startScript(role: Role, claims: Record<string, unknown>, options: RoleOptions | undefined): string {
  return `${beginSql(options)}; ${literalSetup(role, claims, options)}`;
}

/**
 * Connects to a Postgres server (DATABASE_URL) with a pool: one client per transaction, `max`
 * clients at most (PostgREST's db-pool, 10 by default).
 */
export async function openPostgres(connectionString: string, options: { max?: number } = {}): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10 });
  // An idle client dropped by the server (restart, admin command) must not crash the stack.
  pool.on('error', (err) => console.error('[local-supabase] conexión a Postgres perdida:', err.message));
  // Fails fast with a clear error when the server is unreachable.
  const probe = await pool.connect();
  probe.release();
  const listeners: pg.PoolClient[] = [];

  const shape = <T>(r: pg.QueryResult) => ({ rows: r.rows as T[], affectedRows: r.rowCount ?? undefined });
  const wrap = (client: pg.PoolClient): Tx => ({
    async query<T>(sql: string, params: unknown[] = []) {
      return shape<T>(await client.query(sql, params));
    },
  });

  /** Runs `fn` in a transaction opened by `start` (a `begin`, or a script that begins with one). */
  async function inTx<T>(fn: (tx: Tx) => Promise<T>, start = 'begin'): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query(start);
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

  /**
   * Runs `fn`, whose one statement goes out with the settings as one script (RoleOptions
   * oneStatement): PostgreSQL runs a script without `begin` as one transaction, so `set_config(…,
   * true)` holds for the statement and the script commits at its end or rolls back on an error. A
   * statement that cannot go as a literal script, or a second one, opens an ordinary transaction.
   */
  async function inOneTrip<T>(fn: (tx: Tx) => Promise<T>, role: Role, claims: Record<string, unknown>, options: RoleOptions): Promise<T> {
    const client = await pool.connect();
    const plain = wrap(client);
    const trip: { state: 'fresh' | 'committed' | 'open' } = { state: 'fresh' };
    try {
      const out = await fn({
        async query<R>(sql: string, params: unknown[] = []) {
          if (trip.state === 'fresh' && params.every(inlineable)) {
            trip.state = 'committed';
            const prefix = options.readOnly ? 'set transaction read only; ' : '';
            const results = (await client.query(
              `${prefix}${literalSetup(role, claims, options)}; ${inlineParams(sql, params)}`,
            )) as unknown as pg.QueryResult[];
            return shape<R>(results[results.length - 1]!);
          }
          if (trip.state === 'committed') throw new Error('oneStatement: a second statement after the committed one');
          if (trip.state === 'fresh') {
            await client.query(startScript(role, claims, options));
            trip.state = 'open';
          }
          return plain.query<R>(sql, params);
        },
      });
      if (trip.state === 'open') await client.query('commit');
      return out;
    } catch (err) {
      if (trip.state === 'open') await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  return {
    kind: 'postgres',
    async asRole(role, claims, fn, options) {
      if (options?.oneStatement) return inOneTrip(fn, role, claims, options);
      return inTx(fn, startScript(role, claims, options));
    },
    admin(fn) {
      return inTx(fn);
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
