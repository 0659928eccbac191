/**
 * Supabase Auth (GoTrue) compatible endpoints under /auth/v1: e-mail sign-up with
 * confirmation, password and refresh-token grants, the user endpoint, sign-out, password
 * recovery, e-mail links, and a local stand-in for Google sign-in. State lives in the
 * `auth` schema; e-mails go to the local mailbox.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import bcrypt from 'bcryptjs';
import { z } from 'zod';
import type { Tx } from './db.ts';
import { HttpError, readBody } from './http.ts';
import { verifyJwt } from './jwt.ts';
import { sendMail } from './mailbox.ts';
import type { Handler, StackContext } from './types.ts';
import { AuthError, authHeaders, sendAuthError, sendAuthJson } from './auth/errors.ts';
import { chooserPage, googleAccountId } from './auth/google.ts';
import { RateLimiter } from './auth/ratelimit.ts';
import {
  endSessions,
  issueSession,
  refreshSession,
  sessionExists,
  sessionFragment,
  type AmrMethod,
  type SessionJson,
} from './auth/sessions.ts';
import {
  findUserByEmail,
  findUserById,
  findUserByTokenHash,
  identitiesOf,
  isUuid,
  userJson,
  type UserRow,
} from './auth/users.ts';

/** bcrypt cost, as GoTrue uses. */
const BCRYPT_COST = 10;
/** GoTrue's minimum password length (the shop's own forms ask for 8). */
const MIN_PASSWORD_LENGTH = 6;
/** How long e-mail links stay valid. */
const CONFIRMATION_TTL_MS = 24 * 3600_000;
const RECOVERY_TTL_MS = 3600_000;
const LINK_ERROR_DESCRIPTION = 'Email link is invalid or has expired';

const limiters = new WeakMap<object, RateLimiter>();
function limiter(ctx: StackContext): RateLimiter {
  let l = limiters.get(ctx.config);
  if (!l) {
    l = new RateLimiter();
    limiters.set(ctx.config, l);
  }
  l.prune();
  return l;
}

function clientIp(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'desconocida';
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Lower-cased, trimmed e-mail, or a validation_failed error like GoTrue's. */
function parseEmail(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new AuthError(400, 'validation_failed', 'An email address is required');
  }
  const email = value.trim().toLowerCase();
  if (email.length > 255 || !EMAIL_RE.test(email)) {
    throw new AuthError(400, 'validation_failed', 'Unable to validate email address: invalid format');
  }
  return email;
}

