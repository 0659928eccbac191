/**
 * The drop rush (`npm run load -- --drop`): LOAD_DROP_SHOPPERS (1,000) signed-in shoppers after
 * the LOAD_DROP_UNITS (100) units of one product on sale at a set instant (`products.on_sale_at`,
 * limit 1 per customer), on two `scripts/serve.mjs` processes behind nginx, a throwaway PostgreSQL
 * server and the local stack, all on this machine, on 127.0.0.1 only. How the run goes:
 *
 *   1. The stack, the build and the product as `npm run load` has them (scripts/load/cluster.ts);
 *      the product gets its units and limit.
 *   2. The shoppers' accounts are written straight into the throwaway database in one statement
 *      (auth.users and their identities; the shop's trigger makes their profiles), with a bcrypt
 *      hash of cost 4 so that signing them in is quick, each with a delivery address of its own.
 *      Each then signs in for real (password grant of the local stack's auth, LOAD_DROP_SIGN_INS
 *      at a time): the shoppers wait for a drop signed in, so sign-ins are not part of the rush.
 *   3. The drop instant is set LOAD_DROP_LEAD_S (10) seconds after the last sign-in. Each shopper
 *      opens the product page through nginx at a moment of their own within 10 s of the drop
 *      (from 8 s before to 2 s after), with the page's live-stock call to the REST API as the
 *      browser makes it (src/scripts/live-stock.ts), then, once the page is in and the drop has
 *      come, waits their own reaction time (up to LOAD_DROP_REACTION_MS, 1000; 0: every shopper in
 *      the same instant) and calls the order function for one unit (REST, as the checkout does); a
 *      refusal's Spanish message is read and counted. A shopper who got an order points it at
 *      their address (REST), as the checkout's next step does.
 *   4. While the rush runs the product's stock (and how many database sessions run or wait for a
 *      lock) is read every 20 ms; afterwards the database says how many units went into orders,
 *      how many orders and for how many shoppers.
 *
 * Two drops run one after the other on the same servers, each with a product and shoppers of its
 * own: the first calls `create_order` itself, the second
 * `create_order_unless_sold_out` (migration 20261129005000; what the checkout calls), which answers 'Agotado' from the last
 * committed stock without queueing on the product's row lock once nothing is left, and otherwise is
 * create_order. LOAD_DROP_RPC=create_order (or the other) runs only that drop.
 *
 * Every request has a timeout (LOAD_DROP_TIMEOUT_MS, 30 s) and the whole run one more
 * (LOAD_DROP_MAX_S, 900 s, build included). The run prints a Markdown table and exits 1 when a
 * correctness check fails (scripts/load/drop-summary.ts): a unit oversold, a 5xx, not exactly 100
 * orders for 100 shoppers, a shopper without an order or a clear Spanish refusal. Timings (static
 * page p95 ≤ 50 ms, create_order p95 ≤ 500 ms) are reported with whether they were met, not
 * asserted: the machine is shared.
 */
import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import bcrypt from 'bcryptjs';
import pg from 'pg';
import { liveStockUrl } from '~/scripts/live-stock.ts';
import { CHROMIUM_FLAGS, findChromium } from '../find-chromium.mjs';
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
} from './cluster.ts';
import { dropChecks, readOrderAnswer, refusalsByMessage, type DropAnswer, type DropLedger } from './drop-summary.ts';
import { cpuSeconds, cpuUsed, type CpuGroup } from './cpu.ts';
import { percentiles, type Percentiles } from './stats.ts';

const num = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
};
const SHOPPERS = Math.max(1, Math.floor(num('LOAD_DROP_SHOPPERS', 1000)));
const UNITS = Math.max(1, Math.floor(num('LOAD_DROP_UNITS', 100)));
const LEAD_MS = num('LOAD_DROP_LEAD_S', 10) * 1000;
const REACTION_MS = num('LOAD_DROP_REACTION_MS', 1000);
const TIMEOUT_MS = Math.max(1000, num('LOAD_DROP_TIMEOUT_MS', 30_000));
const MAX_MS = Math.max(60, num('LOAD_DROP_MAX_S', 900)) * 1000;
const SIGN_INS = Math.max(1, Math.floor(num('LOAD_DROP_SIGN_INS', 16)));
/** Early presses per shopper before the instant (each refused 'aún no está a la venta'); 0: none, every path cold at the instant. */
const EARLY = Math.floor(num('LOAD_DROP_EARLY', 1));
/** One shopper in this many also buys an everyday product before the drop (pressEarly). */
const EVERYDAY_EVERY = 5;
const INSTANCES = 2;
/** The page opens: from this long before the drop… */
const OPEN_BEFORE_MS = 8000;
/** …to this long after it (within 10 s of the drop in all). */
const OPEN_AFTER_MS = 2000;
const PAGE_P95_MS = 50;
const ORDER_P95_MS = 500;
const PASSWORD = 'Preventa123!';

