/**
 * Benchmarks of the local stack, measured the way the shop uses it (through supabase-js):
 * start-up on a fresh and an existing data dir, the product list and create_order under
 * 10 concurrent clients.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { startStack, type RunningStack } from './index.ts';
import { signJwt } from './jwt.ts';

/** The demo shopper's fixed id (scripts/seed/constants.ts). */
const DEMO_SHOPPER_ID = '5b1c2a9e-7d3f-4c4e-9a61-0c2f6b1e8a01';

export interface BenchRow {
  name: string;
  value: string;
  goal: string;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;

/** Runs `perClient` calls on each of `clients` concurrent loops; returns sorted latencies and wall time. */
async function load(clients: number, perClient: number, call: (client: number) => Promise<void>): Promise<{ latencies: number[]; wallMs: number }> {
  const latencies: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; i < perClient; i++) {
        const t = performance.now();
        await call(c);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const wallMs = performance.now() - t0;
  latencies.sort((a, b) => a - b);
  return { latencies, wallMs };
}

function client(url: string, key: string, token?: string): SupabaseClient {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  });
}

/** Runs the backend benchmarks and returns the table rows. */
export async function runBackendBench(options: { clients?: number; listRequests?: number; orderRequests?: number } = {}): Promise<BenchRow[]> {
  const clients = options.clients ?? 10;
  const listPerClient = Math.ceil((options.listRequests ?? 300) / clients);
  const orderPerClient = Math.ceil((options.orderRequests ?? 200) / clients);
  const rows: BenchRow[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tienda-bench-'));
  let stack: RunningStack | undefined;
  try {
    const templateDir = path.join(dataDir, 'templates');
    const common = { port: 0, host: '127.0.0.1', databaseUrl: '', templateDir } as const;
    const detail = (t: RunningStack['timings']) => ` (database ${ms(t.database)}, migrations ${ms(t.migrations)}, storage ${ms(t.storage)})`;
    const first = await startStack({ ...common, dataDir: path.join(dataDir, 'first') });
    await first.stop();
    rows.push({
      name: `Start-up, fresh data dir, no template yet (initdb + migrations + seed)${detail(first.timings)}`,
      value: ms(first.timings.total),
      goal: '< 5 s',
    });
    const fresh = await startStack({ ...common, dataDir: path.join(dataDir, 'fresh') });
    await fresh.stop();
    rows.push({
      name: `Start-up, fresh data dir from the cached template (after --reset)${detail(fresh.timings)}`,
      value: ms(fresh.timings.total),
      goal: '< 5 s',
    });

    stack = await startStack({ ...common, dataDir: path.join(dataDir, 'fresh') });
    rows.push({ name: `Start-up, existing data dir${detail(stack.timings)}`, value: ms(stack.timings.total), goal: '< 2 s' });

    const { url, anonKey } = stack.config;
    const anon = Array.from({ length: clients }, () => client(url, anonKey));
    const { data: probe, error: probeError } = await anon[0]!.from('products').select('*');
    if (probeError || !probe) throw new Error(`La lista de productos falló: ${probeError?.message}`);

    // Warm-up so the numbers describe steady state, not the first query plan.
    await load(clients, 2, async (c) => {
      await anon[c]!.from('products').select('*');
    });
    const list = await load(clients, listPerClient, async (c) => {
      const { error } = await anon[c]!.from('products').select('*');
      if (error) throw new Error(error.message);
    });
    rows.push({ name: `products select('*') (${probe.length} rows), ${clients} clients: median`, value: ms(percentile(list.latencies, 50)), goal: '' });
    rows.push({ name: `products select('*'), ${clients} clients: p95`, value: ms(percentile(list.latencies, 95)), goal: '' });
    rows.push({ name: `products select('*'), throughput`, value: `${((list.latencies.length / list.wallMs) * 1000).toFixed(0)} req/s`, goal: '' });

    // One cheap product with plenty of stock and no per-customer cap, so every order succeeds.
    const productId = await stack.ctx.db.admin(async (tx) => {
      const r = await tx.query<{ id: string }>(
        `update public.products set stock = 1000000, limit_per_customer = 1000000, available = true
          where id = (select id from public.products order by price, id limit 1) returning id`,
      );
      return r.rows[0]?.id;
    });
    if (!productId) throw new Error('No hay productos para medir create_order.');
    const now = Math.floor(Date.now() / 1000);
    const token = await signJwt({ sub: DEMO_SHOPPER_ID, role: 'authenticated', aud: 'authenticated', iat: now, exp: now + 3600 }, stack.config.jwtSecret);
    const shoppers = Array.from({ length: clients }, () => client(url, anonKey, token));
    let failures = 0;
    const orders = await load(clients, orderPerClient, async (c) => {
      const { error } = await shoppers[c]!.rpc('create_order', { items: [{ product_id: productId, quantity: 1 }] });
      if (error) failures++;
    });
    if (failures > 0) throw new Error(`${failures} llamadas a create_order fallaron`);
    rows.push({ name: `rpc('create_order'), ${clients} clients: median`, value: ms(percentile(orders.latencies, 50)), goal: '' });
    rows.push({ name: `rpc('create_order'), ${clients} clients: p95`, value: ms(percentile(orders.latencies, 95)), goal: '' });
    rows.push({ name: `rpc('create_order'), throughput`, value: `${((orders.latencies.length / orders.wallMs) * 1000).toFixed(0)} req/s`, goal: '' });
  } finally {
    await stack?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

/** Renders rows as a Markdown table. */
export function markdownTable(rows: BenchRow[]): string {
  const lines = ['| Measurement | Result | Goal |', '|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.name} | ${r.value} | ${r.goal} |`);
  return lines.join('\n');
}
