/**
 * Work in slices (src/server/rebuild/turns.ts): a request that arrives while a long piece of work
 * runs is answered before the work ends, and the work's answer is the same as run at once.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runSteps, type Steps } from '~/domain/steps.ts';
import { Turns } from '~/server/rebuild/turns.ts';

/** `count` steps of `ms` of busy work each (no I/O: the event loop cannot run inside one), answering how many ran. */
function* busy(count: number, ms: number, ran: number[]): Steps<number> {
  for (let i = 0; i < count; i++) {
    const until = performance.now() + ms;
    while (performance.now() < until) {
      // busy
    }
    ran.push(performance.now());
    yield;
  }
  return ran.length;
}

let server: http.Server | null = null;
afterEach(() => {
  server?.close();
  server = null;
});

/** A server on 127.0.0.1 that answers at once and records when. */
async function answering(): Promise<{ url: string; answered: number[] }> {
  const answered: number[] = [];
  server = http.createServer((_request, response) => {
    answered.push(performance.now());
    response.end('ok');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`, answered };
}

describe('Turns', () => {
  it('answers a request that arrives during 40 steps of 10 ms before the work ends', async () => {
    const { url, answered } = await answering();
    const ran: number[] = [];
    const work = new Turns(20).finish(busy(40, 10, ran));
    const response = fetch(url).then((r) => r.text());
    expect(await work).toBe(40);
    expect(await response).toBe('ok');
    expect(answered).toHaveLength(1);
    // The request was answered while steps were still to run.
    expect(answered[0]!).toBeLessThan(ran[ran.length - 1]!);
  });

  it('run at once, the same work leaves the request waiting until it ends', async () => {
    const { url, answered } = await answering();
    const ran: number[] = [];
    const response = fetch(url).then((r) => r.text());
    // The fetch has not reached the server before the work starts: it waits behind all of it.
    expect(runSteps(busy(20, 10, ran))).toBe(20);
    expect(await response).toBe('ok');
    expect(answered[0]!).toBeGreaterThan(ran[ran.length - 1]!);
  });

  it('does not pause before its slice is used up', async () => {
    const turns = new Turns(60_000);
    let other = false;
    setImmediate(() => (other = true));
    const seen: boolean[] = [];
    function* work(): Steps<void> {
      for (let i = 0; i < 3; i++) {
        seen.push(other);
        yield;
      }
    }
    await turns.finish(work());
    expect(seen).toEqual([false, false, false]);
  });
});
