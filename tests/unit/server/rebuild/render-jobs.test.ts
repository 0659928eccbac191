/**
 * The props of a page the server renders after an edit wait under a one-time token
 * (src/server/rebuild/render-jobs.ts): only a request with that token and for that kind of page
 * takes them, once.
 */
import { describe, expect, it } from 'vitest';
import { dropRenderJob, inBatches, putRenderJob, takeRenderJob, type RenderJob } from '~/server/rebuild/render-jobs.ts';

const home: RenderJob = { kind: 'home', path: '/', props: { products: [] } };

describe('render jobs', () => {
  it('hand a page its props once, for its own kind only', () => {
    const token = putRenderJob(home);
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    expect(takeRenderJob(null, 'home')).toBeNull();
    expect(takeRenderJob('adivinado', 'home')).toBeNull();
    // Another kind of page does not take it, nor use it up.
    expect(takeRenderJob(token, 'product')).toBeNull();
    expect(takeRenderJob(token, 'home')).toBe(home);
    expect(takeRenderJob(token, 'home')).toBeNull();
  });

  it('forgets a job its page never took', () => {
    const token = putRenderJob(home);
    expect(putRenderJob(home)).not.toBe(token);
    dropRenderJob(token);
    expect(takeRenderJob(token, 'home')).toBeNull();
  });
});

describe('inBatches', () => {
  it('runs at most `limit` at once and answers in the items order, whatever order they end in', async () => {
    let running = 0;
    let most = 0;
    const answer = await inBatches([30, 5, 20, 1, 10, 0], 2, async (ms) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, ms));
      running -= 1;
      return ms * 2;
    });
    expect(answer).toEqual([60, 10, 40, 2, 20, 0]);
    expect(most).toBe(2);
  });
});
