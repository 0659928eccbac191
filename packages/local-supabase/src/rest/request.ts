/** One REST request as the route handlers get it, and the transaction each one runs in. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Role, Tx } from '../db.ts';
import type { StackContext } from '../types.ts';
import type { Prefer } from './prefer.ts';
import type { Reply } from './reply.ts';

export interface RestRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  ctx: StackContext;
  method: string;
  /** GET or HEAD: the transaction is read-only. */
  readOnly: boolean;
  /** The client asked for one object (Accept: application/vnd.pgrst.object+json). */
  objectMode: boolean;
  prefer: Prefer;
  role: Role;
  claims: Record<string, unknown>;
}

/** Carries the response out of a transaction that must roll back (Prefer: tx=rollback). */
class RollbackWith extends Error {
  constructor(readonly reply: Reply) {
    super('rollback');
  }
}

/**
 * The request's headers as PostgREST hands them to SQL (`request.headers`, a JSON object of
 * lower-case names), with the caller's address appended to `x-forwarded-for` as Supabase's API
 * gateway does: a function may count a caller by the last address, which the caller cannot choose.
 */
export function requestHeadersJson(req: IncomingMessage): string {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const address = req.socket.remoteAddress;
  if (address) headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${address}` : address;
  return JSON.stringify(headers);
}

/**
 * Runs `fn` in one transaction as the caller; read-only for GET/HEAD; rolls back on `tx=rollback`.
 * `headers` (requestHeadersJson) is set as `request.headers` for the functions that read it.
 * `oneStatement`: fn sends one statement and decides nothing after it (RoleOptions), unless the
 * caller asked for a rollback.
 */
export async function runTx(
  ctx: StackContext,
  role: Role,
  claims: Record<string, unknown>,
  readOnly: boolean,
  prefer: Prefer,
  fn: (tx: Tx) => Promise<Reply>,
  headers?: string,
  oneStatement = false,
): Promise<Reply> {
  try {
    return await ctx.db.asRole(
      role,
      claims,
      async (tx) => {
        const reply = await fn(tx);
        if (prefer.rollback) throw new RollbackWith(reply);
        return reply;
      },
      { readOnly, headers, oneStatement: oneStatement && !prefer.rollback },
    );
  } catch (err) {
    if (err instanceof RollbackWith) return err.reply;
    throw err;
  }
}
