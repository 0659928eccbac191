/**
 * `npm run load`: the shop under load on this machine, loopback only, bounded in time. A
 * throwaway PostgreSQL server, the local stack on it (its own process, auth rate limits off since
 * every shopper comes from 127.0.0.1), one build, and nginx in front of one and then two
 * `scripts/serve.mjs` processes (scripts/load/cluster.ts). For LOAD_SECONDS (60) each time:
 *
 *   - LOAD_SHOPPERS (200) browsing shoppers: autocannon connections through nginx, each asking for
 *     LOAD_RATE (1) requests a second, over the static pages of the build (home, listings,
 *     products, help) and the search index, as a browser asks (brotli or gzip); each shopper
 *     at moments of their own across the second (scripts/load/arrivals.ts: LOAD_ARRIVAL_GROUPS,
 *     50 groups started evenly; 1 puts every shopper in step, all in the same instant);
 *   - LOAD_EXPLORERS (20) shoppers who explore: autocannon connections through nginx at the same
 *     LOAD_RATE, each asking in its own random order for a fixed list of /explore addresses made
 *     from the build's catalogue (scripts/load/explore.ts): the page rendered on the server for
 *     its filters and the results its script fetches after each change (/explore/resultados);
 *     reported apart against the requirement for /explore's server calls (p95 ≤ 50 ms);
 *   - LOAD_CHECKOUTS (20) checkouts at once, each in a loop: sign in (auth), create_order (REST),
 *     point the order at the shopper's address (REST), create the payment (shop API, through
 *     nginx) and pay it with the simulated card (shop API, through nginx). One product in five
 *     is a hot product with little stock, so checkouts race for its last units.
 *
 * Then, from the database: units sold per product against the stock each started with
 * (oversold units must be 0), and the stock left. Prints one Markdown table per configuration
 * (request counts, errors, p50/p95/p99 of static pages, of /explore and of each checkout call);
 * errors are failed connections, timeouts and unexpected answers (a sold-out refusal of
 * create_order is the shop working, counted apart).
 *
 * nginx keeps pages for one second (its micro-cache, as in docs/deploying.md); LOAD_PROXY_CACHE=0
 * turns it off, so every request reaches the shop's processes (/explore's too: the explorers go
 * through the same nginx). Each step of a checkout waits
 * LOAD_CHECKOUT_PAUSE_MS (1000) on average before it starts, as a shopper reads and clicks;
 * LOAD_CHECKOUT_PAUSE_MS=0 runs the steps back to back, which measures how many checkouts the
 * machine can take rather than how long a shopper waits.
 *
 * `npm run load -- --drop` runs the drop rush instead (scripts/load/drop.ts): 1,000 signed-in
 * shoppers open a product's page within 10 s of the instant it goes on sale (`on_sale_at`) and try
 * to buy one of its 100 units (one per customer), on two servers behind nginx; once through
 * create_order, then (another product, other shoppers) through create_order_unless_sold_out, which
 * refuses 'Agotado' without the row lock (LOAD_DROP_RPC=<one of them> runs only that one). It
 * checks, and exits 1 otherwise, that no unit is oversold, no answer is a 5xx, exactly 100 orders
 * went to 100 shoppers and every other shopper got a clear Spanish refusal; it reports the product
 * page's and the order call's p95 against their budgets (50 ms, 500 ms, not asserted: the machine
 * is shared), lock waits, CPU by part and the machine's, the load average, the CPU model and
 * Lighthouse's benchmarkIndex (docs/benchmarks.md#drop-rush).
 *
 *   npm run load                       one server, then two
 *   npm run load -- --instances 2      only the two-server run
 *   npm run load -- --drop             the drop rush
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  buildShop,
  findNginx,
  freePort,
  outputFolder,
  startBackendProcess,
  startInstance,
  startNginx,
  type Backend,
  type Instance,
  type Proxy,
} from './load/cluster.ts';
import { ARRIVAL_GROUPS, spreadAutocannon } from './load/arrivals.ts';
import { cpuSeconds, cpuUsed, type CpuGroup } from './load/cpu.ts';
import { exploreAddresses, type ExploreAddress, type ExploreCatalog } from './load/explore.ts';
import { runDropRush } from './load/drop.ts';
import { runExplorers, type ExploreResult } from './load/explorers.ts';
import { percentile } from './load/stats.ts';

const SECONDS = Number(process.env.LOAD_SECONDS || 60);
const SHOPPERS = Number(process.env.LOAD_SHOPPERS || 200);
const RATE = Number(process.env.LOAD_RATE || 1);
const CHECKOUTS = Number(process.env.LOAD_CHECKOUTS || 20);
// Shoppers who explore (/explore and its results); 0 leaves them out.
const EXPLORERS = Math.max(0, Number(process.env.LOAD_EXPLORERS ?? 20) || 0);
/** The product requirement for /explore's server calls under this load: p95 at most 50 ms. */
const EXPLORE_P95_MS = 50;
// nginx's one-second micro-cache of pages (scripts/load/cluster.ts, as docs/deploying.md
// describes); LOAD_PROXY_CACHE=0 sends every request to the shop's processes.
const PROXY_CACHE = process.env.LOAD_PROXY_CACHE !== '0';
// The browsing and exploring shoppers' requests are spread over each second in this many groups
// (scripts/load/arrivals.ts), as independent shoppers click; LOAD_ARRIVAL_GROUPS=1 sends them all
// in the same instant every second (autocannon's own way: a crowd that clicks in step).
const ARRIVAL_GROUPS_SET = Math.max(1, Math.floor(Number(process.env.LOAD_ARRIVAL_GROUPS ?? ARRIVAL_GROUPS)) || ARRIVAL_GROUPS);
const arrivalsLabel = () =>
  ARRIVAL_GROUPS_SET === 1 ? 'todos los compradores piden a la vez cada segundo' : `compradores repartidos en ${ARRIVAL_GROUPS_SET} momentos de cada segundo`;
