/**
 * What the auth endpoints share: GoTrue's limits and validation, request bodies, link tokens and
 * redirects, user rows and identities, the signed-in caller, and the answers that are not JSON.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Tx } from '../db.ts';
import { HttpError, readBody } from '../http.ts';
import { verifyJwt } from '../jwt.ts';
import type { StackContext } from '../types.ts';
import { AuthError, authHeaders } from './errors.ts';
import { RateLimiter } from './ratelimit.ts';
import { sessionExists } from './sessions.ts';
import { findUserById, identitiesOf, isUuid, userJson, type UserRow } from './users.ts';

/** GoTrue's minimum password length (the shop's own forms ask for 8). */
const MIN_PASSWORD_LENGTH = 6;
/** How long e-mail links stay valid. */
export const CONFIRMATION_TTL_MS = 24 * 3600_000;
export const RECOVERY_TTL_MS = 3600_000;
export const LINK_ERROR_DESCRIPTION = 'Email link is invalid or has expired';

const limiters = new WeakMap<object, RateLimiter>();
export function limiter(ctx: StackContext): RateLimiter {
  let l = limiters.get(ctx.config);
  if (!l) {
    l = new RateLimiter();
    limiters.set(ctx.config, l);
  }
  l.prune();
  return l;
}

export function clientIp(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'desconocida';
}

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Lower-cased, trimmed e-mail, or a validation_failed error like GoTrue's. */
export function parseEmail(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new AuthError(400, 'validation_failed', 'An email address is required');
  }
  const email = value.trim().toLowerCase();
  if (email.length > 255 || !EMAIL_RE.test(email)) {
    throw new AuthError(400, 'validation_failed', 'Unable to validate email address: invalid format');
  }
  return email;
}

export function checkPasswordStrength(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new AuthError(422, 'weak_password', `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`, {
      weak_password: { reasons: ['length'] },
    });
  }
  if (password.length > 72) {
    // bcrypt ignores bytes past 72; GoTrue refuses such passwords instead of truncating them.
    throw new AuthError(422, 'weak_password', 'Password cannot be longer than 72 characters', {
      weak_password: { reasons: ['length'] },
    });
  }
}

export const metadataSchema = z.record(z.string(), z.unknown());

export async function readAuthJson<T>(req: IncomingMessage, schema: z.ZodType<T>): Promise<T> {
  let raw: Buffer;
  try {
    raw = await readBody(req);
  } catch (err) {
    if (err instanceof HttpError) throw new AuthError(err.status, 'request_too_large', 'Request body too large');
    throw err;
  }
  let parsed: unknown = {};
  if (raw.length > 0) {
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new AuthError(400, 'bad_json', 'Could not parse request body as JSON');
    }
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new AuthError(400, 'validation_failed', `Invalid request body: ${issue?.path.join('.') || 'body'}`);
  }
  return result.data;
}