/** The machine: CPU model (lscpu), cores, memory. */
function machine(): string {
  const lscpu = spawnSync('sh', ['-c', 'lscpu'], { encoding: 'utf8' }).stdout ?? '';
  const model = /^Model name:\s*(.+)$/m.exec(lscpu)?.[1]?.trim() ?? os.cpus()[0]?.model ?? '?';
  return `${os.cpus().length} CPU ${model}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`;
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Lighthouse's CPU `benchmarkIndex`, computed as Lighthouse does it, in a headless Chromium page; null without one. */
async function benchmarkIndex(): Promise<number | null> {
  const executablePath = await findChromium();
  if (!executablePath) return null;
  try {
    const [{ chromium }, { pageFunctions }] = await Promise.all([import('playwright-core'), import('lighthouse/core/lib/page-functions.js')]);
    const browser = await chromium.launch({ executablePath, args: CHROMIUM_FLAGS, timeout: 30_000 });
    try {
      const page = await browser.newPage();
      return Math.round(await page.evaluate(pageFunctions.computeBenchmarkIndex));
    } finally {
      await browser.close();
    }
  } catch {
    return null;
  }
}

type Timed = { status: number; text: string; ms: number } | { error: string; ms: number };

/** Keep-alive connections, as many as the shoppers need (a browser keeps its own open). */
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** Requests sent again because the kept-alive connection they went out on had just been closed. */
const resent = { count: 0 };

/**
 * One request with the run's timeout (node:http: lighter than fetch for a thousand shoppers in
 * one process, and a compressed page is not decompressed): status, body text (none when
 * `discard`) and milliseconds until the last byte (a retry included), or the failure. As a
 * browser does, a request that went out on a reused keep-alive connection the server had just
 * closed (idle past its keep-alive timeout: a shopper waiting for the drop), with no answer yet,
 * is sent once more on a new connection; `resent` counts those.
 */
function timed(url: string, options: { method?: string; headers?: Record<string, string>; body?: string; discard?: boolean } = {}): Promise<Timed> {
  const started = performance.now();
  const headers = { ...options.headers, ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }) };
  return new Promise((resolve) => {
    let settled = false;
    let current: http.ClientRequest | null = null;
    const done = (value: Timed) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    const send = (retry: boolean) => {
      let answered = false;
      const req = http.request(url, { method: options.method ?? 'GET', headers, agent }, (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => void (options.discard ? undefined : chunks.push(chunk)));
        res.on('end', () => done({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }));
        res.on('error', (error) => done({ error: error.message, ms: performance.now() - started }));
      });
      current = req;
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (!retry && !answered && !settled && req.reusedSocket && error.code === 'ECONNRESET') {
          resent.count += 1;
          send(true);
          return;
        }
        done({ error: error.message, ms: performance.now() - started });
      });
      req.end(options.body);
    };
    const timer = setTimeout(() => {
      current?.destroy();
      done({ error: `timeout after ${TIMEOUT_MS} ms`, ms: performance.now() - started });
    }, TIMEOUT_MS);
    send(false);
  });
}

/** The machine's CPU time so far (s), busy and in all, from /proc/stat (Linux; zeros elsewhere). */
function machineCpu(): { busy: number; total: number } {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal …: idle and iowait are the idle part.
    const total = fields.slice(0, 8).reduce((sum, n) => sum + n, 0);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { busy: (total - idle) / 100, total: total / 100 };
  } catch {
    return { busy: 0, total: 0 };
  }
}

/** The parent of a process (Linux /proc), or null. */
function parentPid(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) && ppid > 1 ? ppid : null;
  } catch {
    return null;
  }
}

/**
 * Resolves once the wall clock has reached `at` (ms). A timer may fire a millisecond before its time
 * by Date.now(): a shopper's call sent then reached the database before the drop's instant and was
 * told 'aún no está a la venta' (one shopper in one of the 67 drops run on 2026-11-30).
 */
async function sleepUntil(at: number): Promise<void> {
  while (Date.now() < at) await new Promise((resolve) => setTimeout(resolve, Math.max(1, at - Date.now())));
}

interface DropShopper {
  id: string;
  email: string;
  addressId: string;
  token?: string;
}

