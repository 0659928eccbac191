/** The e-mail links: POST /recover and /resend send them, GET and POST /verify consume them. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { sendMail } from '../mailbox.ts';
import type { StackContext } from '../types.ts';
import {
  applyEmailChange,
  clientIp,
  CONFIRMATION_TTL_MS,
  inAuthTx,
  isBanned,
  isConfirmed,
  limiter,
  LINK_ERROR_DESCRIPTION,
  newLinkToken,
  parseEmail,
  readAuthJson,
  RECOVERY_TTL_MS,
  redirect,
  redirectTarget,
  sha256,
  verifyLink,
  withFragment,
} from './common.ts';
import { AuthError, sendAuthJson } from './errors.ts';
import { issueSession, sessionFragment, type AmrMethod, type SessionJson } from './sessions.ts';
import { findUserByEmail, findUserById, findUserByTokenHash, type UserRow } from './users.ts';

const emailBody = z.looseObject({ email: z.unknown().optional(), type: z.unknown().optional() });
const verifyBody = z.looseObject({ token_hash: z.string().optional(), token: z.string().optional(), type: z.string() });

export async function recover(req: IncomingMessage, res: ServerResponse, url: URL, ctx: StackContext): Promise<void> {
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
      tx.query(`update auth.users set recovery_token = $2, recovery_sent_at = now(), updated_at = now() where id = $1`, [user.id, link.hash]),
    );
    await sendMail(ctx, { to: email, ...ctx.config.emails.recovery(verifyLink(ctx, link.token, 'recovery', redirectTo), ctx.config.brand) });
  }
  sendAuthJson(req, res, 200, {});
}

export async function resend(req: IncomingMessage, res: ServerResponse, url: URL, ctx: StackContext): Promise<void> {
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
      tx.query(`update auth.users set confirmation_token = $2, confirmation_sent_at = now(), updated_at = now() where id = $1`, [user.id, link.hash]),
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

export async function verifyGet(req: IncomingMessage, res: ServerResponse, url: URL, ctx: StackContext): Promise<void> {
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

export async function verifyPost(req: IncomingMessage, res: ServerResponse, _url: URL, ctx: StackContext): Promise<void> {
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
