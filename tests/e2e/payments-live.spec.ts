/**
 * Live payment mode, on the same build as the rest of the suite: a shop server with only Stripe's
 * keys (pointed at a local Stripe stub) has no PayPal and nothing simulated; one with only
 * PayPal's keys has no card payments. The payment step says so, and the endpoints answer 503/404
 * JSON. The servers are `node scripts/serve.mjs` with PAYMENTS_MODE=live, as in production.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect as baseExpect, test, type Page } from './fixtures';
import { startStripeStub, type StripeStub } from '../support/stripe-stub.ts';
import { AuthPage, stackKeys, STACK_URL } from './pages/auth';
import { shopperWithOrder } from './pages/checkout';

const expect = baseExpect.configure({ timeout: 15_000 });
const ROOT = path.resolve(import.meta.dirname, '../..');

interface LiveServer {
  url: string;
  child: ChildProcess;
  output: string[];
}

async function startLiveServer(port: string, payments: Record<string, string>): Promise<LiveServer> {
  const { anonKey, serviceRoleKey } = await stackKeys();
  const url = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'serve.mjs')], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: port,
      SITE_URL: url,
      ASTRO_OUT_DIR: process.env.ASTRO_OUT_DIR || 'dist-e2e',
      PUBLIC_SUPABASE_URL: STACK_URL,
      PUBLIC_SUPABASE_ANON_KEY: anonKey,
      SUPABASE_SERVICE_ROLE_KEY: serviceRoleKey,
      REBUILD_ON_CHANGE: '0',
      REBUILD_QUIET: '1',
      PAYMENTS_MODE: 'live',
      ...payments,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => output.push(String(chunk)));
  child.stderr!.on('data', (chunk) => output.push(String(chunk)));
  await expect
    .poll(
      async () => {
        try {
          return (await fetch(`${url}/`, { signal: AbortSignal.timeout(2000) })).status;
        } catch {
          return 0;
        }
      },
      { timeout: 60_000, message: `live server on ${port}: ${output.join('')}` },
    )
    .toBe(200);
  return { url, child, output };
}

function stop(server: LiveServer | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    server.child.once('exit', () => resolve());
    server.child.kill('SIGTERM');
  });
}

/** Signs in on the live server's own origin and opens the order's payment step. */
async function openPayment(page: Page, server: LiveServer, user: { email: string; password: string; orderId: string }) {
  // No third-party scripts offline: Stripe.js and PayPal's SDK are refused, as a closed network would.
  await page.route(/https:\/\/([\w-]+\.)*(stripe|paypal|paypalobjects)\.com\//, (route) => route.abort());
  await page.goto(`${server.url}/auth`);
  const auth = new AuthPage(page);
  await auth.login(user.email, user.password);
  await page.waitForURL((url) => url.pathname === '/account');
  await page.goto(`${server.url}/checkout/${user.orderId}`);
  await expect(page.getByRole('heading', { name: 'Confirmar tu pago' })).toBeVisible();
}

test.describe('live payment mode', () => {
  // The Stripe and PayPal scripts are blocked on purpose (no internet in tests): their failed loads
  // are expected in the console.
  test.use({ allowConsoleErrors: [/Failed to load resource|ERR_FAILED|stripe|paypal/i] });
  test.describe.configure({ mode: 'serial' });
  test.setTimeout(120_000);

  let stripe: StripeStub;
  let stripeOnly: LiveServer;
  let paypalOnly: LiveServer;

  test.beforeAll(async () => {
    test.setTimeout(150_000);
    stripe = await startStripeStub();
    stripeOnly = await startLiveServer(process.env.E2E_LIVE_STRIPE_PORT || '4330', {
      STRIPE_SECRET_KEY: 'sk_test_e2e_stub',
      PUBLIC_STRIPE_PUBLISHABLE_KEY: 'pk_test_e2e_stub',
      STRIPE_WEBHOOK_SECRET: 'whsec_e2e_stub',
      STRIPE_API_BASE: stripe.url,
      PUBLIC_PAYPAL_CLIENT_ID: '',
      PAYPAL_CLIENT_SECRET: '',
    });
    paypalOnly = await startLiveServer(process.env.E2E_LIVE_PAYPAL_PORT || '4331', {
      STRIPE_SECRET_KEY: '',
      PUBLIC_STRIPE_PUBLISHABLE_KEY: '',
      STRIPE_WEBHOOK_SECRET: '',
      PUBLIC_PAYPAL_CLIENT_ID: 'paypal-client-e2e',
      PAYPAL_CLIENT_SECRET: 'paypal-secret-e2e',
      PAYPAL_API_BASE: 'http://127.0.0.1:9',
    });
  });

  test.afterAll(async () => {
    await Promise.all([stop(stripeOnly), stop(paypalOnly)]);
    await stripe?.close();
  });

  test('with only Stripe keys the payment step says PayPal is not configured, and nothing simulated answers', async ({ page, request }) => {
    const user = await shopperWithOrder();
    await openPayment(page, stripeOnly, user);
    await page.getByRole('tab', { name: 'PayPal' }).click();
    await expect(page.getByRole('tabpanel')).toContainText('PayPal no está configurado.');
    await expect(page.getByRole('tabpanel').getByRole('button', { name: /PayPal/ })).toHaveCount(0);

    const token = await page.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('sb-') && k.endsWith('-auth-token'));
      return key ? (JSON.parse(localStorage.getItem(key)!) as { access_token: string }).access_token : '';
    });
    expect(token).not.toBe('');
    const headers = { authorization: `Bearer ${token}` };
    const create = await request.post(`${stripeOnly.url}/api/paypal/create-order`, { headers, data: { orderId: user.orderId } });
    expect(create.status()).toBe(503);
    expect(await create.json()).toMatchObject({ error: 'provider_unavailable', message: 'PayPal no está configurado.' });
    for (const endpoint of ['/api/paypal/approve', '/api/payments/simulated/confirm', '/api/payments/simulated/authenticate']) {
      const res = await request.post(`${stripeOnly.url}${endpoint}`, {
        headers,
        data: { orderId: user.orderId, paypalOrderId: 'x', clientSecret: 'pi_x_secret_y', approve: true },
      });
      expect(res.status(), endpoint).toBe(404);
      expect(res.headers()['content-type']).toContain('application/json');
    }
    // The card payment goes to Stripe (the stub), for the order's stored total.
    const intent = await request.post(`${stripeOnly.url}/api/create-payment-intent`, { headers, data: { orderId: user.orderId } });
    expect(intent.status()).toBe(200);
    expect(stripe.requests.some((r) => r.path === '/v1/payment_intents' && r.params.get('metadata[order_id]') === user.orderId)).toBe(true);
    expect(stripeOnly.output.join('')).toContain('pagos: modo live; Stripe activo; PayPal NO disponible (falta PUBLIC_PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET)');
  });

  test('with only PayPal keys the card tab says card payments are unavailable', async ({ page, request }) => {
    const user = await shopperWithOrder();
    await openPayment(page, paypalOnly, user);
    await expect(page.getByRole('tabpanel')).toContainText('El pago con tarjeta no está disponible.');
    await expect(page.getByLabel('Número de tarjeta')).toHaveCount(0);
    await expect(page.getByText('Modo de prueba')).toHaveCount(0);
    const response = await request.post(`${paypalOnly.url}/api/create-payment-intent`, { data: { orderId: user.orderId } });
    expect(response.status()).toBe(503);
    expect(await response.json()).toMatchObject({ error: 'provider_unavailable', message: 'El pago con tarjeta no está disponible.' });
  });
});
