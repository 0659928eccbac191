/**
 * The shop's security headers, set by scripts/serve.mjs on every response (static files, SSR
 * pages, the API, 404s). The Content-Security-Policy allows exactly what the pages load: the shop
 * itself, the Supabase project (REST, auth and storage over http(s), realtime over ws(s), product
 * images from storage) and, on the checkout's pages alone, Stripe.js and the PayPal JS SDK with
 * their frames and APIs: every other page may not load them or open their frames. The inline
 * scripts Astro writes into a page (the island loader and the client:* directive snippets) are
 * allowed by their SHA-256 hash, computed from the very HTML being sent, so a rebuild or an SSR
 * page never needs a list kept by hand and nothing else inline can run.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What the policy depends on, read from the environment at start. */
export interface SecurityOptions {
  /** The shop's public URL (SITE_URL); https turns on HSTS and upgrade-insecure-requests. */
  siteUrl: string;
  /** The Supabase project URL (PUBLIC_SUPABASE_URL). */
  supabaseUrl: string;
  /**
   * Whether the page may pay: load Stripe.js and the PayPal JS SDK, open their frames and call
   * their APIs (default true). applySecurityHeaders answers it from the address (takesPayments).
   */
  payments?: boolean;
}

/** The checkout's pages, the only ones that load Stripe.js and the PayPal JS SDK. */
const PAYING_PATH = /^\/checkout(?:\/|$)/;