// A pause before each step of a checkout (as a shopper reads and clicks): on average
// LOAD_CHECKOUT_PAUSE_MS, anywhere from half to one and a half times it, so the twenty shoppers
// do not act in step. 0 runs the steps back to back: twenty checkouts then always wait on the
// machine, so each call's time is mostly its turn for a CPU (the throughput, not the wait).
const PAUSE_MS = Math.max(0, Number(process.env.LOAD_CHECKOUT_PAUSE_MS ?? 1000) || 0);
const pause = () => (PAUSE_MS > 0 ? new Promise((resolve) => setTimeout(resolve, PAUSE_MS * (0.5 + Math.random()))) : Promise.resolve());
const HOT_STOCK = 25;
const STOCK = 100_000;
const CARD = { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' };

const argIndex = process.argv.indexOf('--instances');
const only = argIndex > 0 ? Number(process.argv[argIndex + 1]) : null;
const CONFIGS = only ? [only] : [1, 2];

/** The static files a browser would ask for: every page of the build and the search index. */
function staticPaths(clientDir: string): string[] {
  const paths: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (entry.name !== '_astro' && entry.name !== 'media') walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
      } else if (entry.name === 'index.html') {
        paths.push(prefix === '' ? '/' : `/${prefix.replace(/\/$/, '')}`);
      }
    }
  };
  walk(fs.realpathSync(clientDir), '');
  return paths.filter((p) => !p.startsWith('/admin') && !p.startsWith('/cuenta') && !p.startsWith('/account'));
}

interface Shopper {
  email: string;
  password: string;
  addressId: string;
}

interface CallStats {
  times: number[];
  errors: string[];
}

type Calls = Record<'signIn' | 'createOrder' | 'address' | 'intent' | 'pay', CallStats>;

function newCalls(): Calls {
  return {
    signIn: { times: [], errors: [] },
    createOrder: { times: [], errors: [] },
    address: { times: [], errors: [] },
    intent: { times: [], errors: [] },
    pay: { times: [], errors: [] },
  };
}

