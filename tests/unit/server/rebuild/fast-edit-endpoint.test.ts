/**
 * POST /api/internal/catalog-edit (src/server/rebuild/fast-edit-endpoint.ts): only the shop's
 * servers, only ids that can be products; and a page rendered through its render route, which
 * takes the job's props by its token.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastEditIO, FastEditResult } from '~/server/rebuild/fast-edit.ts';
import { EXPLORE_WAIT_MS, postCatalogEdit, renderThrough } from '~/server/rebuild/fast-edit-endpoint.ts';
import { takeRenderJob, RENDER_TOKEN_HEADER, type RenderJob } from '~/server/rebuild/render-jobs.ts';
import { handle } from '~/server/http/json.ts';

// The edit itself (fast-edit.ts, tested on its own) answers what each test sets.
// `early`: the files it says are written before it ends (FastEditIO.published), if any.
const edit = vi.hoisted(() => ({ result: { mode: 'fallback', reason: '' } as FastEditResult, early: null as string[] | null, toldBeforeEnd: 0 }));
vi.mock('~/server/rebuild/fast-edit.ts', async (original) => ({
  ...(await original<object>()),
  publishEdit: async (_ids: readonly string[], io: FastEditIO) => {
    // The edit goes on once what it was told settles, as fast-edit.ts does.
    const telling = edit.early ? io.published?.(edit.early) : undefined;
    edit.toldBeforeEnd = told.mock.calls.length;
    await telling;
    return edit.result;
  },
}));
const told = vi.hoisted(() => vi.fn());

const KEY = 'clave-de-servicio';
const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
  vi.unstubAllEnvs();
});

const post = (body: unknown, auth = `Bearer ${KEY}`, exploreWritten?: () => void | Promise<unknown>) =>
  handle(() =>
    postCatalogEdit(
      new Request('http://127.0.0.1:4321/api/internal/catalog-edit', {
        method: 'POST',
        headers: { Authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
      KEY,
      'http://127.0.0.1:54321',
      exploreWritten,
    ),
  );

/** An edit that the server published itself, having written `written`. */
const fast = (written: string[]): FastEditResult => ({ mode: 'fast', written, removed: [], ms: 1, steps: {}, searchFollows: false });

/** Runs `test` with this process serving a build from a temporary SHOP_OUT_DIR (its client folder empty). */
async function servingABuild(test: () => Promise<void>): Promise<void> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-edit-'));
  try {
    fs.mkdirSync(path.join(outDir, 'builds', 'b1', 'client'), { recursive: true });
    fs.symlinkSync(path.join('builds', 'b1', 'client'), path.join(outDir, 'client'), 'dir');
    vi.stubEnv('SHOP_OUT_DIR', outDir);
    vi.stubEnv('PUBLIC_SUPABASE_URL', 'http://127.0.0.1:54321');
    vi.stubEnv('PUBLIC_SUPABASE_ANON_KEY', 'anon');
    await test();
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

describe('POST /api/internal/catalog-edit', () => {
  it('answers 401 without the service role key and 400 for ids that cannot be products', async () => {
    const refused = await post({ productIds: ['a'] }, 'Bearer otra');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'not_authorized' });
    for (const body of [{ productIds: ['../a'] }, { productIds: 'a' }, {}, { productIds: Array.from({ length: 501 }, (_, i) => `p${i}`) }]) {
      const bad = await post(body);
      expect(bad.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(await bad.json()).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('leaves the edit to a build when this process serves no build', async () => {
    vi.stubEnv('SHOP_OUT_DIR', '');
    const answer = await post({ productIds: ['a'] });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ mode: 'fallback', reason: 'este servidor no sirve una compilación o no tiene base de datos' });
  });

  it("tells this server's /explore when the edit wrote its catalogue or its edits, and only then", async () => {
    await servingABuild(async () => {
      told.mockClear();
      edit.result = fast(['product/p1/index.html', 'explore/catalog.json']);
      expect(await (await post({ productIds: ['p1'] }, `Bearer ${KEY}`, told)).json()).toMatchObject({ mode: 'fast' });
      expect(told).toHaveBeenCalledTimes(1);
      // Or wrote its edits beside it.
      edit.result = fast(['product/p1/index.html', 'explore/catalog-edits.json']);
      await post({ productIds: ['p1'] }, `Bearer ${KEY}`, told);
      expect(told).toHaveBeenCalledTimes(2);
      edit.result = fast(['product/p1/index.html']);
      await post({ productIds: ['p1'] }, `Bearer ${KEY}`, told);
      edit.result = { mode: 'fallback', reason: 'una compilación' };
      await post({ productIds: ['p1'] }, `Bearer ${KEY}`, told);
      expect(told).toHaveBeenCalledTimes(2);
      // Told as soon as the edit has written /explore's files, before it ends, and once.
      edit.early = ['product/p1/index.html', 'explore/catalog-edits.json'];
      edit.result = fast([...edit.early, 'search-index.json']);
      await post({ productIds: ['p1'] }, `Bearer ${KEY}`, told);
      expect(edit.toldBeforeEnd).toBe(3);
      expect(told).toHaveBeenCalledTimes(3);
      edit.early = ['product/p1/index.html'];
      edit.result = fast([...edit.early, 'search-index.json']);
      await post({ productIds: ['p1'] }, `Bearer ${KEY}`, told);
      expect(told).toHaveBeenCalledTimes(3);
    });
  });

  it("goes on with the edit once this server's /explore has read it, or after EXPLORE_WAIT_MS", async () => {
    await servingABuild(async () => {
      edit.early = ['product/p1/index.html', 'explore/catalog-edits.json'];
      edit.result = fast([...edit.early, 'search-index.json']);
      let release = () => {};
      const reading = new Promise<void>((resolve) => (release = resolve));
      let ended = false;
      const answer = post({ productIds: ['p1'] }, `Bearer ${KEY}`, () => reading).then((response) => ((ended = true), response));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(ended).toBe(false);
      release();
      expect(await (await answer).json()).toMatchObject({ mode: 'fast' });
      // A read that does not end holds the edit EXPLORE_WAIT_MS, no longer.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        let done = false;
        const held = post({ productIds: ['p1'] }, `Bearer ${KEY}`, () => new Promise(() => {})).then(() => (done = true));
        await vi.advanceTimersByTimeAsync(EXPLORE_WAIT_MS - 50);
        expect(done).toBe(false);
        await vi.advanceTimersByTimeAsync(100);
        await held;
        expect(done).toBe(true);
      } finally {
        vi.useRealTimers();
      }
    });
    edit.early = null;
  });
});

describe('a page rendered through its route', () => {
  it('is the route’s answer to the job’s token; any other answer fails', async () => {
    const server = http.createServer((req, res) => {
      const kind = (req.url ?? '').replace('/catalog-render/', '') as RenderJob['kind'];
      const job = takeRenderJob(String(req.headers[RENDER_TOKEN_HEADER] ?? ''), kind);
      if (!job || req.headers['accept-encoding'] !== 'identity') res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': 'text/html' }).end(`<html>${job.path}</html>`);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    expect(await renderThrough(origin, { kind: 'home', path: '/', props: { products: [] } })).toBe('<html>/</html>');
    const failing = http.createServer((_req, res) => res.writeHead(500).end('error'));
    servers.push(failing);
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const failingOrigin = `http://127.0.0.1:${(failing.address() as { port: number }).port}`;
    await expect(renderThrough(failingOrigin, { kind: 'home', path: '/', props: { products: [] } })).rejects.toThrow(
      'La página / no se pudo generar (HTTP 500).',
    );
  });
});
