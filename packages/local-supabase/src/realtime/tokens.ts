/** The JWTs a socket and its channels carry: verified with the stack's secret, as Realtime requires. */
import { isRole, type Role } from '../db.ts';
import { verifyJwt } from '../jwt.ts';
import type { StackContext } from '../types.ts';

export type TokenCheck = { ok: true; role: Role; claims: Record<string, unknown> } | { ok: false; reason: string };

/** Validates a channel's JWT: it must verify and carry `role` and `exp`, as Realtime requires. */
export async function checkToken(token: string, ctx: StackContext): Promise<TokenCheck> {
  const claims = await verifyJwt(token, ctx.config.jwtSecret);
  if (!claims) return { ok: false, reason: 'Invalid JWT Token' };
  if (typeof claims.exp !== 'number' || typeof claims.role !== 'string') {
    return { ok: false, reason: 'Fields `role` and `exp` are required in JWT' };
  }
  if (!isRole(claims.role)) return { ok: false, reason: 'Invalid JWT Token' };
  return { ok: true, role: claims.role, claims: claims as Record<string, unknown> };
}

export function tokenExpired(claims: Record<string, unknown>): boolean {
  return typeof claims.exp === 'number' && claims.exp * 1000 <= Date.now();
}
