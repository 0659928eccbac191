/** Sessions, access tokens and rotating refresh tokens, as GoTrue issues them. */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Tx } from '../db.ts';
import { signJwt } from '../jwt.ts';
import type { StackContext } from '../types.ts';
import { AuthError } from './errors.ts';
import { findUserById, identitiesOf, userJson, type UserRow } from './users.ts';

/** Access-token lifetime (GoTrue's JWT_EXP default). */
export const ACCESS_TOKEN_SECONDS = 3600;

/**
 * Seconds during which the refresh token just replaced may be presented again and gets the
 * current one back: two tabs (or React StrictMode) often refresh at the same moment.
 */
export function reuseIntervalSeconds(): number {
  const raw = Number(process.env.LOCAL_SUPABASE_REFRESH_TOKEN_REUSE_INTERVAL);
  return Number.isFinite(raw) && raw >= 0 ? raw : 10;
}

export type AmrMethod = 'password' | 'otp' | 'oauth' | 'recovery' | 'email/signup' | 'token_refresh';

export interface SessionJson {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
  [key: string]: unknown;
}

function newRefreshToken(): string {
  return randomBytes(24).toString('base64url');
}

/** The issuer GoTrue puts in its tokens. */
function issuer(ctx: StackContext): string {
  return `${ctx.config.url}/auth/v1`;
}

async function accessToken(
  ctx: StackContext,
  user: UserRow,
  sessionId: string,
  amr: Array<{ method: string; timestamp: number }>,
): Promise<{ token: string; iat: number; exp: number }> {
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + ACCESS_TOKEN_SECONDS;
  const token = await signJwt(
    {
      iss: issuer(ctx),
      sub: user.id,
      aud: user.aud || 'authenticated',
      exp,
      iat,
      email: user.email ?? '',
      phone: '',
      app_metadata: user.raw_app_meta_data ?? { provider: 'email', providers: ['email'] },
      user_metadata: user.raw_user_meta_data ?? {},
      role: user.role || 'authenticated',
      aal: 'aal1',
      amr,
      session_id: sessionId,
      is_anonymous: user.is_anonymous ?? false,
    },
    ctx.config.jwtSecret,
  );
  return { token, iat, exp };
}

async function sessionJson(
  tx: Tx,
  ctx: StackContext,
  user: UserRow,
  sessionId: string,
  refreshToken: string,
  amr: Array<{ method: string; timestamp: number }>,
): Promise<SessionJson> {
  const { token, exp } = await accessToken(ctx, user, sessionId, amr);
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: ACCESS_TOKEN_SECONDS,
    expires_at: exp,
    refresh_token: refreshToken,
    user: userJson(user, await identitiesOf(tx, user.id)),
  };
}

/** Starts a new session for `user` (recording the sign-in) and returns its session JSON. */
export async function issueSession(tx: Tx, ctx: StackContext, user: UserRow, method: AmrMethod): Promise<SessionJson> {
  const sessionId = randomUUID();
  const refresh = newRefreshToken();
  await tx.query(`insert into auth.sessions (id, user_id, aal) values ($1, $2, 'aal1')`, [sessionId, user.id]);
  await tx.query(`insert into auth.refresh_tokens (token, user_id, revoked, parent, session_id) values ($1, $2, false, null, $3)`, [
    refresh,
    user.id,
    sessionId,
  ]);
  await tx.query(`update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1`, [user.id]);
  const fresh = (await findUserById(tx, user.id)) ?? user;
  return sessionJson(tx, ctx, fresh, sessionId, refresh, [{ method, timestamp: Math.floor(Date.now() / 1000) }]);
}

interface RefreshRow {
  id: string;
  token: string;
  user_id: string;
  revoked: boolean;
  parent: string | null;
  session_id: string | null;
  updated_at: Date | string;
}

function invalid(reason: string): AuthError {
  return new AuthError(400, 'refresh_token_not_found', `Invalid Refresh Token: ${reason}`);
}

