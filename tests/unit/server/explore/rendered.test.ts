/**
 * /explore's rendered answers kept by address: reused while the catalogue is unchanged and for a
 * short window after it changes, one render for concurrent requests, errors never kept, and a
 * bounded size.
 */
import { describe, expect, it } from 'vitest';
import { KEPT_HEADER, RenderedAnswers } from '~/server/explore/rendered.ts';

/** A render that counts its calls and answers `body` (with the call's number) after `delayMs`. */
function counter(status = 200, delayMs = 0) {
  const calls = { n: 0 };
  const render = async () => {
    calls.n += 1;
    const n = calls.n;
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    return new Response(`<p>render ${n}</p>`, { status, headers: { 'content-type': 'text/html', 'cache-control': 'public, s-maxage=3', 'set-cookie': 'x=1' } });
  };
  return { calls, render };
}

describe('RenderedAnswers', () => {
  it('renders an address once while the catalogue keeps its version, and hands the same answer and headers out', async () => {
    const kept = new RenderedAnswers();
    const { calls, render } = counter();
    const first = await kept.answer('/explore?franquicia=pokemon', 1, render);
    const second = await kept.answer('/explore?franquicia=pokemon', 1, render);
    expect(calls.n).toBe(1);
    expect(await first.text()).toBe('<p>render 1</p>');
    expect(await second.text()).toBe('<p>render 1</p>');
    expect(first.headers.get(KEPT_HEADER)).toBe('miss');
    expect(second.headers.get(KEPT_HEADER)).toBe('hit');
    expect(second.headers.get('cache-control')).toBe('public, s-maxage=3');
    // Nothing of one visitor's answer is handed to another.
    expect(second.headers.get('set-cookie')).toBeNull();
    // Another address is another render.
    await kept.answer('/explore?franquicia=one-piece', 1, render);
    expect(calls.n).toBe(2);
  });

  it('after the catalogue changes, reuses an answer only within the window, then renders it again', async () => {
    let clock = 1_000;
    const kept = new RenderedAnswers({ reuseMs: 2000, now: () => clock });
    const { calls, render } = counter();
    await kept.answer('/explore', 1, render);
    clock += 1500;
    expect(await (await kept.answer('/explore', 2, render)).text()).toBe('<p>render 1</p>');
    clock += 600;
    expect(await (await kept.answer('/explore', 2, render)).text()).toBe('<p>render 2</p>');
    expect(calls.n).toBe(2);
    // The new answer is kept for the new version however old it gets.
    clock += 60_000;
    expect(await (await kept.answer('/explore', 2, render)).text()).toBe('<p>render 2</p>');
    expect(calls.n).toBe(2);
  });

  it('shares one render among requests for the same address that arrive together', async () => {
    const kept = new RenderedAnswers();
    const { calls, render } = counter(200, 20);
    const answers = await Promise.all(Array.from({ length: 10 }, () => kept.answer('/explore/resultados?q=pikachu', 1, render)));
    expect(calls.n).toBe(1);
    const bodies = await Promise.all(answers.map((answer) => answer.text()));
    expect(new Set(bodies)).toEqual(new Set(['<p>render 1</p>']));
  });

  it('keeps no answer that is not a 200: each request renders again and reads its own body', async () => {
    const kept = new RenderedAnswers();
    const { calls, render } = counter(500, 10);
    const [a, b] = await Promise.all([kept.answer('/explore', 1, render), kept.answer('/explore', 1, render)]);
    expect(a.status).toBe(500);
    expect(await a.text()).toBe('<p>render 1</p>');
    expect(await b.text()).toBe('<p>render 1</p>');
    await kept.answer('/explore', 1, render);
    expect(calls.n).toBe(2);
    expect(kept.size.answers).toBe(0);
  });

  it('drops the least recently used answers beyond its size', async () => {
    // Each body is 15 characters (30 bytes as a string in memory): room for three.
    const kept = new RenderedAnswers({ maxBytes: 95 });
    const { calls, render } = counter();
    for (const key of ['a', 'b', 'c']) await kept.answer(key, 1, render);
    await kept.answer('a', 1, render);
    await kept.answer('d', 1, render);
    expect(kept.size).toEqual({ answers: 3, bytes: 90 });
    expect(calls.n).toBe(4);
    // 'b' was the least recently used: rendered again; 'a' was kept.
    await kept.answer('a', 1, render);
    expect(calls.n).toBe(4);
    await kept.answer('b', 1, render);
    expect(calls.n).toBe(5);
  });
});