/** One timed call; an answer other than `ok` (or a failed connection) is an error. */
async function call(
  stats: CallStats,
  url: string,
  init: RequestInit,
  ok: (status: number, body: unknown) => boolean,
): Promise<{ status: number; body: unknown } | null> {
  const started = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
    const text = await res.text();
    stats.times.push(performance.now() - started);
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON
    }
    if (!ok(res.status, body)) {
      stats.errors.push(`${res.status} ${text.slice(0, 160)}`);
      return null;
    }
    return { status: res.status, body };
  } catch (error) {
    stats.times.push(performance.now() - started);
    stats.errors.push(error instanceof Error ? error.message : String(error));
    return null;
  }
}

/** Checkouts in a loop until `until`: sign in, order one unit, address, payment, simulated card. */
async function checkoutLoop(
  backend: Backend,
  shopUrl: string,
  shopper: Shopper,
  products: { hot: string; others: string[] },
  until: number,
  calls: Calls,
  outcome: { paid: number; soldOut: number },
) {
  const apikey = backend.anonKey;
  let n = 0;
  while (Date.now() < until) {
    n += 1;
    const product = n % 5 === 1 ? products.hot : products.others[n % products.others.length]!;
    await pause();
    const signIn = await call(
      calls.signIn,
      `${backend.url}/auth/v1/token?grant_type=password`,
      { method: 'POST', headers: { apikey, 'content-type': 'application/json' }, body: JSON.stringify({ email: shopper.email, password: shopper.password }) },
      (s) => s === 200,
    );
    if (!signIn) continue;
    const token = (signIn.body as { access_token: string }).access_token;
    const auth = { apikey, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    let soldOut = false;
    await pause();
    const order = await call(
      calls.createOrder,
      `${backend.url}/rest/v1/rpc/create_order`,
      { method: 'POST', headers: auth, body: JSON.stringify({ items: [{ product_id: product, quantity: 1 }] }) },
      (s, body) => {
        if (s === 200) return true;
        // Sold out: the shop refusing the last unit to a second buyer is correct.
        soldOut = s === 400 && JSON.stringify(body).includes('Stock insuficiente');
        return soldOut;
      },
    );
    if (soldOut) {
      outcome.soldOut += 1;
      continue;
    }
    if (!order) continue;
    const orderId = order.body as string;
    await pause();
    const pointed = await call(
      calls.address,
      `${backend.url}/rest/v1/orders?id=eq.${orderId}`,
      { method: 'PATCH', headers: { ...auth, prefer: 'return=minimal' }, body: JSON.stringify({ shipping_address_id: shopper.addressId }) },
      (s) => s === 204 || s === 200,
    );
    if (!pointed) continue;
    await pause();
    const intent = await call(
      calls.intent,
      `${shopUrl}/api/create-payment-intent`,
      { method: 'POST', headers: { authorization: auth.authorization, 'content-type': 'application/json' }, body: JSON.stringify({ orderId }) },
      (s) => s === 200,
    );
    if (!intent) continue;
    const { clientSecret } = intent.body as { clientSecret: string };
    await pause();
    const paid = await call(
      calls.pay,
      `${shopUrl}/api/payments/simulated/confirm`,
      {
        method: 'POST',
        headers: { authorization: auth.authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ clientSecret, card: CARD, save: false }),
      },
      (s, body) => s === 200 && (body as { status?: string })?.status === 'succeeded',
    );
    if (paid) outcome.paid += 1;
  }
}

interface RunResult {
  instances: number;
  browse: { requests: number; errors: number; non2xx: number; timeouts: number; p50: number; p95: number; p99: number; rps: number };
  explore: ExploreResult | null;
  checkout: {
    paid: number;
    soldOut: number;
    calls: Record<string, { n: number; errors: number; p50: number; p95: number; p99: number }>;
    p95All: number;
    errors: number;
  };
  stock: Array<{ product: string; started: number; sold: number; left: number; oversold: number }>;
  /** CPU seconds used during the measured window, by part of the system. */
  cpu: Record<string, number>;
  errorSamples: string[];
}

