/** The local stand-in for Google sign-in: GET /authorize shows its page, POST /callback signs in. */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../http.ts';
import type { StackContext } from '../types.ts';
import { createUser, EMAIL_RE, inAuthTx, isBanned, redirect, redirectTarget, sendHtml, withFragment } from './common.ts';
import { AuthError } from './errors.ts';
import { chooserPage, googleAccountId } from './google.ts';
import { issueSession } from './sessions.ts';
import { findUserByEmail, findUserById, type UserRow } from './users.ts';

export async function authorize(_req: IncomingMessage, res: ServerResponse, url: URL, ctx: StackContext): Promise<void> {
  const provider = url.searchParams.get('provider');
  if (provider !== 'google') {
    throw new AuthError(400, 'validation_failed', 'Unsupported provider: provider is not enabled');
  }
  if (url.searchParams.get('code_challenge')) {
    throw new AuthError(400, 'validation_failed', 'PKCE flow is not supported by the local auth server');
  }
  const redirectTo = redirectTarget(ctx, url.searchParams.get('redirect_to'));
  sendHtml(res, 200, chooserPage({ action: '/auth/v1/callback', redirectTo, brand: ctx.config.brand }));
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
export async function googleCallback(req: IncomingMessage, res: ServerResponse, _url: URL, ctx: StackContext): Promise<void> {
  if (!postedFromOwnPage(req)) {
    sendHtml(
      res,
      403,
      chooserPage({
        action: '/auth/v1/callback',
        redirectTo: ctx.config.siteUrl,
        brand: ctx.config.brand,
        error: 'Este formulario solo se puede enviar desde la página local de Google.',
      }),
    );
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
  const problem = !name ? 'Escribe el nombre de la cuenta.' : !EMAIL_RE.test(rawEmail) || rawEmail.length > 254 ? 'Escribe un correo válido.' : undefined;
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
      const identities = (await tx.query<{ provider: string }>(`select provider from auth.identities where user_id = $1`, [user.id])).rows.map(
        (r) => r.provider,
      );
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
