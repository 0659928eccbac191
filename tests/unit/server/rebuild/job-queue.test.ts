/**
 * Catalogue rebuilds shared by several server processes (supabase/migrations/…_rebuild_jobs.sql
 * and src/server/rebuild/job-queue.ts): requests merge into one queued job with the union of the
 * changed products, a change seen by every process counts once, one process of a site builds at a
 * time, a process that dies mid-build leaves its job to be built again by another, and the
 * admins' request limit is counted in the database. Two SharedRebuilds play two server processes
 * on one migrated database, with builds the test finishes by hand.
 */
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BuildChanges, RebuildStatus } from '~/server/rebuild/types.ts';
import { SharedRebuilds, type ClaimedJob, type JobStore } from '~/server/rebuild/job-queue.ts';
import { migratedPglite } from '../../../db/support.ts';

let db: PGlite;

async function value<T>(sql: string, params: unknown[] = []): Promise<T> {
  const { rows } = await db.query<{ v: T }>(sql, params);
  return rows[0]!.v;
}

/** The job store over SQL, calling the same functions the REST store calls. */
function sqlStore(site: string): JobStore {
  return {
    async request(reason, request) {
      const r = await value<{ deduplicated: boolean }>('select public.request_catalogue_rebuild($1, $2, $3, $4) as v', [
        site,
        reason,
        request.productIds ?? null,
        request.keys?.length ? request.keys : null,
      ]);
      return { deduplicated: r.deduplicated };
    },
    async claim(holder, seconds) {
      const job = await value<ClaimedJob | null>('select public.claim_catalogue_rebuild($1, $2, $3) as v', [site, holder, seconds]);
      return job ? { ...job, id: Number(job.id) } : null;
    },
    async renew(id, holder, seconds, progress) {
      return value<boolean>('select public.renew_catalogue_rebuild($1, $2, $3, $4) as v', [id, holder, seconds, progress ? JSON.stringify(progress) : null]);
    },
    async finish(id, holder, error, pages) {
      return value<boolean>('select public.finish_catalogue_rebuild($1, $2, $3, $4) as v', [id, holder, error, pages]);
    },
    async status() {
      const s = await value<Record<string, unknown>>('select public.catalogue_rebuild_status($1) as v', [site]);
      return s as unknown as RebuildStatus;
    },
  };
}

