/**
 * The shop as two server processes behind nginx (Debian's package, started by the test with its
 * own configuration in a temp folder), sharing one PostgreSQL server and one output folder, all on
 * 127.0.0.1: both serve; a product edit is rebuilt once (both processes see it through realtime,
 * one request counts) and appears on the other process's static page; one process sweeps
 * reservations; a process killed mid-rebuild (with its build) leaves the other serving while it
 * builds that job again; and nginx's one-second micro-cache serves pages with the shop's headers,
 * never the API, and the new page soon after a rebuild.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN } from '../../scripts/seed/constants.ts';
import {
  buildShop,
  findNginx,
  freePort,
  outputFolder,
  startBackend,
  startInstance,
  startNginx,
  type Backend,
  type Instance,
  type Proxy,
} from '../../scripts/load/cluster.ts';
import { stopwatch } from './stopwatch.ts';
import { pgServerSupport } from '../db/pg-server.ts';

const PRODUCT = 'pk-booster-stellar-crown';

let backend: Backend;
let db: pg.Client;
let proxy: Proxy;
/** The same two processes behind nginx with its one-second micro-cache (docs/deploying.md). */
let cached: Proxy;
let a: Instance;
let b: Instance;
let work: string;
let out: ReturnType<typeof outputFolder>;
let siteUrl = '';
const { timings, timed } = stopwatch();

interface Job {
  id: string;
  status: string;
  holder: string | null;
  attempts: number;
  product_ids: string[] | null;
  requests: number;
  error: string | null;
}

const jobs = async () =>
  (await db.query<Job>('select id::text, status, holder, attempts, product_ids, requests, error from public.rebuild_jobs order by id')).rows;

/** The holder name (host-pid) of an instance, as the jobs table and the sweeper lease write it. */
const holderOf = (instance: Instance) => `${os.hostname()}-${instance.child.pid}`;

async function adminToken(): Promise<string> {
  const client = createClient(backend.url, backend.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const { data, error } = await client.auth.signInWithPassword({ email: DEMO_ADMIN.email, password: DEMO_ADMIN.password });
  if (error) throw new Error(error.message);
  return data.session!.access_token;
}

beforeAll(async () => {
  const support = pgServerSupport();
  if (!support.ok) throw new Error(`the two-server check needs a PostgreSQL server: ${support.reason}`);
  if (!findNginx()) throw new Error('the two-server check needs nginx (apt-get install -y nginx; .ci/run installs it)');
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'tienda-dos-servidores-'));
  const proxyPort = await freePort();
  siteUrl = `http://127.0.0.1:${proxyPort}`;
  backend = await timed('backend', () => startBackend(siteUrl, path.join(work, 'data')));
  db = new pg.Client({ connectionString: backend.databaseUrl });
  await db.connect();
  out = outputFolder('dos-servidores');
  await timed('build', () => buildShop(out.relative, backend, siteUrl));
  const env = {
    // Short enough for a test: a stopped builder's job is taken over after 4 s, idle processes
    // look for jobs twice a second, a sweep every second.
    REBUILD_LEASE_SECONDS: '4',
    REBUILD_POLL_MS: '500',
    REBUILD_DEBOUNCE_MS: '300',
    SWEEP_INTERVAL_MS: '1000',
  };
  await timed('servers', async () => {
    const [portA, portB] = [await freePort(), await freePort()];
    // One after the other: the first prepares the shared output folder.
    a = await startInstance({ name: 'A', port: portA, outDir: out.relative, backend, siteUrl, env });
    b = await startInstance({ name: 'B', port: portB, outDir: out.relative, backend, siteUrl, env });
    proxy = await startNginx({ port: proxyPort, upstreams: [portA, portB], dir: path.join(work, 'nginx') });
    cached = await startNginx({ port: await freePort(), upstreams: [portA, portB], dir: path.join(work, 'nginx-cache'), cache: true });
  });
  console.info(`[dos servidores] tiempos (ms): ${JSON.stringify(timings)}`);
});

