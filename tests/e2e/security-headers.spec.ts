/**
 * The security headers of the production server (scripts/serve.mjs, src/server/security-headers.ts)
 * on every kind of answer, and pages that run under the Content-Security-Policy without a single
 * violation: the catalogue, search, the account signed in and a whole purchase.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { expect as baseExpect, test, type APIResponse, type Page, expectConsoleError } from './fixtures';
import { checkProdDeps, serverEntries } from '../../scripts/check-prod-deps.mjs';
import { AuthPage, SHOPPER, signInAs } from './pages/auth';
import { addFromProductPage, CheckoutPage } from './pages/checkout';

// Hydration and the local stack are slow on a busy 2-core machine.
const expect = baseExpect.configure({ timeout: 15_000 });

const PRODUCT = 'pk-blister-journey-together';
const STACK_PORT = process.env.E2E_SUPABASE_PORT || '54329';

/** The CSP as a map of directive → sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name!, values];
    }),
  );
}

/** Hashes of the executable inline scripts of a page, computed independently of the server. */
function inlineHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attrs, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc=/.test(attrs!) || /type="application\/(ld\+)?json"/.test(attrs!) || !body) continue;
    hashes.add(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  }
  return [...hashes].sort();
}

/** The headers every answer carries; `pays` for the checkout's pages, the only ones allowed to load the payment providers. */
function expectSecurityHeaders(res: APIResponse, pays = false): Map<string, string[]> {
  const headers = res.headers();
  expect(headers['x-content-type-options'], res.url()).toBe('nosniff');
  expect(headers['referrer-policy'], res.url()).toBe('strict-origin-when-cross-origin');
  expect(headers['x-frame-options'], res.url()).toBe('DENY');
  expect(headers['permissions-policy'], res.url()).toBe(
    pays
      ? 'payment=(self "https://js.stripe.com" "https://www.paypal.com"), camera=(), microphone=(), geolocation=()'
      : 'payment=(), camera=(), microphone=(), geolocation=()',
  );
  // The e2e shop runs on http://127.0.0.1, so no HSTS.
  expect(headers['strict-transport-security'], res.url()).toBeUndefined();
  const csp = directives(headers['content-security-policy'] ?? '');
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'self'"]);
  expect(csp.get('form-action')).toEqual(["'self'"]);
  expect(csp.get('connect-src')).toEqual(expect.arrayContaining([`http://127.0.0.1:${STACK_PORT}`, `ws://127.0.0.1:${STACK_PORT}`]));
  expect(csp.get('img-src')).toContain(`http://127.0.0.1:${STACK_PORT}`);
  expect(csp.get('script-src')).toContain("'self'");
  expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
  if (pays) {
    expect(csp.get('connect-src'), res.url()).toContain('https://api.stripe.com');
    expect(csp.get('script-src'), res.url()).toEqual(expect.arrayContaining(['https://js.stripe.com', 'https://www.paypal.com']));
    expect(csp.get('frame-src'), res.url()).toEqual(expect.arrayContaining(['https://js.stripe.com', 'https://www.paypal.com']));
  } else {
    // Nothing from another origin but the Supabase project: no payment provider's script, frame or API.
    for (const directive of ['script-src', 'connect-src', 'img-src']) {
      expect(
        csp.get(directive)!.filter((source) => /^https?:|^wss?:/.test(source) && !source.includes(`127.0.0.1:${STACK_PORT}`)),
        `${res.url()} ${directive}`,
      ).toEqual([]);
    }
    expect(csp.get('frame-src'), res.url()).toEqual(["'none'"]);
  }
  return csp;
}

