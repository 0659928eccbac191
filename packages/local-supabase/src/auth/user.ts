/** The signed-in user: GET and PUT /user (e-mail change by confirmation link), POST /logout. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hashPassword, verifyPassword } from './password.ts';
import { z } from 'zod';
import { sendMail } from '../mailbox.ts';
import type { StackContext } from '../types.ts';
import {
  applyEmailChange,
  authenticate,
  checkPasswordStrength,
  inAuthTx,
  limiter,
  mergeMetadata,
  metadataSchema,
  newLinkToken,
  parseEmail,
  readAuthJson,
  redirectTarget,
  userResponse,
  verifyLink,
} from './common.ts';
import { AuthError, authHeaders, sendAuthJson } from './errors.ts';
import { endSessions } from './sessions.ts';
import { findUserByEmail, findUserById } from './users.ts';

const userUpdateBody = z.looseObject({
  email: z.string().nullish(),
  password: z.string().nullish(),
  data: metadataSchema.nullish(),
});

export async function getUser(req: IncomingMessage, res: ServerResponse, _url: URL, ctx: StackContext): Promise<void> {
  const { user } = await authenticate(req, ctx);
  sendAuthJson(req, res, 200, await ctx.db.admin((tx) => userResponse(tx, user)));
}

export async function updateUser(req: IncomingMessage, res: ServerResponse, url: URL, ctx: StackContext): Promise<void> {
  const { user } = await authenticate(req, ctx);
  const body = await readAuthJson(req, userUpdateBody);
  const redirectTo = redirectTarget(ctx, url.searchParams.get('redirect_to'));

  let passwordHash: string | undefined;
  if (typeof body.password === 'string') {
    checkPasswordStrength(body.password);
    if (user.encrypted_password && (await verifyPassword(body.password, user.encrypted_password))) {
      throw new AuthError(422, 'same_password', 'New password should be different from the old password.');
    }
    passwordHash = await hashPassword(body.password);
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
      await tx.query(`update auth.users set encrypted_password = $2, updated_at = now() where id = $1`, [user.id, passwordHash]);
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

export async function logout(req: IncomingMessage, res: ServerResponse, url: URL, ctx: StackContext): Promise<void> {
  const { user, sessionId } = await authenticate(req, ctx);
  const raw = url.searchParams.get('scope') ?? 'global';
  if (raw !== 'global' && raw !== 'local' && raw !== 'others') {
    throw new AuthError(400, 'validation_failed', 'Unsupported logout scope');
  }
  await ctx.db.admin((tx) => endSessions(tx, user.id, sessionId, raw));
  res.writeHead(204, authHeaders());
  res.end();
}