afterAll(async () => {
  await proxy?.stop();
  await cached?.stop();
  await Promise.all([a?.stop(), b?.stop()]);
  await db?.end().catch(() => undefined);
  await backend?.stop();
  out?.remove();
  if (work) fs.rmSync(work, { recursive: true, force: true });
  console.info(`[dos servidores] tiempos (ms): ${JSON.stringify(timings)}`);
});

describe('two server processes behind nginx (one PostgreSQL server, one output folder)', () => {
  it('serves from both processes, directly and through nginx', async () => {
    for (const instance of [a, b]) {
      const res = await fetch(`${instance.url}/product/${PRODUCT}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).toBeTruthy();
    }
    const upstreams = new Set<string>();
    // Concurrent requests, so least_conn spreads them over both.
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(Array.from({ length: 8 }, () => fetch(`${proxy.url}/search-index.json`)));
      for (const res of answers) {
        expect(res.status).toBe(200);
        upstreams.add(res.headers.get('x-upstream') ?? '');
        await res.arrayBuffer();
      }
    }
    expect(upstreams).toEqual(new Set([`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`]));
  });

  it("nginx's micro-cache keeps pages for everyone with the shop's headers, and never the API", async () => {
    const url = `${cached.url}/product/${PRODUCT}`;
    const first = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
    const direct = await fetch(`${a.url}/product/${PRODUCT}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(first.status).toBe(200);
    const body = await first.text();
    expect(body).toBe(await direct.text());
    // Kept: the next request within the second is answered by nginx, with the same page and the
    // shop's own security headers.
    const second = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
    // HIT, or STALE/UPDATING when the second had already passed on a busy machine: nginx's copy either way.
    expect(['HIT', 'STALE', 'UPDATING']).toContain(second.headers.get('x-cache'));
    expect(await second.text()).toBe(body);
    for (const header of ['content-security-policy', 'x-content-type-options', 'etag']) {
      expect(second.headers.get(header), header).toBe(direct.headers.get(header));
    }
    // One copy per encoding: a client without compression gets plain HTML.
    const plain = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(body);
    // The API and the checkout are never kept.
    for (const route of ['/api/admin/rebuild', '/checkout/summary']) {
      await fetch(`${cached.url}${route}`).then((r) => r.arrayBuffer());
      const again = await fetch(`${cached.url}${route}`);
      await again.arrayBuffer();
      expect(again.headers.get('x-cache'), route).toBeNull();
    }
  });

  it('sweeps reservations on one process only', async () => {
    const key = backend.serviceRoleKey;
    const last = async (instance: Instance) => {
      const res = await fetch(`${instance.url}/api/internal/sweep`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { last: { at: string; report: { leader: boolean } } | null }).last;
    };
    // Both have swept a few times (every second).
    await expect.poll(async () => Boolean((await last(a)) && (await last(b))), { timeout: 15_000 }).toBe(true);
    await new Promise((r) => setTimeout(r, 2500));
    const leaders = [(await last(a))!.report.leader, (await last(b))!.report.leader];
    expect(leaders.filter(Boolean)).toHaveLength(1);
    const { rows } = await db.query<{ holder: string }>("select holder from public.sweeper_leases where name = 'payments'");
    expect(rows[0]?.holder).toBe(holderOf(leaders[0] ? a : b));
  });

  it('rebuilds a product edit once, and the other process serves the new static page', async () => {
    const before = await jobs();
    const name = `Sobre Corona Estelar edición ${Date.now()}`;
    // The admin's edit, written with the admin's session as the back office does.
    const token = await adminToken();
    const edit = await fetch(`${backend.url}/rest/v1/products?id=eq.${PRODUCT}`, {
      method: 'PATCH',
      headers: { apikey: backend.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json', prefer: 'return=minimal' },
      body: JSON.stringify({ name }),
    });
    expect(edit.status).toBe(204);
    // Both processes hear of it; one job, built once, with the product's id.
    await expect.poll(async () => (await jobs()).slice(before.length).map((j) => j.status), { timeout: 150_000, interval: 500 }).toEqual(['done']);
    const [job] = (await jobs()).slice(before.length);
    expect(job!.product_ids).toEqual([PRODUCT]);
    expect(job!.requests).toBe(1);
    const { rows: keys } = await db.query<{ key: string }>('select key from public.rebuild_change_keys where key like $1', [`${PRODUCT}|UPDATE|%`]);
    expect(keys).toHaveLength(1);
    // Each process asked; the second request counted as the same change.
    await expect.poll(() => [a, b].map((i) => i.output.join('')).join('\n'), { timeout: 5000 }).toMatch(/otro servidor ya la pidió/);
    // Whichever process built it, both serve it as a static file of the new build.
    for (const instance of [a, b]) {
      const res = await fetch(`${instance.url}/product/${PRODUCT}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).toBeTruthy();
      expect(await res.text()).toContain(name);
    }
    // nginx's micro-cache had the old page; it serves the new one within a few seconds.
    await expect.poll(async () => (await (await fetch(`${cached.url}/product/${PRODUCT}`)).text()).includes(name), { timeout: 5000, interval: 250 }).toBe(true);
    // And the status is the same from either process.
    const token2 = await adminToken();
    const statuses = await Promise.all(
      [a, b].map(async (i) => (await fetch(`${i.url}/api/admin/rebuild`, { headers: { authorization: `Bearer ${token2}` } })).json()),
    );
    expect(statuses[0]).toEqual(statuses[1]);
    expect(statuses[0]).toMatchObject({ status: 'idle', lastError: null });
    // A full build takes seconds on an idle machine, half a minute or more on a busy one.
  }, 200_000);

  it('keeps serving when the building process is killed mid-rebuild, and builds that job again on the other', async () => {
    const token = await adminToken();
    const before = await jobs();
    const accepted = await fetch(`${a.url}/api/admin/rebuild`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(accepted.status).toBe(202);
    // Wait until some process is building it, then kill that one with its build.
    await expect.poll(async () => (await jobs()).slice(before.length)[0]?.status, { timeout: 10_000, interval: 100 }).toBe('running');
    const [claimed] = (await jobs()).slice(before.length);
    const builder = claimed!.holder === holderOf(a) ? a : b;
    const survivor = builder === a ? b : a;
    expect(claimed!.holder).toBe(holderOf(builder));
    // A moment into the build (which takes several seconds), so the kill lands mid-build.
    await new Promise((r) => setTimeout(r, 1000));
    expect((await jobs()).find((j) => j.id === claimed!.id)?.status).toBe('running');
    builder.kill();
    const killedAt = Date.now();

    // Meanwhile the shop keeps answering, through nginx and from the survivor.
    const failures: string[] = [];
    let checks = 0;
    let retried: Job | undefined;
    while (Date.now() - killedAt < 150_000) {
      for (const url of [`${proxy.url}/`, `${proxy.url}/product/${PRODUCT}`, `${survivor.url}/search-index.json`]) {
        const res = await fetch(url).catch((error: Error) => ({ status: 0, statusText: error.message, arrayBuffer: async () => undefined }));
        checks += 1;
        if (res.status !== 200) failures.push(`${url} ${res.status}`);
        await res.arrayBuffer();
      }
      retried = (await jobs()).find((j) => j.id === claimed!.id);
      if (retried?.status === 'done') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(failures).toEqual([]);
    expect(checks).toBeGreaterThan(10);
    // The same job, taken over after the killed process's lease ran out, built by the survivor.
    expect(retried).toMatchObject({ status: 'done', attempts: 2, holder: holderOf(survivor), error: null });
    expect((await jobs()).slice(before.length)).toHaveLength(1);
    // The survivor also takes over sweeping once the killed one's lease runs out.
    await expect
      .poll(async () => (await db.query<{ holder: string }>("select holder from public.sweeper_leases where name = 'payments'")).rows[0]?.holder, {
        timeout: 15_000,
        interval: 500,
      })
      .toBe(holderOf(survivor));
    const status = await (await fetch(`${survivor.url}/api/admin/rebuild`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(status).toMatchObject({ status: 'idle', lastError: null });
  }, 200_000);
});
