/** The admin API (service role only), as the server's supabase-js admin client calls it. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hashPassword } from './password.ts';
import { z } from 'zod';
import type { Tx } from '../db.ts';
import { verifyJwt } from '../jwt.ts';
import type { StackContext } from '../types.ts';
import {
  applyEmailChange,
  checkPasswordStrength,
  createUser,
  inAuthTx,
  mergeMetadata,
  metadataSchema,
  newLinkToken,
  parseEmail,
  readAuthJson,
  redirectTarget,
  userResponse,
  verifyLink,
} from './common.ts';
import { AuthError, sendAuthJson } from './errors.ts';
import { findUserByEmail, findUserById, isUuid, type UserRow } from './users.ts';

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

async function adminUpdate(tx: Tx, user: UserRow, body: z.infer<typeof adminUserBody>, passwordHash: string | undefined): Promise<void> {
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

/** GET /admin/users: a page of users (`page`, `per_page`), with GoTrue's total and Link headers. */
async function listUsers(req: IncomingMessage, res: ServerResponse, url: URL, ctx: StackContext): Promise<void> {
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
}

/** POST /admin/users: creates a user, confirmed or not, with metadata. */
async function createUserRoute(req: IncomingMessage, res: ServerResponse, _url: URL, ctx: StackContext): Promise<void> {
  const body = await readAuthJson(req, adminUserBody);
  const email = parseEmail(body.email);
  if (body.password) checkPasswordStrength(body.password);
  const passwordHash = body.password ? await hashPassword(body.password) : null;
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
}

/** GET /admin/users/:id */
async function getUserById(req: IncomingMessage, res: ServerResponse, id: string, ctx: StackContext): Promise<void> {
  const json = await ctx.db.admin(async (tx) => {
    const u = await findUserById(tx, id);
    if (!u) throw userNotFound();
    return userResponse(tx, u);
  });
  sendAuthJson(req, res, 200, json);
}

/** PUT /admin/users/:id: changes e-mail, password, metadata, confirmation or ban. */
async function updateUserById(req: IncomingMessage, res: ServerResponse, id: string, ctx: StackContext): Promise<void> {
  const body = await readAuthJson(req, adminUserBody);
  if (body.password) checkPasswordStrength(body.password);
  const passwordHash = body.password ? await hashPassword(body.password) : undefined;
  const json = await inAuthTx(ctx, async (tx) => {
    const u = await findUserById(tx, id);
    if (!u) throw userNotFound();
    await adminUpdate(tx, u, body, passwordHash);
    return userResponse(tx, (await findUserById(tx, id))!);
  });
  sendAuthJson(req, res, 200, json);
}

/** DELETE /admin/users/:id */
async function deleteUserById(req: IncomingMessage, res: ServerResponse, id: string, ctx: StackContext): Promise<void> {
  const json = await inAuthTx(ctx, async (tx) => {
    const u = await findUserById(tx, id);
    if (!u) throw userNotFound();
    const out = await userResponse(tx, u);
    await tx.query(`delete from auth.users where id = $1`, [id]);
    return out;
  });
  sendAuthJson(req, res, 200, json);
}

/** POST /admin/generate_link: a signup, magic-link or recovery link, returned instead of e-mailed. */
async function generateLink(req: IncomingMessage, res: ServerResponse, url: URL, ctx: StackContext): Promise<void> {
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
  const passwordHash = body.password ? await hashPassword(body.password) : null;
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
}

type AdminRoute = (req: IncomingMessage, res: ServerResponse, url: URL, ctx: StackContext) => Promise<void>;
type AdminUserRoute = (req: IncomingMessage, res: ServerResponse, id: string, ctx: StackContext) => Promise<void>;

/** The admin endpoints by `METHOD /path`. */
const ADMIN_ROUTES = new Map<string, AdminRoute>([
  ['GET /admin/users', listUsers],
  ['POST /admin/users', createUserRoute],
  ['POST /admin/generate_link', generateLink],
]);

/** The endpoints of one user, `/admin/users/:id`, by method. */
const ADMIN_USER_ROUTES = new Map<string, AdminUserRoute>([
  ['GET', getUserById],
  ['PUT', updateUserById],
  ['DELETE', deleteUserById],
]);

/** Answers /auth/v1/admin/*: the service role only; a malformed user id is a user not found. */
export async function handleAdmin(req: IncomingMessage, res: ServerResponse, path: string, url: URL, ctx: StackContext): Promise<void> {
  await requireServiceRole(req, ctx);
  const method = req.method ?? 'GET';
  const m = /^\/admin\/users\/([^/]+)$/.exec(path);
  if (m) {
    const id = decodeURIComponent(m[1]!);
    if (!isUuid(id)) throw userNotFound();
    const userRoute = ADMIN_USER_ROUTES.get(method);
    if (userRoute) return userRoute(req, res, id, ctx);
  }
  const route = ADMIN_ROUTES.get(`${method} ${path}`);
  if (!route) throw new AuthError(404, 'not_found', 'Not found');
  return route(req, res, url, ctx);
}
