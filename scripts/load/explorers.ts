/**
 * The shoppers who explore in `npm run load`: autocannon connections through nginx, each asking
 * at `rate` requests a second for the /explore addresses of ./explore.ts in an order of its own
 * (set before its first request), at moments of its own across each second (./arrivals.ts), so
 * at any moment they ask for different addresses, as shoppers do, and an address comes back now
 * and then (nginx and the servers keep answers for a few
 * seconds). Every answer is timed, and told apart: the page (/explore?…) or the results its
 * script fetches after a change (/explore/resultados?…), and whether nginx gave it from its
 * micro-cache without asking the shop (X-Cache HIT, STALE or UPDATING: a kept copy, fresh or being
 * refreshed in the background) or the answer waited on a shop server (MISS, EXPIRED,
 * REVALIDATED, or no cache at all): the server call whose time the requirement is about. Of
 * those, the server's own header (X-Explore-Answer, src/server/explore/rendered.ts) tells an
 * answer it searched and rendered for this request (`miss`) from one it had kept (`hit`).
 */
import type autocannon from 'autocannon';
import { ARRIVAL_GROUPS, spreadAutocannon } from './arrivals.ts';
import type { ExploreAddress } from './explore.ts';
import { percentiles, type Percentiles } from './stats.ts';

export interface ExploreResult {
  connections: number;
  addresses: number;
  requests: number;
  rps: number;
  errors: number;
  non2xx: number;
  timeouts: number;
  /** Every answer, then the pages (/explore?…) and the results alone (/explore/resultados?…). */
  all: Percentiles;
  pages: Percentiles;
  results: Percentiles;
  /** The share of answers nginx gave from its micro-cache without asking the shop (X-Cache HIT, STALE, UPDATING). */
  cacheHits: number;
  /** The answers that waited on a shop server (the server calls). */
  fromShop: Percentiles;
  /** Of those, the ones the server searched and rendered for the request (X-Explore-Answer: miss). */
  rendered: Percentiles;
  /** The slowest addresses by p95 (of those answered at least 5 times). */
  slowest: Array<{ path: string } & Percentiles>;
  /** A few addresses that got an answer other than 2xx, with the status. */
  failedSamples: string[];
}

/** nginx's X-Cache values for an answer given from its cache without waiting on the shop. */
export const FROM_CACHE = new Set(['HIT', 'STALE', 'UPDATING']);

/** A random order of items (Fisher–Yates). */
export function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** Runs the explorers against `url` (nginx) for `seconds` and times every answer. */
export function runExplorers(options: {
  url: string;
  connections: number;
  rate: number;
  seconds: number;
  addresses: ExploreAddress[];
  /** How many groups the connections' arrivals are spread over (./arrivals.ts); 1: all in step. */
  groups?: number;
}): Promise<ExploreResult> {
  const { addresses } = options;
  const times = { all: [] as number[], pages: [] as number[], results: [] as number[], fromShop: [] as number[], rendered: [] as number[] };
  const byAddress = new Map<string, number[]>();
  const failedSamples: string[] = [];
  let cacheHits = 0;
  // The address just answered: a request's onResponse names it right before the client's
  // 'response' event, which has the time.
  let answered: { path: string; cache: string; made: string } | null = null;
  const collect = (instance: autocannon.Instance) =>
    instance.on('response', (_client, status, _bytes, responseTime) => {
      const address = answered;
      answered = null;
      times.all.push(responseTime);
      if (!address) return;
      (address.path.startsWith('/explore/resultados') ? times.results : times.pages).push(responseTime);
      if (FROM_CACHE.has(address.cache)) cacheHits += 1;
      else {
        times.fromShop.push(responseTime);
        if (address.made === 'miss') times.rendered.push(responseTime);
      }
      const list = byAddress.get(address.path) ?? [];
      list.push(responseTime);
      byAddress.set(address.path, list);
      if ((status < 200 || status > 299) && failedSamples.length < 5) failedSamples.push(`${status} ${address.path}`);
    });
  return spreadAutocannon(
    {
      url: options.url,
      connections: options.connections,
      connectionRate: options.rate,
      duration: options.seconds,
      timeout: 10,
      headers: { 'accept-encoding': 'br, gzip' },
      // Replaced for each connection by setupClient before its first request.
      requests: [{ method: 'GET', path: '/explore' }],
      setupClient: (client) =>
        client.setRequests(
          shuffled(addresses).map(({ path }) => ({
            method: 'GET' as const,
            path,
            onResponse: (_status: number, _body: string, _context: object, headers: Record<string, unknown> | undefined) => {
              const cache = headers?.['X-Cache'] ?? headers?.['x-cache'];
              const made = headers?.['x-explore-answer'] ?? headers?.['X-Explore-Answer'];
              answered = { path, cache: typeof cache === 'string' ? cache : '', made: typeof made === 'string' ? made : '' };
            },
          })),
        ),
    },
    collect,
    options.groups ?? ARRIVAL_GROUPS,
  ).then((totals) => ({
    connections: options.connections,
    addresses: addresses.length,
    requests: totals.requests,
    rps: totals.rps,
    errors: totals.errors,
    non2xx: totals.non2xx,
    timeouts: totals.timeouts,
    all: percentiles(times.all),
    pages: percentiles(times.pages),
    results: percentiles(times.results),
    cacheHits: times.all.length > 0 ? cacheHits / times.all.length : 0,
    fromShop: percentiles(times.fromShop),
    rendered: percentiles(times.rendered),
    slowest: [...byAddress.entries()]
      .filter(([, list]) => list.length >= 5)
      .map(([path, list]) => ({ path, ...percentiles(list) }))
      .sort((a, b) => b.p95 - a.p95)
      .slice(0, 3),
    failedSamples,
  }));
}
