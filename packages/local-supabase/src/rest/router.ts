/**
 * PostgREST-compatible `/rest/v1`: reads, writes and RPC for supabase-js. Each request is
 * one transaction as the JWT's role with its claims set, so the migrations' grants and
 * row-level security decide what the caller may see and change. This is the routing: who calls,
 * which table or function, and how anything thrown becomes a PostgREST error.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeJwt, jwtVerify } from 'jose';
import type { Role } from '../db.ts';
import { callerFromRequest, HttpError, type Caller } from '../http.ts';
import { InvalidIdentifierError } from '../sql.ts';
import type { Handler, StackContext } from '../types.ts';
import { fromPgError, isPgError, RestError, syntaxError } from './errors.ts';
import { parsePrefer } from './prefer.ts';
import { readTable } from './read.ts';
import { OBJECT_MEDIA, sendError } from './reply.ts';
import type { RestRequest } from './request.ts';
import { callRpc } from './rpc.ts';
import { loadSchema, refreshIfStale, type Schema, type Table } from './schema.ts';
import { insertRows, updateOrDeleteRows } from './write.ts';

/** Longest query string accepted; PostgREST sits behind proxies with similar limits. */
const MAX_QUERY_LENGTH = 64 * 1024;

/** The table a path names, reading the schema again once when it is not there yet (PGRST205). */
async function findTable(ctx: StackContext, schema: Schema, name: string): Promise<{ schema: Schema; table: Table }> {
  let table = schema.tables.get(name);
  if (!table) {
    schema = await refreshIfStale(ctx.db, schema);
    table = schema.tables.get(name);
  }
  if (!table) {
    throw new RestError(404, 'PGRST205', `Could not find the table 'public.${name}' in the schema cache`, null, null);
  }
  return { schema, table };
}

/** Checks the request's profile and path, then hands it to the read, write or RPC route. */
async function route(req: IncomingMessage, res: ServerResponse, path: string, url: URL, ctx: StackContext, caller: Caller): Promise<void> {
  const method = req.method ?? 'GET';
  const readOnly = method === 'GET' || method === 'HEAD';
  const profile = readOnly ? req.headers['accept-profile'] : req.headers['content-profile'];
  if (profile !== undefined && profile !== 'public') {
    throw new RestError(406, 'PGRST106', 'Invalid schema: ' + String(profile).slice(0, 80), null, 'Only the following schemas are exposed: public');
  }
  if ((req.url ?? '').length > MAX_QUERY_LENGTH) throw new RestError(414, 'PGRST100', 'URI too long');
  const accept = String(req.headers.accept ?? '');
  const objectMode = accept.includes(OBJECT_MEDIA);
  const prefer = parsePrefer(req.headers.prefer);

  let segments: string[];
  try {
    segments = path
      .split('/')
      .filter(Boolean)
      .map((s) => decodeURIComponent(s));
  } catch {
    throw syntaxError('Invalid path encoding');
  }
  let schema = await loadSchema(ctx.db);
  const role: Role = caller.role;
  const claims = caller.claims as Record<string, unknown>;
  const rq: RestRequest = { req, res, url, ctx, method, readOnly, objectMode, prefer, role, claims };

  if (segments.length === 2 && segments[0] === 'rpc') {
    await callRpc(rq, schema, segments[1]!);
    return;
  }

  if (segments.length !== 1) {
    throw new RestError(404, 'PGRST125', `Invalid path specified in request URL`, null, null);
  }
  const found = await findTable(ctx, schema, segments[0]!);
  schema = found.schema;
  const table = found.table;

  if (readOnly) {
    await readTable(rq, schema, table);
    return;
  }
  if (method === 'POST') {
    await insertRows(rq, schema, table);
    return;
  }
  if (method === 'PATCH' || method === 'DELETE') {
    await updateOrDeleteRows(rq, schema, table);
    return;
  }

  throw new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method.slice(0, 20)}`, null, null);
}

/** Maps anything thrown while answering to a PostgREST-shaped error. */
function toRestError(err: unknown, role: Role): RestError | null {
  if (err instanceof RestError) return err;
  if (err instanceof InvalidIdentifierError) return syntaxError('Invalid identifier');
  if (err instanceof HttpError) {
    const b = err.body;
    return new RestError(
      err.status,
      String(b.code ?? err.status),
      String(b.message ?? 'Error'),
      (b.details as string | null) ?? null,
      (b.hint as string | null) ?? null,
    );
  }
  if (isPgError(err)) return fromPgError(err, role);
  return null;
}

/** True when the request's token is correctly signed but past its `exp` (PGRST303, not 301). */
async function isExpiredToken(req: IncomingMessage, secret: string): Promise<boolean> {
  const auth = req.headers.authorization;
  const bearer = typeof auth === 'string' && /^bearer /i.test(auth) ? auth.slice(7).trim() : undefined;
  const token = bearer || (typeof req.headers.apikey === 'string' ? req.headers.apikey : undefined);
  if (!token) return false;
  try {
    const exp = decodeJwt(token).exp;
    if (typeof exp !== 'number' || exp * 1000 > Date.now()) return false;
    await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'], currentDate: new Date((exp - 1) * 1000) });
    return true;
  } catch {
    return false;
  }
}

/** Answers every /rest/v1 request. */
export const handleRest: Handler = async (req, res, path, url, ctx) => {
  const caller = await callerFromRequest(req, ctx);
  if (!caller) {
    const expired = await isExpiredToken(req, ctx.config.jwtSecret);
    sendError(
      req,
      res,
      expired
        ? new RestError(401, 'PGRST303', 'JWT expired', null, null, {
            'www-authenticate': 'Bearer error="invalid_token", error_description="JWT expired"',
          })
        : new RestError(401, 'PGRST301', 'JWT could not be decoded or is invalid', null, null, {
            'www-authenticate': 'Bearer error="invalid_token", error_description="JWT could not be decoded"',
          }),
    );
    return;
  }
  try {
    await route(req, res, path, url, ctx, caller);
  } catch (err) {
    const restErr = toRestError(err, caller.role);
    if (!restErr) throw err;
    sendError(req, res, restErr);
  }
};
