/** POST /signup: e-mail sign-up, with confirmation by e-mail unless autoconfirm is on. */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hashPassword } from './password.ts';
import { z } from 'zod';
import { sendMail } from '../mailbox.ts';
import type { StackContext } from '../types.ts';
import {
  checkPasswordStrength,
  clientIp,
  createUser,
  inAuthTx,
  isConfirmed,
  limiter,
  metadataSchema,
  newLinkToken,
  parseEmail,
  readAuthJson,
  redirectTarget,
  userResponse,
  verifyLink,
} from './common.ts';
import { AuthError, sendAuthJson } from './errors.ts';
import { issueSession } from './sessions.ts';
import { findUserByEmail, findUserById } from './users.ts';

const signupBody = z.looseObject({
  email: z.unknown().optional(),
  password: z.unknown().optional(),
  data: metadataSchema.nullish(),
});

export async function signup(req: IncomingMessage, res: ServerResponse, url: URL, ctx: StackContext): Promise<void> {
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
      await tx.query(`update auth.users set confirmation_token = $2, confirmation_sent_at = now(), updated_at = now() where id = $1`, [existing.id, link.hash]);
      return (await findUserById(tx, existing.id))!;
    });
    await sendMail(ctx, { to: email, ...ctx.config.emails.confirmation(verifyLink(ctx, link.token, 'signup', redirectTo), ctx.config.brand) });
    const json = await ctx.db.admin((tx) => userResponse(tx, user));
    sendAuthJson(req, res, 200, json);
    return;
  }

  const passwordHash = await hashPassword(password);
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