/** The shoppers' accounts and addresses, written in the throwaway database in two statements. */
async function createShoppers(db: pg.Client, count: number): Promise<DropShopper[]> {
  const tag = Date.now().toString(36);
  // Cost 4: a real bcrypt hash the stack checks as any other, only cheaper to check 1,000 times.
  const hash = bcrypt.hashSync(PASSWORD, 4);
  const { rows } = await db.query<{ id: string; email: string; n: number }>(
    `with made as (
       insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_user_meta_data, raw_app_meta_data,
                               is_anonymous, created_at, updated_at)
       select gen_random_uuid(), 'authenticated', 'authenticated', format('preventa-%s-%s@correo.test', $1::text, n), $2, now(),
              jsonb_build_object('username', format('preventa%s%s', $1::text, n), 'name', 'Carga', 'lastname', 'Preventa', 'phone', '5512345678'),
              '{"provider": "email", "providers": ["email"]}'::jsonb, false, now(), now()
         from generate_series(1, $3::integer) n
       returning id, email
     ), identities as (
       insert into auth.identities (user_id, provider, provider_id, identity_data, email, last_sign_in_at)
       select id, 'email', id::text, jsonb_build_object('sub', id, 'email', email, 'email_verified', true, 'phone_verified', false), email, null
         from made
     )
     select id, email, split_part(split_part(email, '@', 1), '-', 3)::integer as n from made`,
    [tag, hash, count],
  );
  // A delivery address of each shopper's own: a drop's limit may count by address.
  const { rows: addresses } = await db.query<{ id: string; user_id: string }>(
    `insert into public.addresses (user_id, street, exterior_number, neighborhood, municipality, city, state, zip, country, phone)
     select u.id, format('Calle de la Preventa %s-%s', $3::text, u.n), (u.n % 9000 + 1)::text, 'Roma Norte', 'Cuauhtémoc', 'Ciudad de México',
            'Ciudad de México', lpad((u.n % 100000)::text, 5, '0'), 'México', '55' || lpad(u.n::text, 8, '0')
       from unnest($1::uuid[], $2::integer[]) as u(id, n)
     returning id, user_id`,
    [rows.map((r) => r.id), rows.map((r) => r.n), tag],
  );
  const addressOf = new Map(addresses.map((a) => [a.user_id, a.id]));
  return rows.map((r) => ({ id: r.id, email: r.email, addressId: addressOf.get(r.id)! }));
}

/** Signs every shopper in (the stack's password grant), `parallel` at a time; throws on any failure. */
async function signIn(backend: Backend, shoppers: DropShopper[], parallel: number): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < shoppers.length) {
      const shopper = shoppers[next++]!;
      const res = await timed(`${backend.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: backend.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email: shopper.email, password: PASSWORD }),
      });
      times.push(res.ms);
      if ('error' in res || res.status !== 200)
        throw new Error(`sign-in of ${shopper.email} failed: ${'error' in res ? res.error : `${res.status} ${res.text.slice(0, 200)}`}`);
      shopper.token = (JSON.parse(res.text) as { access_token: string }).access_token;
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return times;
}

/** A shopper's order call through `rpc` for one unit of `productId`, as the checkout sends it. */
function orderCall(backend: Backend, shopper: DropShopper, rpc: string, productId: string): Promise<Timed> {
  return timed(`${backend.url}/rest/v1/rpc/${rpc}`, {
    method: 'POST',
    headers: { apikey: backend.anonKey, authorization: `Bearer ${shopper.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ items: [{ product_id: productId, quantity: 1 }] }),
  });
}

/** Points the shopper's order at their delivery address, as the checkout does after the order. */
function pointAtAddress(backend: Backend, shopper: DropShopper, orderId: string): Promise<Timed> {
  return timed(`${backend.url}/rest/v1/orders?id=eq.${orderId}`, {
    method: 'PATCH',
    headers: { apikey: backend.anonKey, authorization: `Bearer ${shopper.token}`, 'content-type': 'application/json', prefer: 'return=minimal' },
    body: JSON.stringify({ shipping_address_id: shopper.addressId }),
  });
}

/**
 * Before the drop, as on any day: each shopper presses the drop's button `perShopper` times too
 * early, through the drop's own order call, and must be told the product is not on sale yet
 * (detail 'unavailable:<id>'); and one shopper in EVERYDAY_EVERY buys one unit of an everyday
 * product (`everydayId`, plenty of stock) through the same call and points the order at their
 * address, as the checkout does. Throws on any other answer. A shop that sells all day runs its
 * order path warm (the JavaScript engine's optimised code, each database connection's cached
 * plans); without this, the stack and the load generator ran their first order calls, and the
 * database planned its first sales, at the instant itself: a run's second drop, warm from the
 * first, used about half the CPU of the first. Returns how long it took.
 */
