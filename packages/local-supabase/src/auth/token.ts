/** POST /token: the password and refresh-token grants. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { verifyPassword } from './password.ts';
import { z } from 'zod';
import type { StackContext } from '../types.ts';
import { clientIp, inAuthTx, isBanned, isConfirmed, limiter, readAuthJson } from './common.ts';
import { AuthError, sendAuthJson } from './errors.ts';
import { issueSession, refreshSession } from './sessions.ts';
import { findUserByEmail } from './users.ts';

const passwordGrantBody = z.looseObject({ email: z.unknown().optional(), password: z.unknown().optional() });
const refreshGrantBody = z.looseObject({ refresh_token: z.unknown().optional() });

async function passwordGrant(req: IncomingMessage, res: ServerResponse, ctx: StackContext): Promise<void> {
  const body = await readAuthJson(req, passwordGrantBody);
  if (typeof body.email !== 'string' || body.email.trim() === '') {
    throw new AuthError(400, 'validation_failed', 'missing email or phone');
  }
  const password = typeof body.password === 'string' ? body.password : '';
  const email = body.email.trim().toLowerCase();
  const user = await ctx.db.admin((tx) => findUserByEmail(tx, email));
  const ok = !!user?.encrypted_password && password !== '' && (await verifyPassword(password, user.encrypted_password));
  if (!user || !ok) throw new AuthError(400, 'invalid_credentials', 'Invalid login credentials');
  if (!isConfirmed(user) && !ctx.config.autoconfirm) {
    throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed');
  }
  if (isBanned(user)) throw new AuthError(400, 'user_banned', 'User is banned');
  const session = await inAuthTx(ctx, async (tx) => {
    await tx.query(`update auth.identities set last_sign_in_at = now(), updated_at = now() where user_id = $1 and provider = 'email'`, [user.id]);
    return issueSession(tx, ctx, user, 'password');
  });
  sendAuthJson(req, res, 200, session);
}

export async function token(req: IncomingMessage, res: ServerResponse, url: URL, ctx: StackContext): Promise<void> {
  limiter(ctx).hit('token', clientIp(req));
  const grant = url.searchParams.get('grant_type');
  if (grant === 'password') return passwordGrant(req, res, ctx);
  if (grant === 'refresh_token') {
    const body = await readAuthJson(req, refreshGrantBody);
    if (typeof body.refresh_token !== 'string' || body.refresh_token === '') {
      throw new AuthError(400, 'validation_failed', 'refresh_token required');
    }
    const refreshToken = body.refresh_token;
    const outcome = await ctx.db
      .admin((tx) => refreshSession(tx, ctx, refreshToken))
      .catch((err: unknown) => {
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
