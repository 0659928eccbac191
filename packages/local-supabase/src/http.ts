/** Small HTTP helpers shared by the local stack's protocol modules. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JWTPayload } from 'jose';
import { verifyJwt } from './jwt.ts';
import type { Role } from './db.ts';
import type { StackContext } from './types.ts';

/** Largest request body accepted (uploads included). */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message ?? body.msg ?? body.error ?? status));
  }
}

/** Writes a JSON response (with CORS headers, as Supabase sends them). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    ...corsHeaders(),
    ...headers,
  });
  res.end(text);
}

/**
 * CORS headers that let the shop's pages (another origin) call the stack. The allowed origin
 * itself is set per request by the router (server.ts), only for the shop's own origins.
 */
export function corsHeaders(): Record<string, string> {
  return {
    'access-control-allow-headers':
      'authorization, x-client-info, apikey, content-type, prefer, range, accept, accept-profile, content-profile, x-supabase-api-version, x-upsert, cache-control',
    'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD',
    'access-control-expose-headers': 'content-range, content-location, x-total-count',
  };
}

/** Reads the whole body, refusing more than `limit` bytes with a 413 HttpError. */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  // An announced size over the limit is refused before waiting for bytes that may never come.
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    throw new HttpError(413, { code: '413', message: 'Payload too large' });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) throw new HttpError(413, { code: '413', message: 'Payload too large' });
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/** Parses a JSON body; an empty body gives `fallback`; bad JSON gives a 400 HttpError. */
export async function readJson<T = unknown>(req: IncomingMessage, fallback?: T): Promise<T> {
  const raw = await readBody(req);
  if (raw.length === 0) {
    if (fallback !== undefined) return fallback;
    throw new HttpError(400, { code: 'PGRST102', message: 'Empty or invalid json', details: null, hint: null });
  }
  try {
    return JSON.parse(raw.toString('utf8')) as T;
  } catch {
    throw new HttpError(400, { code: 'PGRST102', message: 'Empty or invalid json', details: null, hint: null });
  }
}

export interface Caller {
  role: Role;
  claims: JWTPayload & Record<string, unknown>;
  /** The raw bearer token, when one was sent. */
  token?: string;
}

/**
 * Who is calling: the JWT in `Authorization: Bearer` (else the `apikey` header), verified
 * with the stack's secret. No token → anon. A bad or expired token → null (the caller
 * answers 401), as PostgREST does.
 */
export async function callerFromRequest(req: IncomingMessage, ctx: StackContext): Promise<Caller | null> {
  const auth = req.headers.authorization;
  const bearer = typeof auth === 'string' && /^bearer /i.test(auth) ? auth.slice(7).trim() : undefined;
  const apikey = typeof req.headers.apikey === 'string' ? req.headers.apikey : undefined;
  const token = bearer || apikey;
  if (!token) return { role: 'anon', claims: { role: 'anon' } };
  const claims = await verifyJwt(token, ctx.config.jwtSecret);
  if (!claims) return null;
  const role = claims.role;
  if (role !== 'anon' && role !== 'authenticated' && role !== 'service_role') return null;
  return { role, claims: claims as Caller['claims'], token };
}

/** True for an address of this machine (127.0.0.0/8, ::1, or IPv4-mapped 127.x). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.replace(/^::ffff:/i, '');
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/**
 * True when the request comes from this machine and names it as the host: the socket's peer is
 * loopback, and the Host header is localhost or a loopback address, so a web page cannot reach
 * the stack through a DNS name that resolves to 127.0.0.1 (DNS rebinding).
 */
export function isLoopbackRequest(req: IncomingMessage): boolean {
  if (!isLoopbackAddress(req.socket.remoteAddress)) return false;
  const host = req.headers.host;
  if (typeof host !== 'string') return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return false;
  }
  return hostname === 'localhost' || hostname === '[::1]' || isLoopbackAddress(hostname);
}

/** True when the request carries the service-role key (Authorization bearer, else apikey). */
export async function isServiceRole(req: IncomingMessage, ctx: StackContext): Promise<boolean> {
  const caller = await callerFromRequest(req, ctx);
  return caller !== null && caller.role === 'service_role';
}