test.describe('security headers', () => {
  test("every kind of answer carries them, an HTML page allows exactly its own inline scripts, and only the checkout's pages the payment providers", async ({
    request,
  }) => {
    for (const url of [
      '/',
      `/product/${PRODUCT}`,
      '/franchise/pokemon/product-types',
      '/explore?franquicia=pokemon',
      '/checkout/summary',
      '/producto-que-no-existe',
    ]) {
      const res = await request.get(url);
      expect(res.status(), url).toBe(url === '/producto-que-no-existe' ? 404 : 200);
      expect(res.headers()['content-type'], url).toContain('text/html');
      const csp = expectSecurityHeaders(res, url.startsWith('/checkout'));
      const hashes = (csp.get('script-src') ?? []).filter((source) => source.startsWith("'sha256-")).sort();
      expect(hashes, url).toEqual(inlineHashes(await res.text()));
    }
    const api = await request.get('/api/admin/rebuild');
    expect(api.status()).toBe(401);
    expect(api.headers()['content-type']).toContain('application/json');
    expectSecurityHeaders(api);

    const home = await (await request.get('/')).text();
    // A hashed asset big enough to be compressed: the islands' React renderer (stylesheets are
    // inlined into the pages, and the small page scripts stay under the compression threshold).
    const asset = /renderer-url="(\/_astro\/[^"]+\.js)"/.exec(home)?.[1];
    expect(asset).toBeTruthy();
    const file = await request.get(asset!, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(file.status()).toBe(200);
    expect(file.headers()['content-encoding']).toBe('br');
    expectSecurityHeaders(file);
    const gzip = await request.get(asset!, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers()['content-encoding']).toBe('gzip');
    const image = await request.get('/favicon.svg');
    expect(image.headers()['content-type']).toContain('image/svg+xml');
    expectSecurityHeaders(image);
  });

  test('the served build imports production packages only', () => {
    const outDir = path.resolve(process.env.ASTRO_OUT_DIR || 'dist-e2e');
    const { problems, files } = checkProdDeps({ entries: serverEntries(outDir) });
    expect(problems).toEqual([]);
    expect(files.length).toBeGreaterThan(3);
  });
});

/** Collects CSP violations: console messages and securitypolicyviolation events, on every page. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(`console ${page.url()}: ${message.text()}`);
  });
  await page.exposeFunction('reportCspViolation', (line: string) => violations.push(line));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (line: string) => void }).reportCspViolation;
      report(`${location.pathname}: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`);
    });
  });
  return violations;
}

test.describe('pages under the Content-Security-Policy', () => {
  test('the catalogue, search, sign-in, the account and a purchase log no violation', async ({ page }) => {
    test.setTimeout(120_000);
    const violations = await watchViolations(page);

    await page.goto('/');
    // The header search hydrates on focus and downloads its index.
    const search = page.getByRole('banner').getByRole('search').getByPlaceholder('Buscar productos...');
    await search.click();
    await search.fill('pika');
    await expect(page.getByRole('listbox', { name: 'Productos sugeridos' }).getByRole('option').first()).toBeVisible();

    await page.goto('/franchise/pokemon/expansions/journey-together/products');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.goto('/explore?franchise=pokemon');
    await expect(page.getByRole('main').locator('a[href^="/product/"]').first()).toBeVisible();

    // A product page: the buy box hydrates on interaction, adds to the cart (realtime stock too).
    await addFromProductPage(page, PRODUCT);

    // /auth, then the demo shopper's account (profile, orders, addresses over REST and realtime).
    const auth = new AuthPage(page);
    await auth.goto();
    await signInAs(page, SHOPPER.email, SHOPPER.password);
    for (const tab of ['Pedidos', 'Direcciones']) {
      await page.getByRole('tab', { name: tab }).click();
      await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
    }

    // The checkout through the simulated card to the confirmation.
    const checkout = new CheckoutPage(page);
    await checkout.gotoSummary();
    await expect(checkout.row(PRODUCT)).toBeVisible();
    await checkout.continueButton.click();
    await checkout.orderIdFromUrl();
    await page.getByRole('button', { name: 'Usar esta dirección' }).click();
    await expect(page.getByRole('heading', { name: 'Confirmar tu pago' })).toBeVisible();
    await checkout.payWithCard('4242424242424242');
    await expect(page.getByRole('heading', { name: 'Gracias por tu compra' })).toBeVisible();

    expect(violations).toEqual([]);
  });

  test('an inline script injected into a page does not run', async ({ page }) => {
    expectConsoleError(page, /Content Security Policy/); // the blocked script is the point
    const violations = await watchViolations(page);
    await page.goto('/faq');
    // An inline script injected into the page (as an XSS would) does not run.
    const ran = await page.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.__inyectado = true;';
      document.body.append(script);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return (window as unknown as { __inyectado?: boolean }).__inyectado === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => violations.some((line) => line.includes('script-src'))).toBe(true);
  });
});
