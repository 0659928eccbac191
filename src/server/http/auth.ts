/**
 * Who is calling an endpoint, from the request's `Authorization: Bearer` header: a shopper (a
 * Supabase access token, verified with Supabase Auth), an admin (the same, and profiles.is_admin
 * read with the service role, never taken from the token's claims) or one of the shop's own
 * servers (the service role key itself).
 */
import { timingSafeEqual } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/data/database.types.ts';
import { API_AUTH_TEXT } from '~/i18n/api.ts';
import { ApiError } from './json.ts';

/** The authenticated caller of an endpoint. */
export interface Caller {
  id: string;
  email: string | null;
}

/** An admin calling a back-office endpoint, with the token to act as them in the database. */
export interface AdminCaller {
  id: string;
  token: string;
}

/** The bearer token of a request, or null. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/** The user behind the request's access token; 401 (`signIn` says as whom) when missing or not valid. */
async function verifiedUser(request: Request, admin: SupabaseClient<Database>, signIn: string): Promise<Caller & { token: string }> {
  const token = bearerToken(request);
  if (!token || token.length > 8192) throw new ApiError(401, signIn, 'not_authenticated');
  const { data, error } = await admin.auth.getUser(token);
  if (error || !data.user) {
    throw new ApiError(401, API_AUTH_TEXT.sessionInvalid, 'not_authenticated');
  }
  return { id: data.user.id, email: data.user.email ?? null, token };
}

/** Verifies the caller's access token with Supabase Auth; 401 when missing or not valid. */
export async function authenticate(request: Request, admin: SupabaseClient<Database>): Promise<Caller> {
  const { id, email } = await verifiedUser(request, admin, API_AUTH_TEXT.signInToCheckout);
  return { id, email };
}

/**
 * The back office's check: 401 without a valid token, 403 (with `refusal`) for anyone who is not
 * an admin, 502 when the profile cannot be read.
 */
export async function requireAdmin(request: Request, admin: SupabaseClient<Database>, refusal: string = API_AUTH_TEXT.noAccess): Promise<AdminCaller> {
  const user = await verifiedUser(request, admin, API_AUTH_TEXT.signInAsAdmin);
  const profile = await admin.from('profiles').select('is_admin').eq('id', user.id).maybeSingle();
  if (profile.error) throw new ApiError(502, API_AUTH_TEXT.accountNotVerified, 'upstream_error');
  if (profile.data?.is_admin !== true) throw new ApiError(403, refusal, 'forbidden');
  return { id: user.id, token: user.token };
}

/** One of the shop's own servers (scripts/serve.mjs's sweeps): the bearer token is the service role key; 401 otherwise. */
export function requireShopServer(request: Request, serviceRoleKey: string | undefined): void {
  const given = bearerToken(request);
  const same = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);
  if (!given || !serviceRoleKey || !same(Buffer.from(given), Buffer.from(serviceRoleKey))) {
    throw new ApiError(401, API_AUTH_TEXT.notAuthorized, 'not_authorized');
  }
}
