/**
 * npm run load's shoppers who explore (scripts/load/explorers.ts), against a small local server:
 * they ask only for the addresses given, every answer is timed and counted once as a page or as
 * results, answers from nginx's cache and from the shop, and the answers other than 2xx are told apart.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { percentile, percentiles } from '../../../scripts/load/stats.ts';
import { runExplorers, shuffled } from '../../../scripts/load/explorers.ts';
import type { ExploreAddress } from '../../../scripts/load/explore.ts';

const ADDRESSES: ExploreAddress[] = [
  { kind: 'un-filtro', path: '/explore?franquicia=pokemon' },
  { kind: 'un-filtro', path: '/explore/resultados?franquicia=pokemon' },
  { kind: 'orden', path: '/explore?orden=nombre' },
  { kind: 'orden', path: '/explore/resultados?orden=nombre' },
  { kind: 'sin-resultados', path: '/explore/resultados?q=xqzvbnwtk' },
  { kind: 'ver-mas', path: '/explore/resultados?pagina=2&solo=mas' },
];
const MISSING = '/explore?orden=nombre';

const seen: string[] = [];
let server: http.Server;
let url = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    // The results come 'from the cache'; one page is missing.
    const headers: Record<string, string> = { 'content-type': 'text/html' };
    if (req.url?.startsWith('/explore/resultados')) headers['X-Cache'] = req.url.includes('orden') ? 'STALE' : 'HIT';
    else if (req.url?.includes('franquicia')) {
      headers['X-Cache'] = 'EXPIRED';
      // The shop searched and rendered it for this request.
      headers['X-Explore-Answer'] = 'miss';
    }
    res.writeHead(req.url === MISSING ? 404 : 200, headers);
    res.end('<p>ok</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

it('times every answer of the addresses given, pages and results apart', async () => {
  const result = await runExplorers({ url, connections: 3, rate: 10, seconds: 2, addresses: ADDRESSES });
  const paths = new Set(ADDRESSES.map((a) => a.path));
  expect(seen.length).toBeGreaterThan(20);
  // Only the list's addresses, never the placeholder request autocannon starts with.
  for (const path of seen) expect(paths.has(path), path).toBe(true);
  expect(result.all.n).toBeGreaterThanOrEqual(20);
  expect(result.all.n).toBeLessThanOrEqual(seen.length);
  expect(result.pages.n + result.results.n).toBe(result.all.n);
  // Each answer is counted where the server says it went.
  const answeredResults = seen.filter((p) => p.startsWith('/explore/resultados')).length;
  expect(Math.abs(result.results.n - answeredResults)).toBeLessThanOrEqual(3);
  // A kept copy (HIT, STALE) did not wait on the shop; a page did (EXPIRED, or no cache).
  expect(result.cacheHits).toBeCloseTo(result.results.n / result.all.n, 5);
  expect(result.fromShop.n).toBe(result.pages.n);
  // Of those, the shop says which it rendered for the request (the page with a franchise); the 404s it did not.
  const renderedPages = seen.filter((p) => p === '/explore?franquicia=pokemon').length;
  expect(result.rendered.n).toBeGreaterThan(0);
  expect(Math.abs(result.rendered.n - renderedPages)).toBeLessThanOrEqual(3);
  expect(result.rendered.n).toBeLessThan(result.fromShop.n);
  expect(result.non2xx).toBeGreaterThan(0);
  expect(result.failedSamples.length).toBeGreaterThan(0);
  for (const sample of result.failedSamples) expect(sample).toBe(`404 ${MISSING}`);
  expect(result.errors).toBe(0);
  expect(result.connections).toBe(3);
  expect(result.addresses).toBe(ADDRESSES.length);
  expect(result.all.p50).toBeLessThanOrEqual(result.all.p95);
  expect(result.all.p95).toBeLessThanOrEqual(result.all.p99);
  for (const slow of result.slowest) expect(paths.has(slow.path)).toBe(true);
}, 20_000);

it('shuffles without losing or repeating an item', () => {
  const items = Array.from({ length: 50 }, (_, i) => i);
  const order = shuffled(items);
  expect([...order].sort((a, b) => a - b)).toEqual(items);
  expect(items).toEqual(Array.from({ length: 50 }, (_, i) => i));
});

it('gives nearest-rank percentiles', () => {
  const values = Array.from({ length: 100 }, (_, i) => i + 1);
  expect(percentile(values, 50)).toBe(50);
  expect(percentile(values, 95)).toBe(95);
  expect(percentile(values, 99)).toBe(99);
  expect(percentile([], 95)).toBeNaN();
  expect(percentiles([3, 1, 2])).toEqual({ n: 3, p50: 2, p95: 3, p99: 3 });
});