async function runOnce(
  count: number,
  ctx: {
    backend: Backend & { child: ChildProcess };
    db: pg.Client;
    out: ReturnType<typeof outputFolder>;
    siteUrl: string;
    proxyPort: number;
    work: string;
    shoppers: Shopper[];
    products: { hot: string; others: string[] };
    paths: string[];
    explore: ExploreAddress[];
  },
): Promise<RunResult> {
  const { backend, db } = ctx;
  // The same starting stock for every run.
  await db.query('update public.products set stock = $2, limit_per_customer = 100000 where id = any($1)', [ctx.products.others, STOCK]);
  await db.query('update public.products set stock = $2, limit_per_customer = 100000 where id = $1', [ctx.products.hot, HOT_STOCK]);
  const instances: Instance[] = [];
  let proxy: Proxy | null = null;
  try {
    for (let i = 0; i < count; i++) {
      instances.push(
        await startInstance({
          name: `servidor ${i + 1}`,
          port: await freePort(),
          outDir: ctx.out.relative,
          backend,
          siteUrl: ctx.siteUrl,
          // No product changes during the run; rebuilds are not what is measured.
          env: { REBUILD_ON_CHANGE: '0' },
        }),
      );
    }
    proxy = await startNginx({ port: ctx.proxyPort, upstreams: instances.map((i) => i.port), dir: path.join(ctx.work, `nginx-${count}`), cache: PROXY_CACHE });
    // Warm-up: each page once, so the first requests do not measure cold caches.
    for (const p of ctx.paths.slice(0, 50)) await fetch(`${proxy.url}${p}`).then((r) => r.arrayBuffer());
    // And each /explore address once, so the servers have read the catalogue and run each kind of search.
    if (EXPLORERS > 0) {
      for (const { path: p } of ctx.explore) {
        const res = await fetch(`${proxy.url}${p}`, { headers: { 'accept-encoding': 'br, gzip' } });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${p} answered ${res.status} before the run`);
      }
    }

    const cpuGroups: Record<string, CpuGroup> = {
      stack: { roots: [ctx.backend.child.pid!] },
      shop: { roots: instances.map((i) => i.child.pid!) },
      postgres: { program: 'postgres' },
      nginx: { roots: [proxy.child.pid!] },
    };
    const cpuBefore = cpuSeconds(cpuGroups);
    const ownBefore = process.cpuUsage();
    const startedAt = new Date();
    const until = Date.now() + SECONDS * 1000;
    const latencies: number[] = [];
    const requests = [...ctx.paths].sort(() => Math.random() - 0.5).map((p) => ({ method: 'GET' as const, path: p }));
    // Each shopper at moments of their own across each second (scripts/load/arrivals.ts).
    const browsing = spreadAutocannon(
      {
        url: proxy!.url,
        connections: SHOPPERS,
        connectionRate: RATE,
        duration: SECONDS,
        timeout: 10,
        headers: { 'accept-encoding': 'br, gzip' },
        requests,
      },
      (instance) => instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime)),
      ARRIVAL_GROUPS_SET,
    );
    // Shoppers who explore, at the same time (scripts/load/explorers.ts).
    const exploring =
      EXPLORERS > 0
        ? runExplorers({ url: proxy.url, connections: EXPLORERS, rate: RATE, seconds: SECONDS, addresses: ctx.explore, groups: ARRIVAL_GROUPS_SET })
        : null;
    const calls = newCalls();
    const outcome = { paid: 0, soldOut: 0 };
    await Promise.all([browsing, exploring, ...ctx.shoppers.map((s) => checkoutLoop(backend, proxy!.url, s, ctx.products, until, calls, outcome))]);
    const browse = await browsing;
    const explore = exploring ? await exploring : null;
    const own = process.cpuUsage(ownBefore);
    const cpu = { ...cpuUsed(cpuBefore, cpuSeconds(cpuGroups)), load: (own.user + own.system) / 1e6 };

    const stock: RunResult['stock'] = [];
    for (const product of [ctx.products.hot, ...ctx.products.others]) {
      const started = product === ctx.products.hot ? HOT_STOCK : STOCK;
      const { rows } = await db.query<{ sold: string; left: number }>(
        `select coalesce((select sum(i.quantity) from public.order_items i join public.orders o on o.id = i.order_id
                           where i.product_id = $1 and o.created_at >= $2 and o.status <> 'Cancelado'), 0) as sold,
                (select stock from public.products where id = $1) as left`,
        [product, startedAt],
      );
      const sold = Number(rows[0]!.sold);
      const left = Number(rows[0]!.left);
      stock.push({ product, started, sold, left, oversold: Math.max(0, sold - started) + (left < 0 ? -left : 0) });
    }
    const summary = (s: CallStats) => ({
      n: s.times.length,
      errors: s.errors.length,
      p50: percentile(s.times, 50),
      p95: percentile(s.times, 95),
      p99: percentile(s.times, 99),
    });
    const allTimes = Object.values(calls).flatMap((c) => c.times);
    return {
      instances: count,
      browse: {
        requests: browse.requests,
        errors: browse.errors,
        non2xx: browse.non2xx,
        timeouts: browse.timeouts,
        p50: percentile(latencies, 50),
        p95: percentile(latencies, 95),
        p99: percentile(latencies, 99),
        rps: browse.rps,
      },
      explore,
      checkout: {
        paid: outcome.paid,
        soldOut: outcome.soldOut,
        calls: Object.fromEntries(Object.entries(calls).map(([name, s]) => [name, summary(s)])),
        p95All: percentile(allTimes, 95),
        errors: Object.values(calls).reduce((sum, c) => sum + c.errors.length, 0),
      },
      stock,
      cpu,
      errorSamples: Object.values(calls)
        .flatMap((c) => c.errors)
        .slice(0, 5),
    };
  } finally {
    await proxy?.stop();
    await Promise.all(instances.map((i) => i.stop()));
  }
}

function report(result: RunResult): string {
  const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} ms` : '—');
  const c = result.checkout.calls;
  const lines = [
    `### ${result.instances === 1 ? 'Un servidor' : `${result.instances} servidores`} detrás de nginx (${PROXY_CACHE ? 'con' : 'sin'} micro-caché de 1 s; ${arrivalsLabel()}${PAUSE_MS > 0 ? `; ${PAUSE_MS} ms de media antes de cada paso de compra` : ''})`,
    '',
    '| Medida | Valor |',
    '| --- | --- |',
    `| Páginas estáticas e índice de búsqueda: peticiones | ${result.browse.requests} (${result.browse.rps.toFixed(0)}/s) |`,
    `| Páginas estáticas: errores, no 2xx, tiempos agotados | ${result.browse.errors}, ${result.browse.non2xx}, ${result.browse.timeouts} |`,
    `| Páginas estáticas p50 / p95 / p99 | ${ms(result.browse.p50)} / ${ms(result.browse.p95)} / ${ms(result.browse.p99)} |`,
    ...(result.explore
      ? [
          `| /explore (${result.explore.connections} compradores que exploran, ${result.explore.addresses} direcciones): peticiones | ${result.explore.requests} (${result.explore.rps.toFixed(0)}/s; ${(result.explore.cacheHits * 100).toFixed(0)}% desde la micro-caché de nginx sin esperar a la tienda) |`,
          `| /explore: errores, no 2xx, tiempos agotados | ${result.explore.errors}, ${result.explore.non2xx}, ${result.explore.timeouts} |`,
          `| /explore p50 / p95 / p99 (requisito: p95 ≤ ${EXPLORE_P95_MS} ms) | ${ms(result.explore.all.p50)} / ${ms(result.explore.all.p95)} / ${ms(result.explore.all.p99)}: ${result.explore.all.p95 <= EXPLORE_P95_MS ? 'cumple' : `**no cumple** (${ms(result.explore.all.p95)} > ${EXPLORE_P95_MS} ms)`} |`,
          `| /explore: respuestas que esperaron a un servidor de la tienda (llamadas al servidor; sin la copia de nginx): n, p50 / p95 / p99 | ${result.explore.fromShop.n === 0 ? '0: todas desde la copia de nginx (esta medición no mide la llamada al servidor; LOAD_PROXY_CACHE=0 sí)' : `${result.explore.fromShop.n}, ${ms(result.explore.fromShop.p50)} / ${ms(result.explore.fromShop.p95)} / ${ms(result.explore.fromShop.p99)}: ${result.explore.fromShop.p95 <= EXPLORE_P95_MS ? 'cumple' : `**no cumple** (${ms(result.explore.fromShop.p95)} > ${EXPLORE_P95_MS} ms)`}`} |`,
          `| /explore: de esas, las que el servidor buscó y dibujó para la petición (X-Explore-Answer: miss; el resto las tenía guardadas): n, p50 / p95 / p99 | ${result.explore.rendered.n === 0 ? '0' : `${result.explore.rendered.n}, ${ms(result.explore.rendered.p50)} / ${ms(result.explore.rendered.p95)} / ${ms(result.explore.rendered.p99)}`} |`,
          `| /explore: páginas (n, p50 / p95 / p99) · resultados tras un cambio, /explore/resultados (n, p50 / p95 / p99) | ${result.explore.pages.n}, ${ms(result.explore.pages.p50)} / ${ms(result.explore.pages.p95)} / ${ms(result.explore.pages.p99)} · ${result.explore.results.n}, ${ms(result.explore.results.p50)} / ${ms(result.explore.results.p95)} / ${ms(result.explore.results.p99)} |`,
          `| /explore: direcciones más lentas (p95) | ${result.explore.slowest.map((s) => `\`${s.path}\` ${ms(s.p95)}`).join('; ') || '—'} |`,
        ]
      : []),
    `| Compras pagadas; rechazos por falta de stock | ${result.checkout.paid}; ${result.checkout.soldOut} |`,
    `| Llamadas de compra: errores | ${result.checkout.errors} |`,
    `| Llamadas de compra p95 (todas) | ${ms(result.checkout.p95All)} |`,
    ...(
      [
        ['Inicio de sesión', c.signIn],
        ['create_order', c.createOrder],
        ['Dirección del pedido', c.address],
        ['Crear el pago (API de la tienda)', c.intent],
        ['Pagar con la tarjeta simulada (API de la tienda)', c.pay],
      ] as const
    ).map(([name, s]) => `| ${name}: n, p50 / p95 / p99 | ${s!.n}, ${ms(s!.p50)} / ${ms(s!.p95)} / ${ms(s!.p99)} |`),
    `| CPU durante la medición (s): pila local (auth, REST) · servidores de la tienda · PostgreSQL · nginx · generador de carga | ${(['stack', 'shop', 'postgres', 'nginx', 'load'] as const).map((k) => (result.cpu[k] ?? 0).toFixed(1)).join(' · ')} (de ${os.cpus().length * SECONDS} s de CPU en ${SECONDS} s) |`,
    `| Unidades vendidas de más | ${result.stock.reduce((sum, s) => sum + s.oversold, 0)} (${result.stock.map((s) => `${s.product}: ${s.sold} de ${s.started}, quedan ${s.left}`).join('; ')}) |`,
  ];
  if (result.errorSamples.length > 0) lines.push('', `Errores (muestra): ${result.errorSamples.join(' | ')}`);
  if (result.explore && result.explore.failedSamples.length > 0) lines.push('', `/explore sin 2xx (muestra): ${result.explore.failedSamples.join(' | ')}`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  if (!findNginx()) throw new Error('nginx is missing: apt-get install -y nginx');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tienda-carga-'));
  const proxyPort = await freePort();
  const siteUrl = `http://127.0.0.1:${proxyPort}`;
  const out = outputFolder('carga');
  let backend: (Backend & { child: ChildProcess }) | null = null;
  let db: pg.Client | null = null;
  const stop = async () => {
    await db?.end().catch(() => undefined);
    await backend?.stop().catch(() => undefined);
    out.remove();
    fs.rmSync(work, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));
  try {
    console.log(
      `carga: ${os.cpus().length} CPU ${os.cpus()[0]?.model ?? ''}, ${Math.round(os.totalmem() / 2 ** 30)} GB; carga del sistema ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    backend = await startBackendProcess(siteUrl, path.join(work, 'data'));
    db = new pg.Client({ connectionString: backend.databaseUrl });
    await db.connect();
    console.log('carga: compilando la tienda…');
    await buildShop(out.relative, backend, siteUrl);
    const paths = [...staticPaths(path.join(out.absolute, 'client')), '/search-index.json'];
    // The /explore addresses, from the catalogue the build wrote.
    const catalogFile = path.join(out.absolute, 'client', 'explore', 'catalog.json');
    if (EXPLORERS > 0 && !fs.existsSync(catalogFile)) throw new Error(`the build wrote no ${catalogFile}`);
    const explore = EXPLORERS > 0 ? exploreAddresses(JSON.parse(fs.readFileSync(catalogFile, 'utf8')) as ExploreCatalog) : [];
    const { rows: productRows } = await db.query<{ id: string }>(
      // Sealed products: a single card is bought by offer, and create_order refuses it without one.
      'select p.id from public.products p where p.available and coalesce(p.preorder, false) = false and not exists (select 1 from public.card_printings c where c.product_id = p.id) order by p.id limit 5',
    );
    const products = { hot: productRows[0]!.id, others: productRows.slice(1).map((r) => r.id) };
    // The checkout shoppers, each with an address.
    const shoppers: Shopper[] = [];
    for (let i = 0; i < CHECKOUTS; i++) {
      const email = `carga-${i}-${Date.now()}@correo.test`;
      const password = 'Carga123!';
      const res = await fetch(`${backend.url}/auth/v1/admin/users`, {
        method: 'POST',
        headers: { apikey: backend.serviceRoleKey, authorization: `Bearer ${backend.serviceRoleKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          email,
          password,
          email_confirm: true,
          user_metadata: { username: `carga${i}x${Date.now() % 100000}`, name: 'Carga', lastname: 'Prueba', phone: '5512345678' },
        }),
      });
      if (!res.ok) throw new Error(`no se pudo crear el comprador ${email}: ${res.status} ${await res.text()}`);
      const { id } = (await res.json()) as { id: string };
      const { rows } = await db.query<{ id: string }>(
        "insert into public.addresses (user_id, street, exterior_number, neighborhood, municipality, city, state, zip, country, phone) values ($1, 'Av. Juárez', '10', 'Guadalajara Centro', 'Guadalajara', 'Guadalajara', 'Jalisco', '44100', 'México', '3312345678') returning id",
        [id],
      );
      shoppers.push({ email, password, addressId: rows[0]!.id });
    }
    console.log(
      `carga: ${paths.length} páginas estáticas, ${SHOPPERS} compradores navegando a ${RATE}/s cada uno, ${EXPLORERS} explorando ${explore.length} direcciones de /explore, ${CHECKOUTS} compras a la vez, ${SECONDS} s por configuración`,
    );
    const results: RunResult[] = [];
    for (const count of CONFIGS) {
      const result = await runOnce(count, { backend, db, out, siteUrl, proxyPort, work, shoppers, products, paths, explore });
      results.push(result);
      console.log(`\n${report(result)}\n`);
    }
    if (process.env.LOAD_OUTPUT) fs.writeFileSync(process.env.LOAD_OUTPUT, JSON.stringify(results, null, 2));
    const failed = results.some(
      (r) =>
        r.browse.errors + r.browse.non2xx + r.browse.timeouts + r.checkout.errors + (r.explore ? r.explore.errors + r.explore.non2xx + r.explore.timeouts : 0) >
          0 || r.stock.some((s) => s.oversold > 0),
    );
    console.log(
      `carga: ${new Date().toISOString()}; carga del sistema al terminar ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    if (failed) process.exitCode = 1;
  } finally {
    await stop();
  }
}

if (process.argv.includes('--drop')) await runDropRush();
else await main();