async function pressEarly(
  backend: Backend,
  shoppers: DropShopper[],
  rpc: string,
  drop: { productId: string; everydayId: string },
  perShopper: number,
  parallel: number,
): Promise<number> {
  const started = performance.now();
  const queue = Array.from({ length: perShopper }, () => shoppers).flat();
  let next = 0;
  const failed = (what: string, res: Timed) => new Error(`${what}: ${'error' in res ? res.error : `${res.status} ${res.text.slice(0, 200)}`}`);
  const worker = async () => {
    while (next < queue.length) {
      const i = next++;
      const shopper = queue[i]!;
      const early = await orderCall(backend, shopper, rpc, drop.productId);
      const answer = 'error' in early ? null : readOrderAnswer(early.status, early.text);
      if (answer?.kind !== 'refused' || answer.code !== 'unavailable')
        throw failed(`an early press of ${shopper.email} was not refused as not on sale yet`, early);
      if (i >= shoppers.length || i % EVERYDAY_EVERY !== 0) continue;
      const sale = await orderCall(backend, shopper, rpc, drop.everydayId);
      const sold = 'error' in sale ? null : readOrderAnswer(sale.status, sale.text);
      if (sold?.kind !== 'order') throw failed(`an everyday sale to ${shopper.email} failed`, sale);
      const pointed = await pointAtAddress(backend, shopper, sold.orderId);
      if ('error' in pointed || pointed.status >= 300) throw failed(`an everyday order of ${shopper.email} could not take its address`, pointed);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return performance.now() - started;
}

/** What one shopper did and waited for. */
interface ShopperRun {
  /** When the page was asked for, relative to the drop instant (ms). */
  openedAt: number;
  pageMs: number | null;
  pageStatus: number | null;
  liveMs: number | null;
  liveStatus: number | null;
  /** What went wrong with the page or its live data (a failure, a status other than 200), if anything. */
  pageProblem: string | null;
  orderMs: number | null;
  /** When create_order was called, relative to the drop instant (ms). */
  calledAt: number | null;
  answer: DropAnswer;
  addressed: boolean | null;
}

/** One shopper: the page and its live data, then create_order at or after the drop, then the address. */
async function shopperRun(options: {
  shopper: DropShopper;
  backend: Backend;
  pageUrl: string;
  liveUrl: string;
  productId: string;
  rpc: string;
  dropAt: number;
}): Promise<ShopperRun> {
  const { shopper, backend, dropAt } = options;
  const run: ShopperRun = {
    openedAt: 0,
    pageMs: null,
    pageStatus: null,
    liveMs: null,
    liveStatus: null,
    pageProblem: null,
    orderMs: null,
    calledAt: null,
    answer: { kind: 'no-answer', error: 'not called' },
    addressed: null,
  };
  await sleepUntil(dropAt - OPEN_BEFORE_MS + Math.random() * (OPEN_BEFORE_MS + OPEN_AFTER_MS));
  run.openedAt = Date.now() - dropAt;
  const page = await timed(options.pageUrl, { headers: { 'accept-encoding': 'br, gzip' }, discard: true });
  run.pageMs = page.ms;
  run.pageStatus = 'error' in page ? null : page.status;
  const live = await timed(options.liveUrl, { headers: { apikey: backend.anonKey, authorization: `Bearer ${backend.anonKey}` } });
  run.liveMs = live.ms;
  run.liveStatus = 'error' in live ? null : live.status;
  if ('error' in page || page.status !== 200) run.pageProblem = `página: ${'error' in page ? page.error : page.status}`;
  else if ('error' in live || live.status !== 200)
    run.pageProblem = `datos en vivo: ${'error' in live ? live.error : `${live.status} ${live.text.slice(0, 160)}`}`;
  await sleepUntil(Math.max(dropAt, Date.now()) + Math.random() * REACTION_MS);
  run.calledAt = Date.now() - dropAt;
  const order = await orderCall(backend, shopper, options.rpc, options.productId);
  run.orderMs = order.ms;
  run.answer = 'error' in order ? { kind: 'no-answer', error: order.error } : readOrderAnswer(order.status, order.text);
  if (run.answer.kind === 'order') {
    const pointed = await pointAtAddress(backend, shopper, run.answer.orderId);
    run.addressed = !('error' in pointed) && (pointed.status === 204 || pointed.status === 200);
  }
  return run;
}

/**
 * Reads the product's stock every `everyMs` until stopped: the lowest value seen, and how many of
 * the database's sessions were running a statement and how many of them waited for a lock (on
 * average over the reads), to tell a queue on the product's row lock from a busy machine.
 */
function watchStock(
  db: pg.Client,
  productId: string,
  everyMs: number,
): { stop(): Promise<{ lowest: number; reads: number; active: number; waiting: number }> } {
  let stopped = false;
  let lowest = Number.POSITIVE_INFINITY;
  let reads = 0;
  let active = 0;
  let waiting = 0;
  const loop = (async () => {
    while (!stopped) {
      const { rows } = await db.query<{ stock: number; active: string; waiting: string }>(
        `select (select stock from public.products where id = $1) as stock,
                count(*) filter (where a.state = 'active' and a.pid <> pg_backend_pid()) as active,
                count(*) filter (where a.wait_event_type = 'Lock') as waiting
           from pg_stat_activity a where a.backend_type = 'client backend'`,
        [productId],
      );
      reads += 1;
      lowest = Math.min(lowest, Number(rows[0]!.stock));
      active += Number(rows[0]!.active);
      waiting += Number(rows[0]!.waiting);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { lowest, reads, active: reads > 0 ? active / reads : 0, waiting: reads > 0 ? waiting / reads : 0 };
    },
  };
}

const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} ms` : '—');
const row = (p: Percentiles) => `${p.n}, ${ms(p.p50)} / ${ms(p.p95)} / ${ms(p.p99)}`;

/** The calls a round can make: create_order as the checkout calls it, or the drop's pre-check first. */
const RPCS = ['create_order', 'create_order_unless_sold_out'] as const;
const ROUNDS: readonly string[] = process.env.LOAD_DROP_RPC ? [process.env.LOAD_DROP_RPC] : RPCS;

interface Cluster {
  backend: Backend & { child: ChildProcess };
  /** The throwaway PostgreSQL server's main process (its sessions are its children), when known. */
  postmaster: number | null;
  db: pg.Client;
  watcher: pg.Client;
  proxy: Proxy;
  instances: Instance[];
}

/** One drop: a product of its own, fresh shoppers signed in, the rush through `rpc`; the table and whether every check passed. */
async function dropRound(cluster: Cluster, rpc: string, product: { id: string; name: string }, everydayId: string): Promise<{ table: string; ok: boolean }> {
  const { backend, db, proxy, instances } = cluster;
  const startedAt = new Date();
  await db.query('update public.products set stock = $2, limit_per_customer = 1, on_sale_at = null where id = $1', [product.id, UNITS]);
  const pagePath = `/product/${product.id}`;

  const created = performance.now();
  const shoppers = await createShoppers(db, SHOPPERS);
  const createdMs = performance.now() - created;
  const signedIn = performance.now();
  const signInTimes = await signIn(backend, shoppers, SIGN_INS);
  const signInMs = performance.now() - signedIn;
  console.log(
    `carga (preventa, ${rpc}): ${shoppers.length} compradores creados en ${(createdMs / 1000).toFixed(1)} s, con sesión en ${(signInMs / 1000).toFixed(1)} s (${SIGN_INS} a la vez)`,
  );

  // The page once (warm), and the products its live-stock call asks about, read from it as the browser's script does.
  const warm = await timed(`${proxy.url}${pagePath}`);
  if ('error' in warm || warm.status !== 200) throw new Error(`${pagePath} did not answer 200 before the drop: ${'error' in warm ? warm.error : warm.status}`);
  const ids = [...new Set([...warm.text.matchAll(/data-live-product="([^"]+)"/g)].map((m) => m[1]!))];
  const liveUrl = liveStockUrl(backend.url, ids.length > 0 ? ids : [product.id], warm.text.includes('data-live-offers'));

  if (EARLY > 0) {
    await db.query(`update public.products set on_sale_at = now() + interval '1 hour' where id = $1`, [product.id]);
    const earlyMs = await pressEarly(backend, shoppers, rpc, { productId: product.id, everydayId }, EARLY, SIGN_INS);
    console.log(
      `carga (preventa, ${rpc}): antes de la venta, ${shoppers.length * EARLY} pulsaciones antes de tiempo (todas «aún no está a la venta») y ${Math.ceil(shoppers.length / EVERYDAY_EVERY)} compras de otro producto con su dirección, en ${(earlyMs / 1000).toFixed(1)} s (${SIGN_INS} a la vez)`,
    );
  }

  const dropAt = Date.now() + LEAD_MS;
  await db.query('update public.products set on_sale_at = $2 where id = $1', [product.id, new Date(dropAt)]);
  console.log(
    `carga (preventa, ${rpc}): «${product.name}» (${UNITS} unidades, 1 por cliente) a la venta a las ${new Date(dropAt).toISOString()}; ${SHOPPERS} compradores abren ${pagePath} entre ${OPEN_BEFORE_MS / 1000} s antes y ${OPEN_AFTER_MS / 1000} s después, y compran tras hasta ${REACTION_MS} ms`,
  );
  const cpuGroups: Record<string, CpuGroup> = {
    stack: { roots: [backend.child.pid!] },
    shop: { roots: instances.map((i) => i.child.pid!) },
    // This run's server only (other work on the machine may run PostgreSQL servers of its own).
    postgres: cluster.postmaster ? { roots: [cluster.postmaster] } : { program: 'postgres' },
    nginx: { roots: [proxy.child.pid!] },
  };
  // From the drop instant on: the database's sessions and the stock, the CPU, the load average.
  const atDrop = sleepUntil(dropAt).then(() => ({
    stock: watchStock(cluster.watcher, product.id, 20),
    cpu: cpuSeconds(cpuGroups),
    machine: machineCpu(),
    own: process.cpuUsage(),
    load: loadAverage(),
  }));
  const resentBefore = resent.count;
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const runs = await Promise.all(
    shoppers.map((shopper) => shopperRun({ shopper, backend, pageUrl: `${proxy.url}${pagePath}`, liveUrl, productId: product.id, rpc, dropAt })),
  );
  lag.disable();
  const rushMs = Date.now() - dropAt;
  const drop = await atDrop;
  const seen = await drop.stock.stop();
  const own = process.cpuUsage(drop.own);
  const cpu: Record<string, number> = { ...cpuUsed(drop.cpu, cpuSeconds(cpuGroups)), load: (own.user + own.system) / 1e6 };
  const machineNow = machineCpu();
  const machineBusy = machineNow.busy - drop.machine.busy;
  const machineTotal = machineNow.total - drop.machine.total;
  const ours = Object.values(cpu).reduce((sum, n) => sum + n, 0);

  const { rows: ledgerRows } = await db.query<{ units: string; orders: string; buyers: string; left: number }>(
    `select coalesce(sum(i.quantity), 0) as units, count(distinct o.id) as orders, count(distinct o.user_id) as buyers,
            (select stock from public.products where id = $1) as left
       from public.order_items i join public.orders o on o.id = i.order_id
      where i.product_id = $1 and o.status <> 'Cancelado' and o.created_at >= $2`,
    [product.id, startedAt],
  );
  const ledger: DropLedger = {
    unitsInOrders: Number(ledgerRows[0]!.units),
    orders: Number(ledgerRows[0]!.orders),
    buyers: Number(ledgerRows[0]!.buyers),
    stockLeft: Number(ledgerRows[0]!.left),
    lowestStock: Math.min(seen.lowest, Number(ledgerRows[0]!.left)),
  };
  const answers = runs.map((r) => r.answer);
  const pages = {
    server: runs.filter((r) => (r.pageStatus ?? 0) >= 500 || (r.liveStatus ?? 0) >= 500).length,
    failed: runs.filter((r) => r.pageProblem !== null).length,
  };
  const checks = dropChecks({ shoppers: SHOPPERS, units: UNITS, answers, pages, ledger });
  const times = (pick: (r: ShopperRun) => number | null) => percentiles(runs.flatMap((r) => (pick(r) === null ? [] : [pick(r)!])));
  const page = times((r) => r.pageMs);
  const live = times((r) => r.liveMs);
  const before = (pick: (r: ShopperRun) => number | null) => (r: ShopperRun) => (r.openedAt < 0 ? pick(r) : null);
  const after = (pick: (r: ShopperRun) => number | null) => (r: ShopperRun) => (r.openedAt >= 0 ? pick(r) : null);
  const order = times((r) => r.orderMs);
  const orderOk = times((r) => (r.answer.kind === 'order' ? r.orderMs : null));
  const refusedTimes = times((r) => (r.answer.kind === 'refused' ? r.orderMs : null));
  const calledAt = runs.flatMap((r) => (r.calledAt === null ? [] : [r.calledAt]));
  const addressed = runs.filter((r) => r.addressed === true).length;
  const winners = runs.filter((r) => r.answer.kind === 'order').length;
  const met = (p95: number, budget: number) => (p95 <= budget ? 'cumple' : `**no cumple** (${ms(p95)} > ${budget} ms)`);
  const lines = [
    `### Preventa con \`${rpc}\`: ${SHOPPERS} compradores por ${UNITS} unidades, ${INSTANCES} servidores detrás de nginx (micro-caché de 1 s)`,
    '',
    '| Medida | Valor |',
    '| --- | --- |',
    `| Inicio; carga del sistema en el instante de la venta · al terminar | ${startedAt.toISOString()}; ${drop.load} · ${loadAverage()} |`,
    `| Compradores: creados; con sesión (${SIGN_INS} a la vez): total, p95 | ${(createdMs / 1000).toFixed(1)} s; ${(signInMs / 1000).toFixed(1)} s, ${ms(percentiles(signInTimes).p95)} |`,
    `| Página del producto (nginx): n, p50 / p95 / p99 (presupuesto p95 ≤ ${PAGE_P95_MS} ms) | ${row(page)}: ${met(page.p95, PAGE_P95_MS)} |`,
    `| Página del producto: abierta antes del instante · después (en plena compra): n, p50 / p95 / p99 | ${row(times(before((r) => r.pageMs)))} · ${row(times(after((r) => r.pageMs)))} |`,
    `| Datos en vivo de la página (REST): n, p50 / p95 / p99 | ${row(live)} |`,
    `| Datos en vivo: antes del instante · después: n, p50 / p95 / p99 | ${row(times(before((r) => r.liveMs)))} · ${row(times(after((r) => r.liveMs)))} |`,
    `| \`${rpc}\`: llamadas desde el instante de la venta (primera, mediana, última) | ${ms(Math.min(...calledAt))}, ${ms(percentiles(calledAt).p50)}, ${ms(Math.max(...calledAt))} |`,
    `| \`${rpc}\`, todas: n, p50 / p95 / p99 (presupuesto p95 ≤ ${ORDER_P95_MS} ms) | ${row(order)}: ${met(order.p95, ORDER_P95_MS)} |`,
    `| \`${rpc}\` con pedido · con rechazo: n, p50 / p95 / p99 | ${row(orderOk)} · ${row(refusedTimes)} |`,
    `| Rechazos por mensaje | ${
      refusalsByMessage(answers)
        .map((r) => `${r.count} × «${r.message}»`)
        .join('; ') || '—'
    } |`,
    `| Pedidos apuntados a la dirección de su comprador | ${addressed} de ${winners} |`,
    `| Desde el instante de la venta hasta la última respuesta | ${(rushMs / 1000).toFixed(1)} s; ${seen.reads} lecturas de la existencia (cada 20 ms) |`,
    `| Sesiones de PostgreSQL de media en esas lecturas: ejecutando · esperando un bloqueo | ${seen.active.toFixed(1)} · ${seen.waiting.toFixed(1)} |`,
    `| CPU en ese tiempo (s): pila local (auth, REST) · servidores de la tienda · PostgreSQL · nginx · generador de carga | ${(['stack', 'shop', 'postgres', 'nginx', 'load'] as const).map((k) => (cpu[k] ?? 0).toFixed(1)).join(' · ')} (de ${((os.cpus().length * rushMs) / 1000).toFixed(1)} s de CPU de la máquina) |`,
    `| CPU de la máquina en ese tiempo: ocupada · de eso, esta prueba · otros procesos | ${machineTotal > 0 ? `${((machineBusy / machineTotal) * 100).toFixed(0)}% (${machineBusy.toFixed(1)} de ${machineTotal.toFixed(1)} s) · ${ours.toFixed(1)} s · ${Math.max(0, machineBusy - ours).toFixed(1)} s` : '—'} |`,
    `| Peticiones enviadas de nuevo porque su conexión abierta acababa de cerrarse (como hace un navegador) | ${resent.count - resentBefore} |`,
    `| Retraso del bucle de eventos del generador de carga: p50 / p99 / máximo | ${ms(lag.percentile(50) / 1e6)} / ${ms(lag.percentile(99) / 1e6)} / ${ms(lag.max / 1e6)} |`,
    ...checks.map((c) => `| ${c.check} | ${c.ok ? 'sí' : '**NO**'}: ${c.figure} |`),
  ];
  const failures = [
    ...answers.filter((a) => a.kind !== 'order' && a.kind !== 'refused').map((f) => JSON.stringify(f)),
    ...runs.flatMap((r) => (r.pageProblem ? [r.pageProblem] : [])),
  ].slice(0, 5);
  if (failures.length > 0) lines.push('', `Fallos (muestra): ${failures.join(' | ')}`);
  return { table: lines.join('\n'), ok: checks.every((c) => c.ok) };
}