/**
 * Exchanges a refresh token for a new session, revoking it (rotation). A revoked token
 * is accepted only when it is the parent of the session's current token and was replaced
 * within the reuse interval; any other reuse is reported as `reusedSessionId` so the caller
 * can end the whole session (outside this transaction) as GoTrue does.
 */
export async function refreshSession(tx: Tx, ctx: StackContext, token: string): Promise<SessionJson | { reusedSessionId: string }> {
  const found = await tx.query<RefreshRow>(
    `select id::text as id, token, user_id, revoked, parent, session_id::text as session_id, updated_at
       from auth.refresh_tokens where token = $1 for update`,
    [token],
  );
  const row = found.rows[0];
  if (!row || !row.session_id) throw invalid('Refresh Token Not Found');
  const session = await tx.query<{ id: string }>(`select id::text as id from auth.sessions where id = $1`, [row.session_id]);
  if (!session.rows[0]) throw invalid('Refresh Token Not Found');
  const user = await findUserById(tx, row.user_id);
  if (!user) throw invalid('Refresh Token Not Found');
  if (user.banned_until && new Date(user.banned_until).getTime() > Date.now()) {
    throw new AuthError(400, 'user_banned', 'User is banned');
  }
  const amr = [{ method: 'token_refresh', timestamp: Math.floor(Date.now() / 1000) }];

  if (row.revoked) {
    const active = await tx.query<{ token: string }>(
      `select token from auth.refresh_tokens where session_id = $1 and revoked = false order by id desc limit 1`,
      [row.session_id],
    );
    const current = active.rows[0];
    const age = (Date.now() - new Date(row.updated_at).getTime()) / 1000;
    const activeIsChild =
      current && (await tx.query(`select 1 from auth.refresh_tokens where token = $1 and parent = $2`, [current.token, row.token])).rows.length > 0;
    if (current && activeIsChild && age <= reuseIntervalSeconds()) {
      return sessionJson(tx, ctx, user, row.session_id, current.token, amr);
    }
    return { reusedSessionId: row.session_id };
  }

  const next = newRefreshToken();
  await tx.query(`update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1`, [row.id]);
  await tx.query(`insert into auth.refresh_tokens (token, user_id, revoked, parent, session_id) values ($1, $2, false, $3, $4)`, [
    next,
    user.id,
    row.token,
    row.session_id,
  ]);
  await tx.query(`update auth.sessions set updated_at = now() where id = $1`, [row.session_id]);
  return sessionJson(tx, ctx, user, row.session_id, next, amr);
}

/** True when the session still exists (not signed out). */
export async function sessionExists(tx: Tx, sessionId: string): Promise<boolean> {
  const r = await tx.query(`select 1 from auth.sessions where id = $1`, [sessionId]);
  return r.rows.length > 0;
}

/** Ends sessions for a sign-out: 'global' all, 'local' this one, 'others' all but this one. */
export async function endSessions(tx: Tx, userId: string, sessionId: string | undefined, scope: 'global' | 'local' | 'others'): Promise<void> {
  if (scope === 'global' || !sessionId) {
    if (scope === 'others' && !sessionId) return;
    await tx.query(`delete from auth.sessions where user_id = $1`, [userId]);
  } else if (scope === 'local') {
    await tx.query(`delete from auth.sessions where id = $1 and user_id = $2`, [sessionId, userId]);
  } else {
    await tx.query(`delete from auth.sessions where user_id = $1 and id <> $2`, [userId, sessionId]);
  }
}

/** The session as URL fragment parameters, for the implicit-flow redirects. */
export function sessionFragment(session: SessionJson, type: string, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({
    access_token: session.access_token,
    expires_at: String(session.expires_at),
    expires_in: String(session.expires_in),
    refresh_token: session.refresh_token,
    ...extra,
    sb: '',
    token_type: 'bearer',
    type,
  });
  return params.toString();
}
