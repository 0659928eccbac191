/**
 * Supabase Auth (GoTrue) compatible endpoints under /auth/v1: e-mail sign-up with
 * confirmation, password and refresh-token grants, the user endpoint, sign-out, password
 * recovery, e-mail links, the admin API, and a local stand-in for Google sign-in. State lives
 * in the `auth` schema; e-mails go to the local mailbox. Each concern has its module in auth/;
 * this one maps the routes to them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Handler, StackContext } from './types.ts';
import { handleAdmin } from './auth/admin.ts';
import { AuthError, authHeaders, sendAuthError, sendAuthJson } from './auth/errors.ts';
import { recover, resend, verifyGet, verifyPost } from './auth/links.ts';
import { authorize, googleCallback } from './auth/oauth.ts';
import { signup } from './auth/signup.ts';
import { token } from './auth/token.ts';
import { getUser, logout, updateUser } from './auth/user.ts';

/** One endpoint: the request, the response, the request URL and the stack. */
export type AuthRoute = (req: IncomingMessage, res: ServerResponse, url: URL, ctx: StackContext) => Promise<void>;

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

/** The public endpoints by `METHOD /path` (the admin API has its own table in auth/admin.ts). */
const ROUTES = new Map<string, AuthRoute>([
  ['GET /health', async (req, res) => sendAuthJson(req, res, 200, { version: 'local', name: 'GoTrue', description: 'GoTrue compatible local auth' })],
  ['GET /settings', async (req, res, _url, ctx) => sendAuthJson(req, res, 200, settings(ctx))],
  ['POST /signup', signup],
  ['POST /token', token],
  ['GET /user', getUser],
  ['PUT /user', updateUser],
  ['POST /logout', logout],
  ['POST /recover', recover],
  ['POST /resend', resend],
  ['GET /verify', verifyGet],
  ['POST /verify', verifyPost],
  ['GET /authorize', authorize],
  ['POST /callback', googleCallback],
]);

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
    const route = ROUTES.get(`${method} ${path}`);
    if (!route) throw new AuthError(404, 'not_found', 'Not found');
    return await route(req, res, url, ctx);
  } catch (err) {
    if (err instanceof AuthError) {
      sendAuthError(req, res, err);
      return;
    }
    throw err;
  }
};