/** True for an address under /checkout (its query aside), where the shopper pays. */
export function takesPayments(url: string | undefined): boolean {
  const pathname = (url ?? '/').split(/[?#]/, 1)[0]!;
  return PAYING_PATH.test(pathname);
}

// Stripe: https://docs.stripe.com/security/guide#content-security-policy
const STRIPE_SCRIPT = ['https://js.stripe.com', 'https://*.js.stripe.com'];
const STRIPE_FRAME = ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'];
const STRIPE_CONNECT = ['https://api.stripe.com'];
// PayPal JS SDK: https://developer.paypal.com/sdk/js/csp/ (live and sandbox).
const PAYPAL = ['https://www.paypal.com', 'https://*.paypal.com', 'https://www.sandbox.paypal.com', 'https://*.paypalobjects.com'];
const PAYPAL_FRAME = ['https://www.paypal.com', 'https://*.paypal.com', 'https://www.sandbox.paypal.com'];

/** The Supabase origin for fetch and images, and the matching WebSocket origin for realtime. */
export function supabaseOrigins(supabaseUrl: string): { http: string; ws: string } {
  const url = new URL(supabaseUrl);
  const ws = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return { http: url.origin, ws: `${ws}//${url.host}` };
}

/** True when the site is served over https (SITE_URL). */
export function isHttps(siteUrl: string): boolean {
  try {
    return new URL(siteUrl).protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The Content-Security-Policy value. scriptHashes are 'sha256-…' sources for the inline scripts
 * of the page being answered (see inlineScriptHashes).
 */
export function contentSecurityPolicy(options: SecurityOptions & { scriptHashes?: Iterable<string> }): string {
  const supabase = supabaseOrigins(options.supabaseUrl);
  const hashes = [...new Set(options.scriptHashes ?? [])].map((hash) => `'${hash}'`);
  const pays = options.payments ?? true;
  const only = (sources: string[]) => (pays ? sources : []);
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...hashes, ...only([...STRIPE_SCRIPT, ...PAYPAL])]],
    // Astro inlines small stylesheets and React islands set style attributes; hashing every
    // style block and attribute is not practical, and injected CSS cannot run code, so inline
    // styles are allowed while scripts stay strict.
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:', 'blob:', supabase.http, ...only(['https://*.stripe.com', ...PAYPAL])]],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', ["'self'", supabase.http, supabase.ws, ...only([...STRIPE_CONNECT, ...PAYPAL])]],
    ['frame-src', pays ? [...STRIPE_FRAME, ...PAYPAL_FRAME] : ["'none'"]],
    ['worker-src', ["'self'", 'blob:']],
    ['manifest-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    // Sign-in with Google and the PayPal/Stripe steps are navigations or frames, not form posts.
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  if (isHttps(options.siteUrl)) directives.push(['upgrade-insecure-requests', []]);
  return directives.map(([name, values]) => [name, ...values].join(' ')).join('; ');
}

/** Every header except the Content-Security-Policy, which depends on the page. */
export function staticSecurityHeaders(options: SecurityOptions): Record<string, string> {
  const headers: Record<string, string> = {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    // The wallet buttons (Payment Request API) run in Stripe's and PayPal's frames, on the
    // checkout's pages alone.
    'Permissions-Policy': `payment=${(options.payments ?? true) ? '(self "https://js.stripe.com" "https://www.paypal.com")' : '()'}, camera=(), microphone=(), geolocation=()`,
  };
  if (isHttps(options.siteUrl)) headers['Strict-Transport-Security'] = 'max-age=63072000; includeSubDomains';
  return headers;
}

/** All the security headers for a response whose inline scripts hash to scriptHashes. */
export function securityHeaders(options: SecurityOptions & { scriptHashes?: Iterable<string> }): Record<string, string> {
  return { ...staticSecurityHeaders(options), 'Content-Security-Policy': contentSecurityPolicy(options) };
}

// Script types a browser executes (and that CSP therefore governs); JSON-LD and other data
// blocks are never run, so they need no hash.
const EXECUTABLE_TYPES = new Set([
  '',
  'module',
  'importmap',
  'speculationrules',
  'text/javascript',
  'application/javascript',
  'text/ecmascript',
  'application/ecmascript',
]);

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const TYPE_ATTR = /(?:^|\s)type\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;
const SRC_ATTR = /(?:^|\s)src\s*=/i;

/** 'sha256-…' sources for each executable inline script of an HTML document, in order. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(SCRIPT)) {
    const attrs = match[1] ?? '';
    const body = match[2] ?? '';
    if (SRC_ATTR.test(attrs)) continue;
    const typeMatch = TYPE_ATTR.exec(attrs);
    const type = (typeMatch?.[1] ?? typeMatch?.[2] ?? typeMatch?.[3] ?? '').trim().toLowerCase();
    if (!EXECUTABLE_TYPES.has(type)) continue;
    hashes.push(`sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}`);
  }
  return hashes;
}

type Writer = (...args: unknown[]) => unknown;

function isHtml(res: ServerResponse): boolean {
  const type = res.getHeader('content-type');
  return typeof type === 'string' && /^\s*text\/html\b/i.test(type);
}

function headerPairs(headers: unknown): Array<[string, string | number | readonly string[]]> {
  if (!headers || typeof headers !== 'object') return [];
  if (Array.isArray(headers)) {
    // writeHead also takes [[name, value], …] or a flat [name, value, name, value, …].
    if (headers.every((entry) => Array.isArray(entry))) return headers as Array<[string, string]>;
    const pairs: Array<[string, string]> = [];
    for (let i = 0; i + 1 < headers.length; i += 2) pairs.push([String(headers[i]), String(headers[i + 1])]);
    return pairs;
  }
  return Object.entries(headers as Record<string, string | number | readonly string[]>).filter(([, value]) => value !== undefined);
}

/** What applySecurityHeaders needs besides the policy's inputs. */
export interface ApplyOptions extends SecurityOptions {
  /**
   * Called with a whole HTML page once its policy is set; returns the bytes to send, having set
   * any headers they need (DocumentCompression.finish sends a stored brotli copy). Default: the
   * page itself.
   */
  finishHtml?: (req: IncomingMessage, res: ServerResponse, page: Buffer) => Buffer;
  /**
   * Called with a whole HTML page before its inline scripts are hashed; returns the page to send
   * (scripts/serve.mjs: a product page's scripts asked for after its first image,
   * src/server/late-scripts.ts). Default: the page itself.
   */
  rewriteHtml?: (req: IncomingMessage, page: string) => string;
}

/**
 * Sets the security headers on res. Call it before the request handler writes anything (and
 * after any compression middleware, so the HTML it reads is the uncompressed page). HTML answers
 * are held until they end, so the policy can carry the hashes of exactly their inline scripts;
 * everything else streams through untouched. A 304 carries no policy, because a browser would
 * merge it into the cached page's headers and the hashes belong to that page's body. The payment
 * providers are allowed on the checkout's pages only (takesPayments).
 */
export function applySecurityHeaders(req: IncomingMessage, res: ServerResponse, applyOptions: ApplyOptions): void {
  const { finishHtml, rewriteHtml, ...policy } = applyOptions;
  const options: SecurityOptions = { ...policy, payments: takesPayments(req.url) };
  for (const [name, value] of Object.entries(staticSecurityHeaders(options))) res.setHeader(name, value);
  res.setHeader('Content-Security-Policy', contentSecurityPolicy(options));
  // A HEAD answer has no body to hash and is never rendered.
  if (req.method === 'HEAD') return;

  const original = { writeHead: res.writeHead, write: res.write, end: res.end } as Record<'writeHead' | 'write' | 'end', Writer>;
  const restore = () => {
    res.writeHead = original.writeHead as ServerResponse['writeHead'];
    res.write = original.write as ServerResponse['write'];
    res.end = original.end as ServerResponse['end'];
  };
  const chunks: Buffer[] = [];
  let buffering: boolean | null = null;

  /** Decides once, when the status and headers are final, whether to hold the body. */
  const decide = (): boolean => {
    if (buffering !== null) return buffering;
    if (res.statusCode === 304) res.removeHeader('Content-Security-Policy');
    buffering = res.statusCode !== 304 && isHtml(res);
    if (!buffering) restore();
    return buffering;
  };
  const toBuffer = (chunk: unknown, encoding: unknown): Buffer | null => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return null;
    if (Buffer.isBuffer(chunk)) return chunk;
    if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    return Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  };

  res.writeHead = function writeHead(this: ServerResponse, status: number, ...rest: unknown[]) {
    let headers = rest[0];
    if (typeof rest[0] === 'string') {
      res.statusMessage = rest[0];
      headers = rest[1];
    }
    res.statusCode = status;
    // Headers passed here would skip setHeader; fold them in so the decision sees them.
    for (const [name, value] of headerPairs(headers)) res.setHeader(name, value);
    if (!decide()) return original.writeHead.call(res, status);
    return res;
  } as ServerResponse['writeHead'];

  res.write = function write(this: ServerResponse, chunk: unknown, encoding?: unknown, callback?: unknown) {
    if (!decide()) return original.write.call(res, chunk, encoding, callback) as boolean;
    const buffer = toBuffer(chunk, encoding);
    if (buffer) chunks.push(buffer);
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') process.nextTick(done as () => void);
    return true;
  } as ServerResponse['write'];

  res.end = function end(this: ServerResponse, chunk?: unknown, encoding?: unknown, callback?: unknown) {
    if (!decide()) return original.end.call(res, chunk, encoding, callback) as ServerResponse;
    const buffer = toBuffer(chunk, encoding);
    if (buffer) chunks.push(buffer);
    const read = Buffer.concat(chunks);
    restore();
    const html = read.toString('utf8');
    const rewritten = rewriteHtml ? rewriteHtml(req, html) : html;
    const body = rewritten === html ? read : Buffer.from(rewritten, 'utf8');
    res.setHeader('Content-Security-Policy', contentSecurityPolicy({ ...options, scriptHashes: inlineScriptHashes(rewritten) }));
    const sent = finishHtml ? finishHtml(req, res, body) : body;
    if (sent === body && res.getHeader('content-length') !== undefined) res.setHeader('Content-Length', body.length);
    const done = typeof chunk === 'function' ? chunk : typeof encoding === 'function' ? encoding : callback;
    return original.end.call(res, sent, done) as ServerResponse;
  } as ServerResponse['end'];
}
