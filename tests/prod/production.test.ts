/**
 * The shop as it is deployed: a copy of the project is built (`npm run build`), pruned to its
 * production dependencies (`npm prune --omit=dev`), and served by `npm run serve`'s script with
 * plain node, in live payment mode with Stripe's SDK pointed at a local Stripe stub, e-mail over
 * SMTP to a real SMTP server in this process, against the local Supabase-compatible stack on a
 * throwaway PostgreSQL server. A purchase runs end to end through the shop's API and the
 * confirmation e-mail must arrive over SMTP.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createClient } from '@supabase/supabase-js';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADDRESS_IDS, DEMO_SHOPPER } from '../../scripts/seed/constants.ts';
import { freePort } from '../../scripts/load/cluster.ts';
import { smoke } from '../../scripts/smoke.mjs';
import { startTestStack, type TestStack } from '../../packages/local-supabase/tests/helpers.ts';
import { stopwatch } from './stopwatch.ts';
import { pgServerSupport, startPgServer, type PgServer } from '../db/pg-server.ts';
import { startStripeStub, type StripeStub } from '../support/stripe-stub.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const WEBHOOK_SECRET = 'whsec_produccion_stub_0123456789';

/** The project's files as git knows them (tracked, plus new files not ignored). */
async function projectFiles(): Promise<string[]> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  return stdout.split('\0').filter((f) => f !== '' && fs.existsSync(path.join(ROOT, f)));
}

let pg: PgServer;
let stack: TestStack;
let stripe: StripeStub;
let smtp: TestSmtpServer;
let work: string;
let server: ChildProcess | null = null;
const output: string[] = [];
let shopUrl = '';
const { timings, timed } = stopwatch();

