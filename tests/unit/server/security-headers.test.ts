import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import compression from 'compression';
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentCompression } from '~/server/document-compression.ts';
import {
  applySecurityHeaders,
  type ApplyOptions,
  contentSecurityPolicy,
  inlineScriptHashes,
  securityHeaders,
  supabaseOrigins,
  takesPayments,
} from '~/server/security-headers.ts';

const LOCAL = { siteUrl: 'http://localhost:4321', supabaseUrl: 'http://127.0.0.1:54321' };
const HOSTED = { siteUrl: 'https://cartas.mx', supabaseUrl: 'https://abcd.supabase.co' };

/** The CSP as a map of directive → sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name!, values];
    }),
  );
}

const sha = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;

describe('supabaseOrigins', () => {
  it('maps an http project to ws for realtime', () => {
    expect(supabaseOrigins('http://127.0.0.1:54321')).toEqual({ http: 'http://127.0.0.1:54321', ws: 'ws://127.0.0.1:54321' });
  });

  it('maps an https project to wss and drops any path', () => {
    expect(supabaseOrigins('https://abcd.supabase.co/rest/v1/')).toEqual({ http: 'https://abcd.supabase.co', ws: 'wss://abcd.supabase.co' });
  });
});

describe('contentSecurityPolicy', () => {
  it('allows the shop, Supabase, Stripe and PayPal and nothing else', () => {
    const csp = directives(contentSecurityPolicy(HOSTED));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(
      expect.arrayContaining([
        "'self'",
        'https://js.stripe.com',
        'https://www.paypal.com',
        'https://*.paypal.com',
        'https://www.sandbox.paypal.com',
        'https://*.paypalobjects.com',
      ]),
    );
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
    expect(csp.get('script-src')).not.toContain("'unsafe-eval'");
    expect(csp.get('connect-src')).toEqual(
      expect.arrayContaining(["'self'", 'https://abcd.supabase.co', 'wss://abcd.supabase.co', 'https://api.stripe.com', 'https://www.paypal.com']),
    );
    expect(csp.get('img-src')).toEqual(expect.arrayContaining(["'self'", 'https://abcd.supabase.co', 'https://*.paypalobjects.com']));
    expect(csp.get('frame-src')).toEqual(
      expect.arrayContaining(['https://js.stripe.com', 'https://hooks.stripe.com', 'https://www.paypal.com', 'https://www.sandbox.paypal.com']),
    );
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    // Only inline styles are allowed inline.
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it('uses ws for a local http stack and no upgrade-insecure-requests over http', () => {
    const csp = directives(contentSecurityPolicy(LOCAL));
    expect(csp.get('connect-src')).toEqual(expect.arrayContaining(['http://127.0.0.1:54321', 'ws://127.0.0.1:54321']));
    expect(csp.get('connect-src')).not.toContain('wss://127.0.0.1:54321');
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    expect(directives(contentSecurityPolicy(HOSTED)).has('upgrade-insecure-requests')).toBe(true);
  });

  it('adds each inline script hash once', () => {
    const csp = directives(contentSecurityPolicy({ ...LOCAL, scriptHashes: ['sha256-abc=', 'sha256-abc=', 'sha256-def='] }));
    expect(csp.get('script-src')!.filter((source) => source.startsWith("'sha256-"))).toEqual(["'sha256-abc='", "'sha256-def='"]);
  });
});

describe('securityHeaders', () => {
  it('allows no payment provider on a page that does not pay', () => {
    const csp = directives(contentSecurityPolicy({ ...HOSTED, payments: false, scriptHashes: ['sha256-abc='] }));
    expect(csp.get('script-src')).toEqual(["'self'", "'sha256-abc='"]);
    expect(csp.get('connect-src')).toEqual(["'self'", 'https://abcd.supabase.co', 'wss://abcd.supabase.co']);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'https://abcd.supabase.co']);
    expect(csp.get('frame-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(securityHeaders({ ...HOSTED, payments: false })['Permissions-Policy']).toBe('payment=(), camera=(), microphone=(), geolocation=()');
  });

  it('sends HSTS only when SITE_URL is https', () => {
    expect(securityHeaders(HOSTED)['Strict-Transport-Security']).toBe('max-age=63072000; includeSubDomains');
    expect(securityHeaders(LOCAL)).not.toHaveProperty('Strict-Transport-Security');
  });

  it('sets the fixed headers', () => {
    const headers = securityHeaders(LOCAL);
    expect(headers['X-Content-Type-Options']).toBe('nosniff');
    expect(headers['Referrer-Policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['X-Frame-Options']).toBe('DENY');
    expect(headers['Permissions-Policy']).toBe('payment=(self "https://js.stripe.com" "https://www.paypal.com"), camera=(), microphone=(), geolocation=()');
    expect(headers['Content-Security-Policy']).toContain("frame-ancestors 'none'");
  });
});

describe('takesPayments', () => {
  it('is true for the checkout and its pages only', () => {
    for (const url of ['/checkout', '/checkout/', '/checkout/summary', '/checkout/ord_123?pago=ok', '/checkout?x=1'])
      expect(takesPayments(url), url).toBe(true);
    for (const url of ['/', '/explore?q=checkout', '/checkoutx', '/product/pk-1', '/account', '/api/create-payment-intent', '/media/checkout/a.png', undefined])
      expect(takesPayments(url), String(url)).toBe(false);
  });
});

describe('inlineScriptHashes', () => {
  it('hashes executable inline scripts and skips data blocks and external scripts', () => {
    const html = [
      '<script>(()=>{console.log(1)})();</script>',
      '<script type="module">import "/a.js";</script>',
      '<script type="application/ld+json">{"@context":"https://schema.org"}</script>',
      '<script type="module" src="/_astro/x.js"></script>',
      "<SCRIPT type='text/javascript'>\nvar x = '<b>';\n</SCRIPT>",
      '<script type="application/json" id="data">{}</script>',
    ].join('');
    expect(inlineScriptHashes(html)).toEqual([sha('(()=>{console.log(1)})();'), sha('import "/a.js";'), sha("\nvar x = '<b>';\n")]);
  });

  it('hashes the exact UTF-8 text between the tags', () => {
    expect(inlineScriptHashes('<script>alert("¿Listo?")</script>')).toEqual([sha('alert("¿Listo?")')]);
  });
});

describe('applySecurityHeaders on a server', () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  const page = `<!doctype html><html><head><script>window.a=1</script></head><body>${'<p>Hola</p>'.repeat(200)}<script type="application/ld+json">{}</script></body></html>`;

  /** A server like scripts/serve.mjs: compression, then the headers, then the handler. */
  async function serve(handler: http.RequestListener, documents?: DocumentCompression, rewriteHtml?: ApplyOptions['rewriteHtml']): Promise<string> {
    const compress = compression();
    const server = http.createServer((req, res) => {
      compress(req as never, res as never, () => {
        const options: ApplyOptions = documents ? { ...LOCAL, finishHtml: (q, r, body) => documents.finish(q, r, body) } : { ...LOCAL };
        applySecurityHeaders(req, res, rewriteHtml ? { ...options, rewriteHtml } : options);
        handler(req, res);
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** GET with a raw Node request, so the body can be decoded by hand. */
  function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      http
        .get(url, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });
  }

  it('puts the hashes of a streamed HTML page in its policy and still compresses it with brotli', async () => {
    const url = await serve((_req, res) => {
      // Like the Astro handler: writeHead with the headers, then the body in pieces.
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.write(page.slice(0, 40));
      res.write(Buffer.from(page.slice(40, 100)));
      res.end(page.slice(100));
    });
    const res = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(res.body).toString('utf8')).toBe(page);
    const csp = directives(String(res.headers['content-security-policy']));
    expect(csp.get('script-src')).toContain(`'${sha('window.a=1')}'`);
    expect(csp.get('script-src')!.filter((source) => source.startsWith("'sha256-"))).toHaveLength(1);
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('sends a page as rewriteHtml makes it, with the hashes of its inline scripts as sent and its new length', async () => {
    const body = `<!doctype html><html><head><script>window.a=1</script></head><body><p>Hola</p><script type="module" src="/_astro/a.js"></script></body></html>`;
    const url = await serve(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)) });
        res.end(body);
      },
      undefined,
      (req, html) =>
        req.url === '/product/pk-1' ? html.replace('<script type="module" src="/_astro/a.js"></script>', '<script>window.b="¿2?"</script>') : html,
    );
    const product = await get(`${url}/product/pk-1`);
    const sent = product.body.toString('utf8');
    expect(sent).toBe(body.replace('<script type="module" src="/_astro/a.js"></script>', '<script>window.b="¿2?"</script>'));
    expect(Number(product.headers['content-length'])).toBe(product.body.length);
    const scriptSrc = directives(String(product.headers['content-security-policy'])).get('script-src');
    expect(scriptSrc).toEqual(["'self'", `'${sha('window.a=1')}'`, `'${sha('window.b="¿2?"')}'`]);
    // Any other page goes out as the handler wrote it.
    const other = await get(`${url}/cart`);
    expect(other.body.toString('utf8')).toBe(body);
    expect(Number(other.headers['content-length'])).toBe(Buffer.byteLength(body));
    expect(directives(String(other.headers['content-security-policy'])).get('script-src')).toEqual(["'self'", `'${sha('window.a=1')}'`]);
  });

  it("allows the payment providers on the checkout's pages and nowhere else", async () => {
    const url = await serve((_req, res) => {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(page);
    });
    const checkout = await get(`${url}/checkout/summary`);
    expect(directives(String(checkout.headers['content-security-policy'])).get('script-src')).toContain('https://js.stripe.com');
    expect(checkout.headers['permissions-policy']).toContain('payment=(self "https://js.stripe.com" "https://www.paypal.com")');
    const product = await get(`${url}/product/pk-1`);
    const csp = directives(String(product.headers['content-security-policy']));
    expect(csp.get('script-src')).toEqual(["'self'", `'${sha('window.a=1')}'`]);
    expect(csp.get('frame-src')).toEqual(["'none'"]);
    expect(product.headers['permissions-policy']).toBe('payment=(), camera=(), microphone=(), geolocation=()');
  });

  it("sends a page asked for again as its copy compressed at brotli's best quality, with the same policy", async () => {
    const documents = new DocumentCompression();
    // Prose rather than a repeated line, so the qualities compress it differently.
    const words = Array.from({ length: 3000 }, (_, i) => ['carta', 'sobre', 'caja', 'Pikachu', 'Luffy', 'holo', 'NM', String(i * 7919)][(i * 31) % 8]);
    const prose = `<!doctype html><html><head><script>window.a=1</script></head><body><p>${words.join(' ')}</p></body></html>`;
    const url = await serve((_req, res) => {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(prose);
    }, documents);
    const first = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    await documents.settled();
    const third = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    for (const res of [first, third]) {
      expect(res.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(res.body).toString('utf8')).toBe(prose);
      expect(res.headers['content-security-policy']).toContain(sha('window.a=1'));
      expect(res.headers.vary).toBe('Accept-Encoding');
    }
    expect(third.body.length).toBeLessThan(first.body.length);
    expect(Number(third.headers['content-length'])).toBe(third.body.length);
    // A browser without brotli still gets the page, compressed by the middleware.
    const gzip = await get(url, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.body).toString('utf8')).toBe(prose);
  });

  it('uses gzip when brotli is not accepted and leaves uncompressible types alone', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/image.png') {
        res.setHeader('Content-Type', 'image/png');
        res.end(Buffer.alloc(4096, 1));
        return;
      }
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(page);
    });
    const html = await get(url, { 'accept-encoding': 'gzip' });
    expect(html.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(html.body).toString('utf8')).toBe(page);
    const png = await get(`${url}/image.png`, { 'accept-encoding': 'gzip, br' });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.body.length).toBe(4096);
    expect(png.headers['x-content-type-options']).toBe('nosniff');
    expect(png.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('streams other answers untouched, with the policy and no hashes', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(201, 'Creado', [['Content-Type', 'application/json']]);
      res.end('{"ok":true}');
    });
    const res = await get(url);
    expect(res.status).toBe(201);
    expect(res.body.toString()).toBe('{"ok":true}');
    expect(res.headers['content-security-policy']).not.toContain('sha256-');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('keeps Content-Length right for an uncompressed HTML file and sends no policy with a 304', async () => {
    const url = await serve((req, res) => {
      if (req.headers['if-none-match'] === '"v1"') {
        res.statusCode = 304;
        res.end();
        return;
      }
      res.setHeader('Content-Type', 'text/html');
      res.setHeader('Content-Length', Buffer.byteLength(page));
      res.setHeader('ETag', '"v1"');
      res.end(page);
    });
    const full = await get(url);
    expect(Number(full.headers['content-length'])).toBe(full.body.length);
    expect(full.body.toString()).toBe(page);
    expect(full.headers['content-security-policy']).toContain(sha('window.a=1'));
    const again = await get(url, { 'if-none-match': '"v1"' });
    expect(again.status).toBe(304);
    // A browser would merge a 304's policy into the cached page's; the page keeps its own.
    expect(again.headers['content-security-policy']).toBeUndefined();
    expect(again.headers['x-content-type-options']).toBe('nosniff');
  });
});
