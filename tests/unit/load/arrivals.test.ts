/**
 * npm run load's arrivals (scripts/load/arrivals.ts): the shoppers' requests spread across each
 * second, against a small local server that notes when each request arrives; autocannon's own
 * way (one group) sends every connection's request in the same instant.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { groupDelay, groupSizes, spreadAutocannon } from '../../../scripts/load/arrivals.ts';

let arrivals: number[] = [];
let server: http.Server;
let url = '';

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    arrivals.push(performance.now());
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** The most requests that arrived within any `windowMs`. */
function busiestWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let first = 0;
  for (let last = 0; last < sorted.length; last++) {
    while (sorted[last]! - sorted[first]! > windowMs) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

async function run(groups: number): Promise<{ answers: number; totals: Awaited<ReturnType<typeof spreadAutocannon>> }> {
  arrivals = [];
  let answers = 0;
  const totals = await spreadAutocannon(
    { url, connections: 20, connectionRate: 1, duration: 3, requests: [{ method: 'GET', path: '/' }] },
    (instance) => instance.on('response', () => answers++),
    groups,
  );
  return { answers, totals };
}

it('splits connections into even groups, none empty, started evenly across one interval of the rate', () => {
  expect(groupSizes(200, 50)).toEqual(Array(50).fill(4));
  expect(groupSizes(20, 50)).toEqual(Array(20).fill(1));
  const uneven = groupSizes(7, 3);
  expect(uneven.reduce((a, b) => a + b, 0)).toBe(7);
  expect(Math.max(...uneven) - Math.min(...uneven)).toBeLessThanOrEqual(1);
  expect(groupSizes(5, 1)).toEqual([5]);
  expect(groupSizes(5, 0)).toEqual([5]);
  expect(groupDelay(0, 20, 1)).toBe(0);
  expect(groupDelay(10, 20, 1)).toBe(500);
  expect(groupDelay(19, 20, 2)).toBe(475);
});

it('spreads twenty shoppers at one request a second across the second; in one group they all arrive at once', async () => {
  const spread = await run(20);
  expect(spread.totals.groups).toBe(20);
  // Three seconds of one request a second from each of twenty connections.
  expect(arrivals.length).toBeGreaterThanOrEqual(40);
  expect(spread.answers).toBe(spread.totals.requests);
  expect(spread.totals.errors).toBe(0);
  expect(spread.totals.non2xx).toBe(0);
  // One connection every 50 ms: no more than a few within any 20 ms, even on a busy machine.
  const spreadBusiest = busiestWindow(arrivals, 20);
  expect(spreadBusiest).toBeLessThanOrEqual(8);

  const together = await run(1);
  expect(together.totals.groups).toBe(1);
  expect(together.answers).toBe(together.totals.requests);
  // autocannon's own way: each second's twenty requests leave in the same instant.
  expect(busiestWindow(arrivals, 20)).toBeGreaterThanOrEqual(15);
}, 30_000);
