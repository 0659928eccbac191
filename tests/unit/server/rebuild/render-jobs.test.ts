/**
 * The props of a page the server renders after an edit wait under a one-time token
 * (src/server/rebuild/render-jobs.ts): only a request with that token and for that kind of page
 * takes them, once.
 */
import { describe, expect, it } from 'vitest';
import { dropRenderJob, putRenderJob, takeRenderJob, type RenderJob } from '~/server/rebuild/render-jobs.ts';

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
