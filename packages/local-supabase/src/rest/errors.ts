/** PostgREST-shaped errors: `{code, details, hint, message}` with PostgREST's status mapping. */
import type { Role } from '../db.ts';

/** An error answered to the client as PostgREST would. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: string | null = null,
    readonly hint: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  /** The JSON body. */
  toBody(): { code: string; details: string | null; hint: string | null; message: string } {
    return { code: this.code, details: this.details, hint: this.hint, message: this.message };
  }
}

/** A 400 PGRST100 for an unparsable query string. */
export function syntaxError(message: string, details: string | null = null): RestError {
  return new RestError(400, 'PGRST100', message, details);
}

/** SQLSTATE → HTTP status, as PostgREST's `mapSQLtoHTTP` (Error.hs). */
export function statusForSqlState(code: string, role: Role): number {
  if (code === '23503' || code === '23505') return 409;
  if (code === '25006') return 405;
  if (code === '42883' || code === '42P01') return 404;
  if (code === '42501') return role === 'anon' ? 401 : 403;
  if (code === 'P0001') return 400;
  if (/^PT\d{3}$/.test(code)) {
    const s = Number(code.slice(2));
    return s >= 400 && s <= 599 ? s : 400;
  }
  if (code.startsWith('08')) return 503;
  if (code === '53400') return 500;
  if (code.startsWith('53')) return 503;
  if (code.startsWith('0L') || code.startsWith('0P') || code.startsWith('28')) return 403;
  // Limits hit by a request's own size (too deep, too many arguments) are the request's fault.
  if (code.startsWith('54')) return 400;
  if (code.startsWith('57014')) return 400;
  if (/^(09|25|2D|38|39|3B|40|55|57|58|F0|HV|XX)/.test(code) || code === '42P17' || (code.startsWith('P0') && code !== 'P0001')) return 500;
  return 400;
}

interface PgLikeError {
  code?: unknown;
  message?: unknown;
  detail?: unknown;
  hint?: unknown;
}

/** True for an error raised by Postgres (it carries a five-character SQLSTATE). */
export function isPgError(err: unknown): err is PgLikeError & { code: string } {
  return typeof err === 'object' && err !== null && typeof (err as PgLikeError).code === 'string' && /^[0-9A-Z]{5}$/.test((err as PgLikeError).code as string);
}

/** Turns a Postgres error into a RestError with its SQLSTATE, message, detail and hint. */
export function fromPgError(err: PgLikeError & { code: string }, role: Role): RestError {
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  return new RestError(statusForSqlState(err.code, role), err.code, String(err.message ?? 'Database error'), str(err.detail), str(err.hint));
}
