/**
 * Database access for the local stack: PGlite in-process by default, a Postgres
 * server when DATABASE_URL is set. Every request runs in one transaction as the
 * caller's role with `request.jwt.claims` set, exactly as PostgREST does.
 *
 * CONTRACT (implemented by the core module):
 */
export type Role = 'anon' | 'authenticated' | 'service_role';

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
}