function checkPasswordStrength(password: string): void {
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

const metadataSchema = z.record(z.string(), z.unknown());

const signupBody = z.looseObject({
  email: z.unknown().optional(),
  password: z.unknown().optional(),
  data: metadataSchema.nullish(),
});
const passwordGrantBody = z.looseObject({ email: z.unknown().optional(), password: z.unknown().optional() });
const refreshGrantBody = z.looseObject({ refresh_token: z.unknown().optional() });
const userUpdateBody = z.looseObject({
  email: z.string().nullish(),
  password: z.string().nullish(),
  data: metadataSchema.nullish(),
});
const emailBody = z.looseObject({ email: z.unknown().optional(), type: z.unknown().optional() });
const verifyBody = z.looseObject({ token_hash: z.string().optional(), token: z.string().optional(), type: z.string() });

async function readAuthJson<T>(req: IncomingMessage, schema: z.ZodType<T>): Promise<T> {
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

function sha256(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function newLinkToken(): { token: string; hash: string } {
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
function redirectTarget(ctx: StackContext, value: string | null | undefined): string {
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

function withFragment(target: string, fragment: string): string {
  const u = new URL(target);
  u.hash = '';
  return `${u.toString()}#${fragment}`;
}

function verifyLink(ctx: StackContext, token: string, type: string, redirectTo: string): string {
  const q = new URLSearchParams({ token, type, redirect_to: redirectTo });
  return `${ctx.config.url}/auth/v1/verify?${q.toString()}`;
}

function isConfirmed(u: UserRow): boolean {
  return u.email_confirmed_at !== null && u.email_confirmed_at !== undefined;
}

function isBanned(u: UserRow): boolean {
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

async function insertIdentity(
  tx: Tx,
  userId: string,
  provider: string,
  providerId: string,
  data: Record<string, unknown>,
  email: string,
): Promise<void> {
  const writable = await canWriteIdentityEmail(tx);
  await tx.query(
    `insert into auth.identities (id, user_id, provider, provider_id, identity_data, ${writable ? 'email, ' : ''}
       created_at, updated_at, last_sign_in_at)
     values ($1, $2, $3, $4, $5::jsonb, ${writable ? '$6, ' : ''} now(), now(), now())`,
    writable
      ? [randomUUID(), userId, provider, providerId, JSON.stringify(data), email]
      : [randomUUID(), userId, provider, providerId, JSON.stringify(data)],
  );
}

/** Creates a user row and its identity; profile creation happens in the database trigger. */
async function createUser(
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
async function inAuthTx<T>(ctx: StackContext, fn: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await ctx.db.admin(fn);
  } catch (err) {
    if (err instanceof AuthError) throw err;
    console.error('[local-supabase] auth: error de base de datos', err);
    throw new AuthError(400, 'unexpected_failure', 'Database error saving new user');
  }
}

async function userResponse(tx: Tx, user: UserRow): Promise<Record<string, unknown>> {
  return userJson(user, await identitiesOf(tx, user.id));
}

function mergeMetadata(current: Record<string, unknown> | null, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(current ?? {}) };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Endpoints

async function signup(req: IncomingMessage, res: ServerResponse, url: URL, ctx: StackContext): Promise<void> {
  limiter(ctx).hit('signup', clientIp(req));
  const body = await readAuthJson(req, signupBody);
  const email = parseEmail(body.email);
  if (typeof body.password !== 'string' || body.password === '') {
    throw new AuthError(400, 'validation_failed', 'Signup requires a valid password');
  }
  const password = body.password;
  checkPasswordStrength(password);
  const userMeta = body.data ?? {};
  const redirectTo = redirectTarget(ctx, url.searchParams.get('redirect_to'));
  const autoconfirm = ctx.config.autoconfirm;

  const existing = await ctx.db.admin((tx) => findUserByEmail(tx, email));
  if (existing && isConfirmed(existing)) {
    if (autoconfirm) throw new AuthError(422, 'user_already_exists', 'User already registered');
    // Confirmation on: answer with an obfuscated user so the response does not reveal the account.
    const now = new Date().toISOString();
    sendAuthJson(req, res, 200, {
      id: randomUUID(),
      aud: 'authenticated',
      role: 'authenticated',
      email,
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: userMeta,
      identities: [],
      created_at: now,
      updated_at: now,
      is_anonymous: false,
    });
    return;
  }

  if (existing) {
    // An unconfirmed account is never changed by a repeated sign-up: whoever signs up again
    // with the same address must not set its password or data. Only the confirmation goes out
    // again (to the address's owner), within the one-e-mail-a-minute limit.
    if (autoconfirm) throw new AuthError(422, 'user_already_exists', 'User already registered');
    limiter(ctx).claimEmail('confirmation', email);
    const link = newLinkToken();
    const user = await inAuthTx(ctx, async (tx) => {
      await tx.query(
        `update auth.users set confirmation_token = $2, confirmation_sent_at = now(), updated_at = now() where id = $1`,
        [existing.id, link.hash],
      );
      return (await findUserById(tx, existing.id))!;
    });
    await sendMail(ctx, { to: email, ...ctx.config.emails.confirmation(verifyLink(ctx, link.token, 'signup', redirectTo), ctx.config.brand) });
    const json = await ctx.db.admin((tx) => userResponse(tx, user));
    sendAuthJson(req, res, 200, json);
    return;
  }

  const passwordHash = await bcrypt.hash(password, BCRYPT_COST);
  if (autoconfirm) {
    const session = await inAuthTx(ctx, async (tx) => {
      const user = await createUser(tx, {
        email,
        passwordHash,
        confirmed: true,
        confirmationHash: null,
        userMeta,
        provider: 'email',
      });
      return issueSession(tx, ctx, user, 'password');
    });
    sendAuthJson(req, res, 200, session);
    return;
  }

  limiter(ctx).claimEmail('confirmation', email);
  const link = newLinkToken();
  const user = await inAuthTx(ctx, (tx) =>
    createUser(tx, {
      email,
      passwordHash,
      confirmed: false,
      confirmationHash: link.hash,
      userMeta,
      provider: 'email',
    }),
  );
  await sendMail(ctx, { to: email, ...ctx.config.emails.confirmation(verifyLink(ctx, link.token, 'signup', redirectTo), ctx.config.brand) });
  const json = await ctx.db.admin((tx) => userResponse(tx, user));
  sendAuthJson(req, res, 200, json);
}

async function passwordGrant(req: IncomingMessage, res: ServerResponse, ctx: StackContext): Promise<void> {
  const body = await readAuthJson(req, passwordGrantBody);
  if (typeof body.email !== 'string' || body.email.trim() === '') {
    throw new AuthError(400, 'validation_failed', 'missing email or phone');
  }
  const password = typeof body.password === 'string' ? body.password : '';
  const email = body.email.trim().toLowerCase();
  const user = await ctx.db.admin((tx) => findUserByEmail(tx, email));
  const ok = !!user?.encrypted_password && password !== '' && (await bcrypt.compare(password, user.encrypted_password));
  if (!user || !ok) throw new AuthError(400, 'invalid_credentials', 'Invalid login credentials');
  if (!isConfirmed(user) && !ctx.config.autoconfirm) {
    throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed');
  }
  if (isBanned(user)) throw new AuthError(400, 'user_banned', 'User is banned');
  const session = await inAuthTx(ctx, async (tx) => {
    await tx.query(
      `update auth.identities set last_sign_in_at = now(), updated_at = now() where user_id = $1 and provider = 'email'`,
      [user.id],
    );
    return issueSession(tx, ctx, user, 'password');
  });
  sendAuthJson(req, res, 200, session);
}

async function token(req: IncomingMessage, res: ServerResponse, url: URL, ctx: StackContext): Promise<void> {
  limiter(ctx).hit('token', clientIp(req));
  const grant = url.searchParams.get('grant_type');
  if (grant === 'password') return passwordGrant(req, res, ctx);
  if (grant === 'refresh_token') {
    const body = await readAuthJson(req, refreshGrantBody);
    if (typeof body.refresh_token !== 'string' || body.refresh_token === '') {
      throw new AuthError(400, 'validation_failed', 'refresh_token required');
    }
    const refreshToken = body.refresh_token;
    const outcome = await ctx.db.admin((tx) => refreshSession(tx, ctx, refreshToken)).catch((err: unknown) => {
      if (err instanceof AuthError) throw err;
      throw new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
    });
    if ('reusedSessionId' in outcome) {
      // Reuse of an old token suggests it leaked: the whole session is ended.
      await ctx.db.admin((tx) => tx.query(`delete from auth.sessions where id = $1`, [outcome.reusedSessionId]));
      throw new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
    }
    sendAuthJson(req, res, 200, outcome);
    return;
  }
  throw new AuthError(400, 'invalid_credentials', 'unsupported_grant_type');
}

interface Authenticated {
  user: UserRow;
  sessionId: string | undefined;
}

/** The signed-in user behind the bearer token, with GoTrue's errors for every failure. */
async function authenticate(req: IncomingMessage, ctx: StackContext): Promise<Authenticated> {
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

async function getUser(req: IncomingMessage, res: ServerResponse, ctx: StackContext): Promise<void> {
  const { user } = await authenticate(req, ctx);
  sendAuthJson(req, res, 200, await ctx.db.admin((tx) => userResponse(tx, user)));
}

async function updateUser(req: IncomingMessage, res: ServerResponse, url: URL, ctx: StackContext): Promise<void> {
  const { user } = await authenticate(req, ctx);
  const body = await readAuthJson(req, userUpdateBody);
  const redirectTo = redirectTarget(ctx, url.searchParams.get('redirect_to'));

  let passwordHash: string | undefined;
  if (typeof body.password === 'string') {
    checkPasswordStrength(body.password);
    if (user.encrypted_password && (await bcrypt.compare(body.password, user.encrypted_password))) {
      throw new AuthError(422, 'same_password', 'New password should be different from the old password.');
    }
    passwordHash = await bcrypt.hash(body.password, BCRYPT_COST);
  }
  let newEmail: string | undefined;
  if (typeof body.email === 'string' && body.email.trim().toLowerCase() !== (user.email ?? '').toLowerCase()) {
    newEmail = parseEmail(body.email);
  }
  let emailLink: { token: string; hash: string } | undefined;
  if (newEmail && !ctx.config.autoconfirm) {
    limiter(ctx).claimEmail('email_change', newEmail);
    emailLink = newLinkToken();
  }

  const json = await inAuthTx(ctx, async (tx) => {
    if (body.data) {
      await tx.query(`update auth.users set raw_user_meta_data = $2::jsonb, updated_at = now() where id = $1`, [
        user.id,
        JSON.stringify(mergeMetadata(user.raw_user_meta_data, body.data)),
      ]);
    }
    if (passwordHash) {
      await tx.query(`update auth.users set encrypted_password = $2, updated_at = now() where id = $1`, [
        user.id,
        passwordHash,
      ]);
    }
    let pendingEmail: string | undefined;
    if (newEmail) {
      const taken = await findUserByEmail(tx, newEmail);
      if (taken && taken.id !== user.id) {
        throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
      }
      if (emailLink) {
        await tx.query(
          `insert into auth.one_time_tokens (user_id, token_type, token_hash, relates_to)
           values ($1, 'email_change_token_new', $2, $3)
           on conflict (user_id, token_type) do update
             set token_hash = excluded.token_hash, relates_to = excluded.relates_to, created_at = now(), updated_at = now()`,
          [user.id, emailLink.hash, newEmail],
        );
        pendingEmail = newEmail;
      } else {
        await applyEmailChange(tx, user.id, newEmail);
      }
    }
    const fresh = (await findUserById(tx, user.id))!;
    const out = await userResponse(tx, fresh);
    if (pendingEmail) {
      out.new_email = pendingEmail;
      out.email_change_sent_at = new Date().toISOString();
    }
    return out;
  });
  if (newEmail && emailLink) {
    await sendMail(ctx, {
      to: newEmail,
      ...ctx.config.emails.emailChange(verifyLink(ctx, emailLink.token, 'email_change', redirectTo), newEmail, ctx.config.brand),
    });
  }
  sendAuthJson(req, res, 200, json);
}

async function applyEmailChange(tx: Tx, userId: string, email: string): Promise<void> {
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

async function logout(req: IncomingMessage, res: ServerResponse, url: URL, ctx: StackContext): Promise<void> {
  const { user, sessionId } = await authenticate(req, ctx);
  const raw = url.searchParams.get('scope') ?? 'global';
  if (raw !== 'global' && raw !== 'local' && raw !== 'others') {
    throw new AuthError(400, 'validation_failed', 'Unsupported logout scope');
  }
  await ctx.db.admin((tx) => endSessions(tx, user.id, sessionId, raw));
  res.writeHead(204, authHeaders());
  res.end();
}

async function recover(req: IncomingMessage, res: ServerResponse, url: URL, ctx: StackContext): Promise<void> {
  limiter(ctx).hit('recover', clientIp(req));
  const body = await readAuthJson(req, emailBody);
  const email = parseEmail(body.email);
  const redirectTo = redirectTarget(ctx, url.searchParams.get('redirect_to'));
  const user = await ctx.db.admin((tx) => findUserByEmail(tx, email));
  // The limit applies to unknown addresses too, so the answer never reveals who has an account.
  limiter(ctx).claimEmail('recovery', email);
  if (user && !isBanned(user)) {
    const link = newLinkToken();
    await ctx.db.admin((tx) =>
      tx.query(`update auth.users set recovery_token = $2, recovery_sent_at = now(), updated_at = now() where id = $1`, [
        user.id,
        link.hash,
      ]),
    );
    await sendMail(ctx, { to: email, ...ctx.config.emails.recovery(verifyLink(ctx, link.token, 'recovery', redirectTo), ctx.config.brand) });
  }
  sendAuthJson(req, res, 200, {});
}

async function resend(req: IncomingMessage, res: ServerResponse, url: URL, ctx: StackContext): Promise<void> {
  limiter(ctx).hit('resend', clientIp(req));
  const body = await readAuthJson(req, emailBody);
  if (body.type !== 'signup') {
    throw new AuthError(400, 'validation_failed', 'Missing one of these types: signup, email_change, sms, phone_change');
  }
  const email = parseEmail(body.email);
  const redirectTo = redirectTarget(ctx, url.searchParams.get('redirect_to'));
  const user = await ctx.db.admin((tx) => findUserByEmail(tx, email));
  limiter(ctx).claimEmail('confirmation', email);
  if (user && !isConfirmed(user)) {
    const link = newLinkToken();
    await ctx.db.admin((tx) =>
      tx.query(
        `update auth.users set confirmation_token = $2, confirmation_sent_at = now(), updated_at = now() where id = $1`,
        [user.id, link.hash],
      ),
    );
    await sendMail(ctx, { to: email, ...ctx.config.emails.confirmation(verifyLink(ctx, link.token, 'signup', redirectTo), ctx.config.brand) });
  }
  sendAuthJson(req, res, 200, {});
}

const VERIFY_TYPES = ['signup', 'email', 'invite', 'recovery', 'magiclink', 'email_change'] as const;
type VerifyType = (typeof VERIFY_TYPES)[number];

/** Consumes an e-mail link token and starts a session; null when the link is invalid or expired. */
async function consumeLink(ctx: StackContext, type: VerifyType, tokenHash: string): Promise<SessionJson | null> {
  return inAuthTx(ctx, async (tx) => {
    const now = Date.now();
    let user: UserRow | null = null;
    let method: AmrMethod = 'otp';
    if (type === 'signup' || type === 'email' || type === 'invite') {
      user = await findUserByTokenHash(tx, 'confirmation_token', tokenHash);
      if (!user || !user.confirmation_sent_at || now - new Date(user.confirmation_sent_at).getTime() > CONFIRMATION_TTL_MS) {
        return null;
      }
      await tx.query(
        `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), confirmation_token = null,
           updated_at = now() where id = $1`,
        [user.id],
      );
      await tx.query(
        `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb
          where user_id = $1 and provider = 'email'`,
        [user.id],
      );
    } else if (type === 'recovery' || type === 'magiclink') {
      user = await findUserByTokenHash(tx, 'recovery_token', tokenHash);
      if (!user || !user.recovery_sent_at || now - new Date(user.recovery_sent_at).getTime() > RECOVERY_TTL_MS) {
        return null;
      }
      // Following a recovery link proves the address, so it also confirms it (as GoTrue does).
      await tx.query(
        `update auth.users set recovery_token = null, email_confirmed_at = coalesce(email_confirmed_at, now()),
           updated_at = now() where id = $1`,
        [user.id],
      );
      method = type === 'recovery' ? 'recovery' : 'otp';
    } else {
      const r = await tx.query<{ user_id: string; relates_to: string; created_at: Date | string }>(
        `delete from auth.one_time_tokens where token_hash = $1 and token_type = 'email_change_token_new'
         returning user_id::text as user_id, relates_to, created_at`,
        [tokenHash],
      );
      const row = r.rows[0];
      if (!row || now - new Date(row.created_at).getTime() > CONFIRMATION_TTL_MS) return null;
      const taken = await findUserByEmail(tx, row.relates_to);
      if (taken && taken.id !== row.user_id) return null;
      await applyEmailChange(tx, row.user_id, row.relates_to);
      user = await findUserById(tx, row.user_id);
      if (!user) return null;
    }
    if (isBanned(user)) return null;
    const fresh = (await findUserById(tx, user.id))!;
    return issueSession(tx, ctx, fresh, method);
  });
}

function redirect(res: ServerResponse, status: 302 | 303, location: string): void {
  res.writeHead(status, { location, 'cache-control': 'no-store', ...authHeaders() });
  res.end();
}

async function verifyGet(req: IncomingMessage, res: ServerResponse, url: URL, ctx: StackContext): Promise<void> {
  limiter(ctx).hit('verify', clientIp(req));
  const target = redirectTarget(ctx, url.searchParams.get('redirect_to'));
  const type = url.searchParams.get('type') ?? '';
  const tokenValue = url.searchParams.get('token') ?? url.searchParams.get('token_hash') ?? '';
  const session =
    (VERIFY_TYPES as readonly string[]).includes(type) && tokenValue.length > 0 && tokenValue.length <= 200
      ? await consumeLink(ctx, type as VerifyType, sha256(tokenValue))
      : null;
  if (!session) {
    const fragment = new URLSearchParams({
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: LINK_ERROR_DESCRIPTION,
      sb: '',
    });
    redirect(res, 303, withFragment(target, fragment.toString()));
    return;
  }
  const fragmentType = type === 'email' ? 'signup' : type;
  redirect(res, 303, withFragment(target, sessionFragment(session, fragmentType)));
}

async function verifyPost(req: IncomingMessage, res: ServerResponse, ctx: StackContext): Promise<void> {
  limiter(ctx).hit('verify', clientIp(req));
  const body = await readAuthJson(req, verifyBody);
  const value = body.token_hash ?? '';
  if (!(VERIFY_TYPES as readonly string[]).includes(body.type) || !value || value.length > 200) {
    throw new AuthError(403, 'otp_expired', 'Token has expired or is invalid');
  }
  const session = await consumeLink(ctx, body.type as VerifyType, sha256(value));
  if (!session) throw new AuthError(403, 'otp_expired', 'Token has expired or is invalid');
  sendAuthJson(req, res, 200, session);
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // No form-action: browsers apply it to the redirect back to the shop as well.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  });
  res.end(html);
}

async function authorize(res: ServerResponse, url: URL, ctx: StackContext): Promise<void> {
  const provider = url.searchParams.get('provider');
  if (provider !== 'google') {
    throw new AuthError(400, 'validation_failed', 'Unsupported provider: provider is not enabled');
  }
  if (url.searchParams.get('code_challenge')) {
    throw new AuthError(400, 'validation_failed', 'PKCE flow is not supported by the local auth server');
  }
  const redirectTo = redirectTarget(ctx, url.searchParams.get('redirect_to'));
  sendHtml(
    res,
    200,
    chooserPage({ action: '/auth/v1/callback', redirectTo, brand: ctx.config.brand }),
  );
}

/** True when a form was posted from a page of this same stack (or by a client without Origin). */
function postedFromOwnPage(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || origin === '') return true;
  return typeof req.headers.host === 'string' && (origin === `http://${req.headers.host}` || origin === `https://${req.headers.host}`);
}

/** A Google stand-in account: created by this page, with the google provider and identity. */
function createdByGoogleStandIn(user: UserRow, identities: string[]): boolean {
  const app = user.raw_app_meta_data ?? {};
  return app.provider === 'google' && identities.includes('google') && !identities.includes('email');
}

/**
 * Signs in the typed test Google account, creating it the first time. It never signs in or links
 * an account it did not create (an e-mail/password account with the same address): with no real
 * Google to prove who owns the address, that would hand anyone's account to whoever types it.
 */
async function googleCallback(req: IncomingMessage, res: ServerResponse, ctx: StackContext): Promise<void> {
  if (!postedFromOwnPage(req)) {
    sendHtml(res, 403, chooserPage({ action: '/auth/v1/callback', redirectTo: ctx.config.siteUrl, brand: ctx.config.brand, error: 'Este formulario solo se puede enviar desde la página local de Google.' }));
    return;
  }
  let form: URLSearchParams;
  try {
    form = new URLSearchParams((await readBody(req, 64 * 1024)).toString('utf8'));
  } catch {
    form = new URLSearchParams();
  }
  const redirectTo = redirectTarget(ctx, form.get('redirect_to'));
  const name = (form.get('name') ?? '').trim().slice(0, 100);
  const rawEmail = (form.get('email') ?? '').trim().toLowerCase();
  const problem = !name
    ? 'Escribe el nombre de la cuenta.'
    : !EMAIL_RE.test(rawEmail) || rawEmail.length > 254
      ? 'Escribe un correo válido.'
      : undefined;
  if (problem) {
    sendHtml(
      res,
      400,
      chooserPage({
        action: '/auth/v1/callback',
        redirectTo,
        brand: ctx.config.brand,
        error: problem,
        name,
        email: rawEmail,
      }),
    );
    return;
  }
  const email = rawEmail;
  const providerId = googleAccountId(email);
  const identityData = {
    iss: 'https://accounts.google.com',
    sub: providerId,
    provider_id: providerId,
    name,
    full_name: name,
    email,
    email_verified: true,
    phone_verified: false,
  };
  const session = await inAuthTx(ctx, async (tx) => {
    let user = await findUserByEmail(tx, email);
    if (!user) {
      user = await createUser(tx, {
        email,
        passwordHash: null,
        confirmed: true,
        confirmationHash: null,
        userMeta: identityData,
        provider: 'google',
        providerId,
        identityData,
      });
    } else {
      const identities = (
        await tx.query<{ provider: string }>(`select provider from auth.identities where user_id = $1`, [user.id])
      ).rows.map((r) => r.provider);
      if (!createdByGoogleStandIn(user, identities)) return null;
      if (isBanned(user)) throw new AuthError(400, 'user_banned', 'User is banned');
      await tx.query(
        `update auth.identities set identity_data = $2::jsonb, last_sign_in_at = now(), updated_at = now()
          where user_id = $1 and provider = 'google'`,
        [user.id, JSON.stringify(identityData)],
      );
      user = (await findUserById(tx, user.id))!;
    }
    return issueSession(tx, ctx, user, 'oauth');
  });
  if (!session) {
    sendHtml(
      res,
      409,
      chooserPage({
        action: '/auth/v1/callback',
        redirectTo,
        brand: ctx.config.brand,
        error:
          'Ya existe una cuenta con este correo que no se creó con Google. Entra con tu correo y contraseña; ' +
          'esta página de prueba no enlaza cuentas existentes.',
        name,
        email,
      }),
    );
    return;
  }
  const fragment = new URLSearchParams({
    access_token: session.access_token,
    expires_at: String(session.expires_at),
    expires_in: String(session.expires_in),
    provider_token: `local-google-${randomBytes(12).toString('hex')}`,
    refresh_token: session.refresh_token,
    token_type: 'bearer',
  });
  redirect(res, 302, withFragment(redirectTo, fragment.toString()));
}

// ---------------------------------------------------------------------------------------
// Admin API (service role only), as the server's supabase-js admin client calls it.

const adminUserBody = z.looseObject({
  email: z.string().nullish(),
  password: z.string().nullish(),
  email_confirm: z.boolean().nullish(),
  user_metadata: metadataSchema.nullish(),
  app_metadata: metadataSchema.nullish(),
  ban_duration: z.string().nullish(),
});
const generateLinkBody = z.looseObject({
  type: z.string(),
  email: z.unknown(),
  password: z.string().nullish(),
  data: metadataSchema.nullish(),
});

async function requireServiceRole(req: IncomingMessage, ctx: StackContext): Promise<void> {
  const header = req.headers.authorization;
  const bearer = typeof header === 'string' && /^bearer /i.test(header) ? header.slice(7).trim() : '';
  if (!bearer) throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  const claims = await verifyJwt(bearer, ctx.config.jwtSecret);
  if (!claims) throw new AuthError(403, 'bad_jwt', 'invalid JWT: unable to parse or verify signature');
  if (claims.role !== 'service_role') throw new AuthError(403, 'not_admin', 'User not allowed');
}

/** "24h", "90m", "none" → the ban end, null to lift it, undefined when not given. */
function banUntil(duration: string | null | undefined): Date | null | undefined {
  if (duration === undefined || duration === null) return undefined;
  if (duration === 'none') return null;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(duration.trim());
  if (!m) throw new AuthError(400, 'validation_failed', 'invalid format for ban duration');
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
  return new Date(Date.now() + Number(m[1]) * unit);
}

function userNotFound(): AuthError {
  return new AuthError(404, 'user_not_found', 'User not found');
}

async function adminUpdate(
  tx: Tx,
  user: UserRow,
  body: z.infer<typeof adminUserBody>,
  passwordHash: string | undefined,
): Promise<void> {
  if (body.email && body.email.trim().toLowerCase() !== (user.email ?? '').toLowerCase()) {
    const email = parseEmail(body.email);
    const taken = await findUserByEmail(tx, email);
    if (taken && taken.id !== user.id) {
      throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
    }
    await applyEmailChange(tx, user.id, email);
  }
  if (passwordHash) {
    await tx.query(`update auth.users set encrypted_password = $2, updated_at = now() where id = $1`, [user.id, passwordHash]);
  }
  if (body.email_confirm === true) {
    await tx.query(
      `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), confirmation_token = null,
         updated_at = now() where id = $1`,
      [user.id],
    );
  }
  if (body.user_metadata) {
    await tx.query(`update auth.users set raw_user_meta_data = $2::jsonb, updated_at = now() where id = $1`, [
      user.id,
      JSON.stringify(mergeMetadata(user.raw_user_meta_data, body.user_metadata)),
    ]);
  }
  if (body.app_metadata) {
    await tx.query(`update auth.users set raw_app_meta_data = $2::jsonb, updated_at = now() where id = $1`, [
      user.id,
      JSON.stringify(mergeMetadata(user.raw_app_meta_data, body.app_metadata)),
    ]);
  }
  const ban = banUntil(body.ban_duration);
  if (ban !== undefined) {
    await tx.query(`update auth.users set banned_until = $2, updated_at = now() where id = $1`, [user.id, ban]);
    if (ban) await tx.query(`delete from auth.sessions where user_id = $1`, [user.id]);
  }
}

async function handleAdmin(req: IncomingMessage, res: ServerResponse, path: string, url: URL, ctx: StackContext) {
  await requireServiceRole(req, ctx);
  const method = req.method ?? 'GET';
  if (path === '/admin/users' && method === 'GET') {
    const page = Math.max(1, Number.parseInt(url.searchParams.get('page') || '1', 10) || 1);
    const perPage = Math.min(1000, Math.max(1, Number.parseInt(url.searchParams.get('per_page') || '50', 10) || 50));
    const { users, total } = await ctx.db.admin(async (tx) => {
      const count = await tx.query<{ n: string | number }>(`select count(*) as n from auth.users where deleted_at is null`);
      const ids = await tx.query<{ id: string }>(
        `select id::text as id from auth.users where deleted_at is null order by created_at desc, id limit $1 offset $2`,
        [perPage, (page - 1) * perPage],
      );
      const out: Array<Record<string, unknown>> = [];
      for (const { id } of ids.rows) {
        const u = await findUserById(tx, id);
        if (u) out.push(await userResponse(tx, u));
      }
      return { users: out, total: Number(count.rows[0]?.n ?? 0) };
    });
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const links = [`</admin/users?page=${lastPage}&per_page=${perPage}>; rel="last"`];
    if (page < lastPage) links.unshift(`</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`);
    sendAuthJson(req, res, 200, { users, aud: 'authenticated' }, { 'x-total-count': String(total), link: links.join(',') });
    return;
  }
  if (path === '/admin/users' && method === 'POST') {
    const body = await readAuthJson(req, adminUserBody);
    const email = parseEmail(body.email);
    if (body.password) checkPasswordStrength(body.password);
    const passwordHash = body.password ? await bcrypt.hash(body.password, BCRYPT_COST) : null;
    const json = await inAuthTx(ctx, async (tx) => {
      if (await findUserByEmail(tx, email)) {
        throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
      }
      let user = await createUser(tx, {
        email,
        passwordHash,
        confirmed: body.email_confirm === true,
        confirmationHash: null,
        userMeta: body.user_metadata ?? {},
        provider: 'email',
      });
      if (body.app_metadata) {
        await adminUpdate(tx, user, { app_metadata: body.app_metadata }, undefined);
        user = (await findUserById(tx, user.id))!;
      }
      return userResponse(tx, user);
    });
    sendAuthJson(req, res, 200, json);
    return;
  }
  const m = /^\/admin\/users\/([^/]+)$/.exec(path);
  if (m) {
    const id = decodeURIComponent(m[1]!);
    if (!isUuid(id)) throw userNotFound();
    if (method === 'GET') {
      const json = await ctx.db.admin(async (tx) => {
        const u = await findUserById(tx, id);
        if (!u) throw userNotFound();
        return userResponse(tx, u);
      });
      sendAuthJson(req, res, 200, json);
      return;
    }
    if (method === 'PUT') {
      const body = await readAuthJson(req, adminUserBody);
      if (body.password) checkPasswordStrength(body.password);
      const passwordHash = body.password ? await bcrypt.hash(body.password, BCRYPT_COST) : undefined;
      const json = await inAuthTx(ctx, async (tx) => {
        const u = await findUserById(tx, id);
        if (!u) throw userNotFound();
        await adminUpdate(tx, u, body, passwordHash);
        return userResponse(tx, (await findUserById(tx, id))!);
      });
      sendAuthJson(req, res, 200, json);
      return;
    }
    if (method === 'DELETE') {
      const json = await inAuthTx(ctx, async (tx) => {
        const u = await findUserById(tx, id);
        if (!u) throw userNotFound();
        const out = await userResponse(tx, u);
        await tx.query(`delete from auth.users where id = $1`, [id]);
        return out;
      });
      sendAuthJson(req, res, 200, json);
      return;
    }
  }
  if (path === '/admin/generate_link' && method === 'POST') {
    const body = await readAuthJson(req, generateLinkBody);
    const email = parseEmail(body.email);
    const type = body.type;
    if (type !== 'signup' && type !== 'magiclink' && type !== 'recovery') {
      throw new AuthError(400, 'validation_failed', 'Invalid email action link type requested');
    }
    const redirectTo = redirectTarget(ctx, url.searchParams.get('redirect_to'));
    if (type === 'signup') {
      if (!body.password) throw new AuthError(400, 'validation_failed', 'Signup requires a valid password');
      checkPasswordStrength(body.password);
    }
    const passwordHash = body.password ? await bcrypt.hash(body.password, BCRYPT_COST) : null;
    const link = newLinkToken();
    const json = await inAuthTx(ctx, async (tx) => {
      let user = await findUserByEmail(tx, email);
      if (type === 'signup') {
        if (user) throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
        user = await createUser(tx, {
          email,
          passwordHash,
          confirmed: false,
          confirmationHash: link.hash,
          userMeta: body.data ?? {},
          provider: 'email',
        });
      } else {
        if (!user && type === 'magiclink') {
          user = await createUser(tx, {
            email,
            passwordHash: null,
            confirmed: false,
            confirmationHash: null,
            userMeta: body.data ?? {},
            provider: 'email',
          });
        }
        if (!user) throw userNotFound();
        await tx.query(`update auth.users set recovery_token = $2, recovery_sent_at = now() where id = $1`, [user.id, link.hash]);
      }
      return userResponse(tx, (await findUserById(tx, user.id))!);
    });
    sendAuthJson(req, res, 200, {
      ...json,
      action_link: verifyLink(ctx, link.token, type, redirectTo),
      email_otp: '',
      hashed_token: link.token,
      redirect_to: redirectTo,
      verification_type: type,
    });
    return;
  }
  throw new AuthError(404, 'not_found', 'Not found');
}

function settings(ctx: StackContext): Record<string, unknown> {
  return {
    external: {
      anonymous_users: false,
      apple: false,
      azure: false,
      bitbucket: false,
      discord: false,
      facebook: false,
      figma: false,
      fly: false,
      github: false,
      gitlab: false,
      google: true,
      keycloak: false,
      kakao: false,
      linkedin_oidc: false,
      notion: false,
      spotify: false,
      slack_oidc: false,
      workos: false,
      twitch: false,
      twitter: false,
      email: true,
      phone: false,
      zoom: false,
    },
    disable_signup: false,
    mailer_autoconfirm: ctx.config.autoconfirm,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
  };
}

/** Answers every /auth/v1 request. */
export const handleAuth: Handler = async (req, res, rawPath, url, ctx) => {
  const method = req.method ?? 'GET';
  const path = rawPath.replace(/\/+$/, '') || '/';
  try {
    if (method === 'OPTIONS') {
      res.writeHead(204, { ...authHeaders(), 'access-control-max-age': '86400' });
      res.end();
      return;
    }
    if (path.startsWith('/admin/')) return await handleAdmin(req, res, path, url, ctx);
    const route = `${method} ${path}`;
    switch (route) {
      case 'GET /health':
        sendAuthJson(req, res, 200, { version: 'local', name: 'GoTrue', description: 'GoTrue compatible local auth' });
        return;
      case 'GET /settings':
        sendAuthJson(req, res, 200, settings(ctx));
        return;
      case 'POST /signup':
        return await signup(req, res, url, ctx);
      case 'POST /token':
        return await token(req, res, url, ctx);
      case 'GET /user':
        return await getUser(req, res, ctx);
      case 'PUT /user':
        return await updateUser(req, res, url, ctx);
      case 'POST /logout':
        return await logout(req, res, url, ctx);
      case 'POST /recover':
        return await recover(req, res, url, ctx);
      case 'POST /resend':
        return await resend(req, res, url, ctx);
      case 'GET /verify':
        return await verifyGet(req, res, url, ctx);
      case 'POST /verify':
        return await verifyPost(req, res, ctx);
      case 'GET /authorize':
        return await authorize(res, url, ctx);
      case 'POST /callback':
        return await googleCallback(req, res, ctx);
      default:
        throw new AuthError(404, 'not_found', 'Not found');
    }
  } catch (err) {
    if (err instanceof AuthError) {
      sendAuthError(req, res, err);
      return;
    }
    throw err;
  }
};