beforeAll(async () => {
  const support = pgServerSupport();
  // CI installs PostgreSQL's server binaries; a production check that silently skipped would prove nothing.
  if (!support.ok) throw new Error(`the production check needs a PostgreSQL server: ${support.reason}`);
  pg = await startPgServer();
  stripe = await startStripeStub();
  smtp = await startSmtpServer();

  const port = await freePort();
  shopUrl = `http://127.0.0.1:${port}`;
  stack = await timed('stack', () =>
    startTestStack({ databaseUrl: `postgres://postgres@127.0.0.1:${pg.port}/postgres`, siteUrl: shopUrl, autoconfirm: false }),
  );

  // A copy of the project, with node_modules hard-linked (pruning only unlinks).
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'tienda-produccion-'));
  await timed('copy', async () => {
    for (const file of await projectFiles()) {
      const target = path.join(work, file);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(path.join(ROOT, file), target);
    }
    await run('cp', ['-al', path.join(ROOT, 'node_modules'), path.join(work, 'node_modules')]).catch(() => undefined);
    // Build caches of other runs are not part of the project.
    for (const entry of fs.readdirSync(path.join(work, 'node_modules'))) {
      if (entry.startsWith('.astro')) fs.rmSync(path.join(work, 'node_modules', entry), { recursive: true, force: true });
    }
  });

  const buildEnv = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    PUBLIC_SUPABASE_URL: stack.url,
    PUBLIC_SUPABASE_ANON_KEY: stack.anonKey,
    SITE_URL: shopUrl,
  };
  await timed('build', async () => {
    await run(process.execPath, [path.join('node_modules', 'astro', 'bin', 'astro.mjs'), 'build'], { cwd: work, env: buildEnv, maxBuffer: 64 * 1024 * 1024 });
    await run(process.execPath, [path.join('scripts', 'build-server-runtime.mjs')], { cwd: work, env: buildEnv, maxBuffer: 16 * 1024 * 1024 });
  });
  await timed('prune', async () => {
    await run('npm', ['prune', '--omit=dev', '--offline', '--no-audit', '--no-fund'], { cwd: work, env: { ...buildEnv, npm_config_update_notifier: 'false' } });
    // npm keeps a devDependency that some production package names as an optional peer (tsx, for
    // vite); a deployment may well not have it, so it goes too.
    const devDependencies = Object.keys(
      (JSON.parse(fs.readFileSync(path.join(work, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies,
    );
    for (const name of devDependencies) fs.rmSync(path.join(work, 'node_modules', name), { recursive: true, force: true });
  });

  // The production server: plain node, only the variables a deployment sets.
  const started = performance.now();
  server = spawn(process.execPath, [path.join('scripts', 'serve.mjs')], {
    cwd: work,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: buildEnv.HOME,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      SITE_URL: shopUrl,
      PUBLIC_SUPABASE_URL: stack.url,
      PUBLIC_SUPABASE_ANON_KEY: stack.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: stack.serviceRoleKey,
      PAYMENTS_MODE: 'live',
      STRIPE_SECRET_KEY: 'sk_test_produccion_stub',
      PUBLIC_STRIPE_PUBLISHABLE_KEY: 'pk_test_produccion_stub',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Cartas Mx <pedidos@cartas.test>',
      REBUILD_ON_CHANGE: '0',
      SWEEP_INTERVAL_MS: '2000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (chunk) => output.push(String(chunk)));
  server.stderr!.on('data', (chunk) => output.push(String(chunk)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the production server exited (${server.exitCode}): ${output.join('')}`);
    const ok = await fetch(`${shopUrl}/`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`the production server did not answer: ${output.join('')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  timings.serveStart = Math.round(performance.now() - started);
  console.info(`[producción] tiempos (ms): ${JSON.stringify(timings)}`);
});

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGKILL');
  }
  await smtp?.close();
  await stripe?.close();
  await stack?.stop();
  await pg?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('the production server (pruned build, live payments, SMTP, PostgreSQL)', () => {
  it('serves from a copy without any devDependency installed', async () => {
    for (const dev of ['tsx', 'vitest', '@electric-sql/pglite', 'typescript', '@playwright/test', 'pg']) {
      expect(fs.existsSync(path.join(work, 'node_modules', dev, 'package.json')), dev).toBe(false);
    }
    expect(fs.existsSync(path.join(work, 'node_modules', 'astro', 'package.json'))).toBe(true);
    // What the served code imports resolves to production packages only.
    const { stdout } = await run(process.execPath, [path.join('scripts', 'check-prod-deps.mjs')], { cwd: work });
    expect(stdout).not.toMatch(/tsx|vitest|pglite/);
  });

  it('passes the deployment smoke check (pages, 404, sitemap, headers, API JSON)', async () => {
    const checks = await smoke(shopUrl);
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks.length).toBeGreaterThanOrEqual(9);
  });

  it('names the payment mode and what each provider lacks in its log', async () => {
    await expect
      .poll(() => output.join(''), { timeout: 10_000 })
      .toContain('pagos: modo live; Stripe activo; PayPal NO disponible (falta PUBLIC_PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET)');
  });

  it('sells: order, card payment through Stripe, webhook, paid order, confirmation e-mail over SMTP', async () => {
    const shopper = createClient(stack.url, stack.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
    const { data: session, error } = await shopper.auth.signInWithPassword({ email: DEMO_SHOPPER.email, password: DEMO_SHOPPER.password });
    expect(error).toBeNull();
    const token = session.session!.access_token;
    const { data: orderId, error: orderError } = await shopper.rpc('create_order', { items: [{ product_id: 'pk-booster-stellar-crown', quantity: 2 }] });
    expect(orderError).toBeNull();
    expect((await shopper.from('orders').update({ shipping_address_id: DEMO_ADDRESS_IDS.home }).eq('id', orderId)).error).toBeNull();

    const intentRes = await fetch(`${shopUrl}/api/create-payment-intent`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orderId }),
    });
    expect(intentRes.status).toBe(200);
    const intent = (await intentRes.json()) as { paymentIntentId: string; amount: number };
    const { data: order } = await shopper.from('orders').select('total').eq('id', orderId).single();
    expect(intent.amount).toBe(Math.round(Number(order!.total) * 100));
    expect(stripe.requests.find((r) => r.path === '/v1/payment_intents')?.authorization).toBe('Bearer sk_test_produccion_stub');

    // The card holder pays; Stripe tells the shop through its signed webhook.
    stripe.intents.get(intent.paymentIntentId)!.status = 'succeeded';
    const payload = JSON.stringify({
      id: 'evt_produccion_1',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: { id: intent.paymentIntentId, object: 'payment_intent' } },
    });
    const signature = new Stripe('sk_test_signer').webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const hook = await fetch(`${shopUrl}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'stripe-signature': signature, 'content-type': 'application/json' },
      body: payload,
    });
    expect(hook.status).toBe(200);
    expect(await hook.json()).toMatchObject({ received: true, handled: true, status: 'Pagado', changed: true });
    const { data: paid } = await shopper.from('orders').select('status, payment_provider, payment_ref, shipping_address').eq('id', orderId).single();
    expect(paid).toMatchObject({ status: 'Pagado', payment_provider: 'stripe', payment_ref: intent.paymentIntentId });
    expect(paid!.shipping_address).toMatchObject({ street: expect.any(String), city: expect.any(String) });

    const number = `#${String(orderId).slice(-6).toUpperCase()}`;
    await expect
      .poll(() => smtp.received.filter((m) => m.rcpt.includes(DEMO_SHOPPER.email)).map((m) => m.mail.subject), { timeout: 30_000 })
      .toContain(`Confirmación de tu pedido ${number}`);
    const mail = smtp.received.find((m) => m.mail.subject === `Confirmación de tu pedido ${number}`)!.mail;
    expect(mail.from?.text).toContain('pedidos@cartas.test');
    expect(mail.text).toContain('Gracias por tu compra.');
    expect(mail.html).toContain(number);
  });

  it('stops on SIGTERM, exit code 0', async () => {
    const started = performance.now();
    const exit = new Promise<number | null>((resolve) => server!.once('exit', (code) => resolve(code)));
    server!.kill('SIGTERM');
    expect(await exit).toBe(0);
    timings.stop = Math.round(performance.now() - started);
    console.info(`[producción] tiempos (ms): ${JSON.stringify(timings)}`);
  });
});