/** The whole run: the machine, the cluster, one drop per call of ROUNDS; resolves to whether every check passed. */
async function rush(started: Started): Promise<boolean> {
  if (!findNginx()) throw new Error('nginx is missing: apt-get install -y nginx');
  const loadBefore = loadAverage();
  const index = await benchmarkIndex();
  console.log(`carga (preventa): ${new Date().toISOString()}; ${machine()}; carga del sistema ${loadBefore}; benchmarkIndex ${index ?? '?'}`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tienda-preventa-'));
  started.work = work;
  const proxyPort = await freePort();
  const siteUrl = `http://127.0.0.1:${proxyPort}`;
  const out = outputFolder('preventa');
  started.out = out;
  let backend: (Backend & { child: ChildProcess }) | null = null;
  let db: pg.Client | null = null;
  let watcher: pg.Client | null = null;
  const instances = started.instances;
  let proxy: Proxy | null = null;
  try {
    backend = await startBackendProcess(siteUrl, path.join(work, 'data'));
    started.backend = backend;
    db = new pg.Client({ connectionString: backend.databaseUrl });
    // A lost connection fails the query in flight; as an event it would end the process before the cleanup.
    db.on('error', () => undefined);
    await db.connect();
    console.log('carga (preventa): compilando la tienda…');
    await buildShop(out.relative, backend, siteUrl);
    const { rows: products } = await db.query<{ id: string; name: string }>(
      // Sealed products, one per drop: a single card is sold by offer, and a preorder is not a drop.
      `select p.id, p.name from public.products p
        where p.available and coalesce(p.preorder, false) = false
          and not exists (select 1 from public.card_printings c where c.product_id = p.id)
          and not exists (select 1 from public.preorder_campaigns c where c.product_id = p.id)
        order by p.id limit $1`,
      [ROUNDS.length + 1],
    );
    if (products.length < ROUNDS.length + 1) throw new Error(`only ${products.length} sealed products for ${ROUNDS.length} drops and the everyday sales`);
    // The last one is sold as usual before each drop (pressEarly).
    const everyday = products.pop()!;
    await db.query('update public.products set stock = 100000, limit_per_customer = 10, on_sale_at = null where id = $1', [everyday.id]);
    for (let i = 0; i < INSTANCES; i++) {
      instances.push(
        await startInstance({ name: `servidor ${i + 1}`, port: await freePort(), outDir: out.relative, backend, siteUrl, env: { REBUILD_ON_CHANGE: '0' } }),
      );
    }
    proxy = await startNginx({ port: proxyPort, upstreams: instances.map((i) => i.port), dir: path.join(work, 'nginx'), cache: true });
    started.proxy = proxy;
    watcher = new pg.Client({ connectionString: backend.databaseUrl });
    watcher.on('error', () => undefined);
    await watcher.connect();
    const { rows: session } = await db.query<{ pid: number }>('select pg_backend_pid() as pid');
    const cluster: Cluster = { backend, postmaster: parentPid(Number(session[0]!.pid)), db, watcher, proxy, instances };
    let ok = true;
    for (const [i, rpc] of ROUNDS.entries()) {
      const round = await dropRound(cluster, rpc, products[i]!, everyday.id);
      console.log(`\n${round.table}\n`);
      ok &&= round.ok;
    }
    console.log(
      `carga (preventa): ${new Date().toISOString()}; carga del sistema al empezar ${loadBefore}, al terminar ${loadAverage()}; benchmarkIndex ${index ?? '?'}`,
    );
    return ok;
  } finally {
    agent.destroy();
    await watcher?.end().catch(() => undefined);
    await proxy?.stop().catch(() => undefined);
    await Promise.all(instances.map((i) => i.stop().catch(() => undefined)));
    await db?.end().catch(() => undefined);
    await backend?.stop().catch(() => undefined);
    out.remove();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** What the run has started, for stopping it at once when it runs out of time. */
interface Started {
  work?: string;
  out?: ReturnType<typeof outputFolder>;
  backend?: Backend & { child: ChildProcess };
  instances: Instance[];
  proxy?: Proxy;
}

/** Kills everything the run started and removes its folders, without waiting for anything it was doing. */
async function stopAtOnce(started: Started): Promise<void> {
  for (const instance of started.instances) instance.kill();
  // TERM: nginx's fast shutdown, its workers with it (a KILL would leave them running).
  started.proxy?.child.kill('SIGTERM');
  if (started.backend) {
    try {
      process.kill(-started.backend.child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    await Promise.race([started.backend.pg.stop().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 20_000))]);
  }
  started.out?.remove();
  if (started.work) fs.rmSync(started.work, { recursive: true, force: true });
}

/**
 * `npm run load -- --drop`: the drops, bounded by LOAD_DROP_MAX_S; exit code 1 when a check fails.
 * Past that time whatever the run started is killed and the process leaves with exit code 1.
 */
export async function runDropRush(): Promise<void> {
  const started: Started = { instances: [] };
  let timer: NodeJS.Timeout | undefined;
  const overtime = new Promise<'overtime'>((resolve) => {
    timer = setTimeout(() => resolve('overtime'), MAX_MS);
  });
  try {
    const outcome = await Promise.race([rush(started), overtime]);
    if (outcome === 'overtime') {
      console.error(`carga (preventa): the drop run took longer than ${MAX_MS / 1000} s; stopping everything it started`);
      await stopAtOnce(started);
      process.exit(1);
    }
    if (!outcome) process.exitCode = 1;
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  } finally {
    clearTimeout(timer);
  }
}
