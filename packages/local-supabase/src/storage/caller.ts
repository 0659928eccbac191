/** Who is calling a storage route that needs a JWT (anon, a user or the service role). */
import type { IncomingMessage } from 'node:http';
import { callerFromRequest, type Caller } from '../http.ts';
import type { StackContext } from '../types.ts';
import { StorageError } from './errors.ts';

export async function requireCaller(req: IncomingMessage, ctx: StackContext): Promise<Caller> {
  const caller = await callerFromRequest(req, ctx);
  if (!caller) throw new StorageError(403, 'Unauthorized', 'invalid signature');
  return caller;
}

export function claimsOf(caller: Caller): Record<string, unknown> {
  return caller.claims as Record<string, unknown>;
}