/** A build function whose runs the test ends by hand, recording what each was asked to build. */
function controlledBuilds() {
  const runs: Array<{ changes: BuildChanges | null; resolve: () => void; reject: (e: Error) => void }> = [];
  const build = (_report?: unknown, changes?: BuildChanges | null) =>
    new Promise<void>((resolve, reject) => {
      runs.push({ changes: changes ?? null, resolve, reject });
    });
  return { build, runs };
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const jobs = () =>
  db.query<{ id: number; status: string; product_ids: string[] | null; attempts: number; holder: string | null }>(
    'select id, status, product_ids, attempts, holder from public.rebuild_jobs order by id',
  );

beforeAll(async () => {
  db = await migratedPglite();
});

afterAll(async () => {
  await db?.close();
});

beforeEach(async () => {
  await db.exec('truncate public.rebuild_jobs, public.rebuild_change_keys, public.rebuild_admin_requests');
});

describe('rebuild jobs in the database', () => {
  it('merges requests into one queued job: the union of the products, and a full request makes it full', async () => {
    const store = sqlStore('tienda');
    await store.request('realtime', { productIds: ['pk-2', 'pk-1'] });
    await store.request('realtime', { productIds: ['pk-3', 'pk-1'] });
    expect((await jobs()).rows).toEqual([expect.objectContaining({ status: 'queued', product_ids: ['pk-1', 'pk-2', 'pk-3'] })]);
    await store.request('admin', {});
    await store.request('realtime', { productIds: ['pk-4'] });
    expect((await jobs()).rows).toEqual([expect.objectContaining({ status: 'queued', product_ids: null })]);
    // Nothing has started: no reason yet, as with the in-process manager.
    expect(await store.status()).toMatchObject({ status: 'queued', builds: 0, reason: null, startedAt: null });
  });

  it('counts a change once, whichever server asks for it first', async () => {
    const a = sqlStore('tienda');
    const keys = ['pk-1|UPDATE|2026-11-23T10:00:00.000Z', 'pk-2|INSERT|2026-11-23T10:00:00.000Z'];
    expect(await a.request('realtime', { productIds: ['pk-1', 'pk-2'], keys })).toEqual({ deduplicated: false });
    // The second server saw the same two changes.
    expect(await a.request('realtime', { productIds: ['pk-1', 'pk-2'], keys })).toEqual({ deduplicated: true });
    expect(await a.request('realtime', { productIds: ['pk-1'], keys: [keys[0]!] })).toEqual({ deduplicated: true });
    // A later edit of the same product is a new change.
    expect(await a.request('realtime', { productIds: ['pk-1'], keys: ['pk-1|UPDATE|2026-11-23T10:05:00.000Z'] })).toEqual({ deduplicated: false });
    const rows = (await jobs()).rows;
    expect(rows).toHaveLength(1);
    expect(await value<number>('select requests as v from public.rebuild_jobs')).toBe(2);
    // Another site (another output folder) keeps its own jobs.
    expect(await sqlStore('otra').request('realtime', { productIds: ['pk-1'], keys: [keys[0]!] })).toEqual({ deduplicated: false });
    expect((await jobs()).rows).toHaveLength(2);
  });

  it('lets one claim at a time build a site, and retries a job whose server stopped renewing it', async () => {
    const store = sqlStore('tienda');
    await store.request('admin', {});
    const first = await store.claim('servidor-a', 30);
    expect(first).toMatchObject({ productIds: null, attempts: 1 });
    await store.request('realtime', { productIds: ['pk-9'] });
    // B may not build while A's lease holds, even with a job queued.
    expect(await store.claim('servidor-b', 30)).toBeNull();
    expect(await store.renew(first!.id, 'servidor-a', 30, null)).toBe(true);
    expect(await store.renew(first!.id, 'servidor-b', 30, null)).toBe(false);
    expect(await store.status()).toMatchObject({ status: 'queued' });

    // A dies: its lease runs out. B's next claim takes the queued job, which now also carries A's
    // (full) build, and A's job is reported as failed.
    await db.query("update public.rebuild_jobs set lease_until = now() - interval '1 second' where id = $1", [first!.id]);
    const retried = await store.claim('servidor-b', 30);
    expect(retried).toMatchObject({ productIds: null, attempts: 2 });
    expect(retried!.id).not.toBe(first!.id);
    expect((await jobs()).rows.map((j) => j.status)).toEqual(['failed', 'running']);
    // A, back from a stall, finds it no longer holds its job.
    expect(await store.finish(first!.id, 'servidor-a', null, 10)).toBe(false);
    expect(await store.finish(retried!.id, 'servidor-b', null, 42)).toBe(true);
    expect(await store.status()).toMatchObject({ status: 'idle', builds: 2, failures: 1, lastError: null, lastPages: 42 });
  });

  it('queues a stopped server’s job again when nothing else waits, and gives up after three attempts', async () => {
    const store = sqlStore('tienda');
    await store.request('realtime', { productIds: ['pk-1'] });
    for (let attempt = 1; attempt <= 3; attempt++) {
      const job = await store.claim(`servidor-${attempt}`, 30);
      expect(job).toMatchObject({ productIds: ['pk-1'], attempts: attempt });
      await db.query("update public.rebuild_jobs set lease_until = now() - interval '1 second' where id = $1", [job!.id]);
    }
    expect(await store.claim('servidor-4', 30)).toBeNull();
    expect((await jobs()).rows).toEqual([expect.objectContaining({ status: 'failed', attempts: 3 })]);
    expect((await store.status()).lastError).toContain('tres veces');
  });

  it('counts an admin’s requests across servers: six an hour, then the seconds to wait', async () => {
    const admin = '00000000-0000-4000-8000-0000000000ad';
    for (let i = 0; i < 6; i++) expect(await value<number>('select public.take_rebuild_request($1, 6, 3600) as v', [admin])).toBe(0);
    const wait = await value<number>('select public.take_rebuild_request($1, 6, 3600) as v', [admin]);
    expect(wait).toBeGreaterThan(3500);
    expect(wait).toBeLessThanOrEqual(3600);
    expect(await value<number>('select public.take_rebuild_request($1, 6, 3600) as v', ['00000000-0000-4000-8000-0000000000ae'])).toBe(0);
    // An hour later the oldest no longer counts.
    await db.query(
      "update public.rebuild_admin_requests set requested_at = now() - interval '61 minutes' where requested_at = (select min(requested_at) from public.rebuild_admin_requests where admin_id = $1)",
      [admin],
    );
    const afterHour = await value<number>('select public.take_rebuild_request($1, 6, 3600) as v', [admin]);
    expect(afterHour).toBe(0);
  });
});

describe('two server processes sharing rebuilds', () => {
  const servers: SharedRebuilds[] = [];
  afterEach(() => servers.splice(0).forEach((s) => s.stop()));

  function server(holder: string, build: ConstructorParameters<typeof SharedRebuilds>[1], options: { builds?: boolean } = {}) {
    const rebuilds = new SharedRebuilds(sqlStore('tienda'), build, { holder, leaseSeconds: 30, heartbeatMs: 20, pollMs: 25, ...options });
    servers.push(rebuilds);
    rebuilds.start();
    return rebuilds;
  }

  it('builds on one process at a time, merges what arrives meanwhile, and both report the same status', async () => {
    const a = controlledBuilds();
    const b = controlledBuilds();
    const serverA = server('servidor-a', a.build);
    const serverB = server('servidor-b', b.build);
    // Asked on A: A claims it at once and answers building.
    expect((await serverA.request('admin')).status).toBe('building');
    expect(a.runs).toHaveLength(1);
    // Product changes arrive on both while A builds: one queued job with both products.
    expect((await serverB.request('realtime', { productIds: ['pk-1'], keys: ['pk-1|UPDATE|t1'] })).status).toBe('queued');
    expect(await serverA.request('realtime', { productIds: ['pk-1'], keys: ['pk-1|UPDATE|t1'] })).toMatchObject({ deduplicated: true });
    await serverA.request('realtime', { productIds: ['pk-2'], keys: ['pk-2|UPDATE|t2'] });
    // Several polls later, still nobody else builds.
    await new Promise((r) => setTimeout(r, 150));
    expect(a.runs.length + b.runs.length).toBe(1);
    expect(await serverB.status()).toMatchObject({ status: 'queued' });

    a.runs[0]!.resolve();
    // The queued job goes to whichever process claims first, with the union of the products.
    await until(() => a.runs.length + b.runs.length === 2, 'the queued build');
    const second = a.runs[1] ?? b.runs[0]!;
    expect(second.changes).toEqual({ productIds: ['pk-1', 'pk-2'] });
    expect((await serverA.status()).status).toBe('building');
    second.resolve();
    await until(async () => (await serverB.status()).status === 'idle', 'idle');
    const [statusA, statusB] = await Promise.all([serverA.status(), serverB.status()]);
    expect(statusA).toEqual(statusB);
    expect(statusA).toMatchObject({ status: 'idle', builds: 2, failures: 0, lastError: null });
    await new Promise((r) => setTimeout(r, 100));
    expect(a.runs.length + b.runs.length).toBe(2);
  });

  it('builds again on the other process when the building one stops mid-build', async () => {
    const a = controlledBuilds();
    const b = controlledBuilds();
    const serverA = new SharedRebuilds(sqlStore('tienda'), a.build, { holder: 'servidor-a', leaseSeconds: 1, heartbeatMs: 100, pollMs: 50 });
    servers.push(serverA);
    serverA.start();
    const serverB = server('servidor-b', b.build);
    await serverA.request('realtime', { productIds: ['pk-7'] });
    await until(() => a.runs.length === 1, 'A building');
    // A stops: no more heartbeats, and its build never reports an end.
    serverA.stop();
    const heartbeatsStopped = Date.now();
    await until(() => b.runs.length === 1, 'B retrying', 5000);
    // Not before A's one-second lease ran out.
    expect(Date.now() - heartbeatsStopped).toBeGreaterThanOrEqual(500);
    expect(b.runs[0]!.changes).toEqual({ productIds: ['pk-7'] });
    expect((await jobs()).rows).toEqual([expect.objectContaining({ status: 'running', attempts: 2, holder: 'servidor-b' })]);
    b.runs[0]!.resolve();
    await until(async () => (await serverB.status()).status === 'idle', 'idle');
    expect(await serverB.status()).toMatchObject({ builds: 1, failures: 0, lastError: null });
  });
});