export function sha256(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(28).toString('hex');
  return { token, hash: sha256(token) };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether links may send a session to `u`: the shop's site, this machine (any port), or an
 * origin listed in LOCAL_SUPABASE_REDIRECT_ALLOW_LIST. Like GoTrue's allow-list, this stops
 * a recovery requested with someone else's address from handing their session to a
 * foreign site.
 */
function redirectAllowed(ctx: StackContext, u: URL): boolean {
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
  if (LOOPBACK_HOSTS.has(u.hostname)) return true;
  const allowed = [ctx.config.siteUrl, ctx.config.url, ...(process.env.LOCAL_SUPABASE_REDIRECT_ALLOW_LIST ?? '').split(',')];
  return allowed.some((entry) => {
    try {
      return entry.trim() !== '' && new URL(entry.trim()).origin === u.origin;
    } catch {
      return false;
    }
  });
}

/** The redirect target of a link: an allowed URL from the request, else the shop's site URL. */
export function redirectTarget(ctx: StackContext, value: string | null | undefined): string {
  if (value) {
    try {
      const u = new URL(value);
      if (redirectAllowed(ctx, u)) return u.toString();
    } catch {
      // An unusable redirect falls back to the site, as GoTrue does for non-allow-listed URLs.
    }
  }
  return ctx.config.siteUrl;
}

export function withFragment(target: string, fragment: string): string {
  const u = new URL(target);
  u.hash = '';
  return `${u.toString()}#${fragment}`;
}

export function verifyLink(ctx: StackContext, token: string, type: string, redirectTo: string): string {
  const q = new URLSearchParams({ token, type, redirect_to: redirectTo });
  return `${ctx.config.url}/auth/v1/verify?${q.toString()}`;
}

export function isConfirmed(u: UserRow): boolean {
  return u.email_confirmed_at !== null && u.email_confirmed_at !== undefined;
}

export function isBanned(u: UserRow): boolean {
  return !!u.banned_until && new Date(u.banned_until).getTime() > Date.now();
}

let identityEmailWritable: boolean | undefined;
/** Supabase makes identities.email a generated column; a simpler local schema may not. */
async function canWriteIdentityEmail(tx: Tx): Promise<boolean> {
  if (identityEmailWritable === undefined) {
    const r = await tx.query<{ is_generated: string }>(
      `select is_generated from information_schema.columns
        where table_schema = 'auth' and table_name = 'identities' and column_name = 'email'`,
    );
    identityEmailWritable = r.rows.length > 0 && r.rows[0]!.is_generated !== 'ALWAYS';
  }
  return identityEmailWritable;
}

async function insertIdentity(tx: Tx, userId: string, provider: string, providerId: string, data: Record<string, unknown>, email: string): Promise<void> {
  const writable = await canWriteIdentityEmail(tx);
  await tx.query(
    `insert into auth.identities (id, user_id, provider, provider_id, identity_data, ${writable ? 'email, ' : ''}
       created_at, updated_at, last_sign_in_at)
     values ($1, $2, $3, $4, $5::jsonb, ${writable ? '$6, ' : ''} now(), now(), now())`,
    writable ? [randomUUID(), userId, provider, providerId, JSON.stringify(data), email] : [randomUUID(), userId, provider, providerId, JSON.stringify(data)],
  );
}

/** Creates a user row and its identity; profile creation happens in the database trigger. */
export async function createUser(
  tx: Tx,
  opts: {
    email: string;
    passwordHash: string | null;
    confirmed: boolean;
    confirmationHash: string | null;
    userMeta: Record<string, unknown>;
    provider: 'email' | 'google';
    providerId?: string;
    identityData?: Record<string, unknown>;
  },
): Promise<UserRow> {
  const id = randomUUID();
  await tx.query(
    `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, confirmation_token,
       confirmation_sent_at, raw_user_meta_data, raw_app_meta_data, is_anonymous, created_at, updated_at)
     values ($1, 'authenticated', 'authenticated', $2, $3, case when $4::boolean then now() end, $5,
       case when $5::text is not null then now() end, $6::jsonb, $7::jsonb, false, now(), now())`,
    [
      id,
      opts.email,
      opts.passwordHash,
      opts.confirmed,
      opts.confirmationHash,
      JSON.stringify(opts.userMeta),
      JSON.stringify({ provider: opts.provider, providers: [opts.provider] }),
    ],
  );
  const identityData = opts.identityData ?? {
    sub: id,
    email: opts.email,
    email_verified: opts.confirmed,
    phone_verified: false,
  };
  await insertIdentity(tx, id, opts.provider, opts.providerId ?? id, identityData, opts.email);
  const user = await findUserById(tx, id);
  if (!user) throw new Error('El usuario recién creado no se encontró');
  return user;
}

/** Runs auth writes as the owner; database failures become a 4xx like GoTrue's, never a 500. */
export async function inAuthTx<T>(ctx: StackContext, fn: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await ctx.db.admin(fn);
  } catch (err) {
    if (err instanceof AuthError) throw err;
    console.error('[local-supabase] auth: error de base de datos', err);
    throw new AuthError(400, 'unexpected_failure', 'Database error saving new user');
  }
}

export async function userResponse(tx: Tx, user: UserRow): Promise<Record<string, unknown>> {
  return userJson(user, await identitiesOf(tx, user.id));
}

export function mergeMetadata(current: Record<string, unknown> | null, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(current ?? {}) };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

interface Authenticated {
  user: UserRow;
  sessionId: string | undefined;
}

/** The signed-in user behind the bearer token, with GoTrue's errors for every failure. */
export async function authenticate(req: IncomingMessage, ctx: StackContext): Promise<Authenticated> {
  const header = req.headers.authorization;
  const bearer = typeof header === 'string' && /^bearer /i.test(header) ? header.slice(7).trim() : '';
  if (!bearer) throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  const claims = await verifyJwt(bearer, ctx.config.jwtSecret);
  if (!claims) {
    throw new AuthError(403, 'bad_jwt', 'invalid JWT: unable to parse or verify signature, token is malformed or expired');
  }
  if (typeof claims.sub !== 'string' || claims.sub === '') {
    throw new AuthError(403, 'bad_jwt', 'invalid claim: missing sub claim');
  }
  const sub = claims.sub;
  const sessionId = typeof claims.session_id === 'string' ? claims.session_id : undefined;
  return ctx.db.admin(async (tx) => {
    const user = await findUserById(tx, sub);
    if (!user) throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    if (sessionId !== undefined && (!isUuid(sessionId) || !(await sessionExists(tx, sessionId)))) {
      throw new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
    }
    return { user, sessionId };
  });
}

export function redirect(res: ServerResponse, status: 302 | 303, location: string): void {
  res.writeHead(status, { location, 'cache-control': 'no-store', ...authHeaders() });
  res.end();
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // No form-action: browsers apply it to the redirect back to the shop as well.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  });
  res.end(html);
}

export async function applyEmailChange(tx: Tx, userId: string, email: string): Promise<void> {
  await tx.query(`update auth.users set email = $2, updated_at = now() where id = $1`, [userId, email]);
  await tx.query(
    `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text), updated_at = now()
      where user_id = $1 and provider = 'email'`,
    [userId, email],
  );
  if (await canWriteIdentityEmail(tx)) {
    await tx.query(`update auth.identities set email = $2 where user_id = $1 and provider = 'email'`, [userId, email]);
  }
}
