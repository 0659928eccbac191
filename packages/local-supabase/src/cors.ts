/**
 * Which browser origins may call the local stack. The stack holds real sessions and a mailbox
 * with sign-in links, so any web page the developer visits must not be able to read its answers:
 * only the shop's own origins get `Access-Control-Allow-Origin`, never `*`. Requests without an
 * Origin header (the shop's server, scripts, tests) are not affected.
 */
import type { IncomingMessage } from 'node:http';

/** Normalised origin (`scheme://host[:port]`) of a URL, or undefined when it is not http(s). */
export function originOf(value: string | undefined): string | undefined {
  if (!value?.trim()) return undefined;
  try {
    const u = new URL(value.trim());
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    return u.origin;
  } catch {
    return undefined;
  }
}

/**
 * The shop's origins: its site URL (SITE_URL / LOCAL_SUPABASE_SITE_URL), the origin `npm start`
 * serves (HOST/PORT, default localhost:4321, reachable as localhost and 127.0.0.1), and the
 * comma-separated LOCAL_SUPABASE_CORS_ORIGINS.
 */
export function defaultCorsOrigins(siteUrl: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const port = env.PORT?.trim() || '4321';
  const host = env.HOST?.trim() || 'localhost';
  const candidates = [
    siteUrl,
    env.SITE_URL,
    env.LOCAL_SUPABASE_SITE_URL,
    `http://localhost:${port}`,
    `http://127.0.0.1:${port}`,
    // 0.0.0.0 and :: are listen addresses, not origins a browser sends.
    host === '0.0.0.0' || host === '::' ? undefined : `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`,
    ...(env.LOCAL_SUPABASE_CORS_ORIGINS ?? '').split(','),
  ];
  const out: string[] = [];
  for (const c of candidates) {
    const o = originOf(c);
    if (o && !out.includes(o)) out.push(o);
  }
  return out;
}

/** The request's Origin header when present (a browser's cross-origin or same-origin call). */
export function requestOrigin(req: IncomingMessage): string | undefined {
  const o = req.headers.origin;
  return typeof o === 'string' && o !== '' ? o : undefined;
}

/** True when `origin` is one of `allowed` (exact origin match; `null` and other schemes never). */
export function originAllowed(allowed: readonly string[], origin: string): boolean {
  const normalised = originOf(origin);
  return normalised !== undefined && normalised === origin.replace(/\/+$/, '') && allowed.includes(normalised);
}
