/**
 * /explore's rendered answers kept by address: reused while no change could alter them (nothing a
 * search sees, none of the products shown) and for a short window after any change, one render
 * for concurrent requests, errors never kept, and a bounded size and number of answers; kept by
 * what the page shows (keptKey), so junk in an address is never a new answer.
 */
import { describe, expect, it } from 'vitest';
import { filtersFromQuery, MAX_PAGES } from '~/domain/explore-url.ts';
import { ENTRY_BYTES, KEPT_HEADER, keptKey, MAX_ANSWERS, MAX_BYTES, RenderedAnswers, type CatalogState } from '~/server/explore/rendered.ts';

/** A render that counts its calls and answers `body` (with the call's number) after `delayMs`, showing `shown`. */
function counter(status = 200, delayMs = 0, shown: string[] | null = ['a', 'b']) {
  const calls = { n: 0 };
  const render = async () => {
    calls.n += 1;
    const n = calls.n;
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    const response = new Response(`<p>render ${n}</p>`, {
      status,
      headers: { 'content-type': 'text/html', 'cache-control': 'public, s-maxage=3', 'set-cookie': 'x=1', 'server-timing': 'search;dur=12.5' },
    });
    return { response, shown };
  };
  return { calls, render };
}

/**
 * A catalogue at `version`, whose last change a search sees was `searchVersion`, with products
 * changed at the versions given, read at `catalogVersion` (its changes since are stock).
 */
function catalog(version: number, searchVersion = version, changed: Record<string, number> = {}, catalogVersion = 1): CatalogState {
  return { version, searchVersion, catalogVersion, changedAt: (id) => changed[id] ?? 0 };
}

describe('RenderedAnswers', () => {
  it('renders an address once while the catalogue keeps its version, and hands the same answer and headers out', async () => {
    const kept = new RenderedAnswers();
    const { calls, render } = counter();
    const first = await kept.answer('/explore?franquicia=pokemon', catalog(1), render);
    const second = await kept.answer('/explore?franquicia=pokemon', catalog(1), render);
    expect(calls.n).toBe(1);
    expect(await first.text()).toBe('<p>render 1</p>');
    expect(await second.text()).toBe('<p>render 1</p>');
    expect(first.headers.get(KEPT_HEADER)).toBe('miss');
    expect(second.headers.get(KEPT_HEADER)).toBe('hit');
    expect(second.headers.get('cache-control')).toBe('public, s-maxage=3');
    // Nothing of one visitor's answer is handed to another.
    expect(second.headers.get('set-cookie')).toBeNull();
    // The search's time is the render's: an answer handed out again ran none.
    expect(first.headers.get('server-timing')).toMatch(/^search;dur=12\.5, render;dur=\d+\.\d$/);
    expect(second.headers.get('server-timing')).toBeNull();
    // Another address is another render.
    await kept.answer('/explore?franquicia=one-piece', catalog(1), render);
    expect(calls.n).toBe(2);
  });

  it("says in Server-Timing how long a new answer's render took, its body read whole", async () => {
    const kept = new RenderedAnswers();
    const { render } = counter(200, 40);
    const timing = (await kept.answer('/explore', catalog(1), render)).headers.get('server-timing') ?? '';
    const dur = Number(/render;dur=([\d.]+)/.exec(timing)?.[1]);
    expect(dur).toBeGreaterThanOrEqual(39);
    // A page without timings of its own gets the render's alone.
    const plain = async () => ({ response: new Response('<p>x</p>', { headers: { 'content-type': 'text/html' } }), shown: null });
    expect((await kept.answer('/explore?q=x', catalog(1), plain)).headers.get('server-timing')).toMatch(/^render;dur=\d+\.\d$/);
  });

  it('after a change a search sees, reuses an answer only within the window, then renders it again', async () => {
    let clock = 1_000;
    const kept = new RenderedAnswers({ reuseMs: 2000, now: () => clock });
    const { calls, render } = counter();
    await kept.answer('/explore', catalog(1), render);
    clock += 1500;
    expect(await (await kept.answer('/explore', catalog(2), render)).text()).toBe('<p>render 1</p>');
    clock += 600;
    expect(await (await kept.answer('/explore', catalog(2), render)).text()).toBe('<p>render 2</p>');
    expect(calls.n).toBe(2);
    // The new answer is kept for the new version however old it gets.
    clock += 60_000;
    expect(await (await kept.answer('/explore', catalog(2), render)).text()).toBe('<p>render 2</p>');
    expect(calls.n).toBe(2);
  });

  it('never reuses an answer made before the catalogue was read again (an edit published), even within the window', async () => {
    let clock = 1_000;
    const kept = new RenderedAnswers({ reuseMs: 2000, now: () => clock });
    const { calls, render } = counter();
    await kept.answer('/explore?q=caja', catalog(3, 3, {}, 1), render);
    clock += 100;
    // The owner renamed a product: the server read the catalogue the edit wrote, at version 4.
    expect(await (await kept.answer('/explore?q=caja', catalog(4, 4, {}, 4), render)).text()).toBe('<p>render 2</p>');
    // A sell-out read right after it: the window holds again for the answer made from the new catalogue.
    clock += 100;
    expect(await (await kept.answer('/explore?q=caja', catalog(5, 5, {}, 4), render)).text()).toBe('<p>render 2</p>');
    expect(calls.n).toBe(2);
  });

  it('keeps an answer through stock changes of products it does not show, not through a change of one it shows', async () => {
    let clock = 1_000;
    const kept = new RenderedAnswers({ reuseMs: 2000, now: () => clock });
    const { calls, render } = counter(200, 0, ['a', 'b']);
    await kept.answer('/explore?q=x', catalog(5), render);
    clock += 10_000;
    // 'z' sold a unit and stays in stock: the search finds and counts the same, the cards are the same.
    expect(await (await kept.answer('/explore?q=x', catalog(7, 5, { z: 7 }), render)).text()).toBe('<p>render 1</p>');
    expect(calls.n).toBe(1);
    // 'b', on the page, sold a unit: its card shows its stock.
    expect(await (await kept.answer('/explore?q=x', catalog(8, 5, { z: 7, b: 8 }), render)).text()).toBe('<p>render 2</p>');
    clock += 10_000;
    expect(await (await kept.answer('/explore?q=x', catalog(8, 5, { z: 7, b: 8 }), render)).text()).toBe('<p>render 2</p>');
    // A product sold out somewhere: every count of 'Solo disponibles' may change.
    expect(await (await kept.answer('/explore?q=x', catalog(9, 9, { z: 9, b: 8 }), render)).text()).toBe('<p>render 3</p>');
    expect(calls.n).toBe(3);
  });

  it('keeps an answer whose products are not known only while the catalogue keeps its version', async () => {
    let clock = 1_000;
    const kept = new RenderedAnswers({ reuseMs: 2000, now: () => clock });
    const { calls, render } = counter(200, 0, null);
    await kept.answer('/explore', catalog(1), render);
    await kept.answer('/explore', catalog(1), render);
    expect(calls.n).toBe(1);
    clock += 5000;
    await kept.answer('/explore', catalog(2, 1, { z: 2 }), render);
    expect(calls.n).toBe(2);
  });

  it('shares one render among requests for the same address that arrive together', async () => {
    const kept = new RenderedAnswers();
    const { calls, render } = counter(200, 20);
    const answers = await Promise.all(Array.from({ length: 10 }, () => kept.answer('/explore/resultados?q=pikachu', catalog(1), render)));
    expect(calls.n).toBe(1);
    const bodies = await Promise.all(answers.map((answer) => answer.text()));
    expect(new Set(bodies)).toEqual(new Set(['<p>render 1</p>']));
  });

  it('keeps no answer that is not a 200: each request renders again and reads its own body', async () => {
    const kept = new RenderedAnswers();
    const { calls, render } = counter(500, 10);
    const [a, b] = await Promise.all([kept.answer('/explore', catalog(1), render), kept.answer('/explore', catalog(1), render)]);
    expect(a.status).toBe(500);
    expect(await a.text()).toBe('<p>render 1</p>');
    expect(await b.text()).toBe('<p>render 1</p>');
    await kept.answer('/explore', catalog(1), render);
    expect(calls.n).toBe(2);
    expect(kept.size.answers).toBe(0);
  });

  it('drops the least recently used answers beyond its size', async () => {
    // What one answer counts as (every key and body here is as long as the others): room for three and a half.
    const one = new RenderedAnswers();
    await one.answer('a', catalog(1), counter().render);
    const each = one.size.bytes;
    const kept = new RenderedAnswers({ maxBytes: Math.floor(each * 3.5) });
    const { calls, render } = counter();
    for (const key of ['a', 'b', 'c']) await kept.answer(key, catalog(1), render);
    await kept.answer('a', catalog(1), render);
    await kept.answer('d', catalog(1), render);
    expect(kept.size).toEqual({ answers: 3, bytes: 3 * each });
    expect(calls.n).toBe(4);
    // 'b' was the least recently used: rendered again; 'a' was kept.
    await kept.answer('a', catalog(1), render);
    expect(calls.n).toBe(4);
    await kept.answer('b', catalog(1), render);
    expect(calls.n).toBe(5);
  });

  it('counts an answer as its body, key and headers and a share of its own, and keeps no more answers than its cap however small', async () => {
    const kept = new RenderedAnswers({ maxAnswers: 3 });
    const { calls, render } = counter();
    const key = `/explore|${'k'.repeat(500)}`;
    await kept.answer(key, catalog(1), render);
    const headerCharacters = ['content-type', 'text/html', 'cache-control', 'public, s-maxage=3'].join('').length;
    // Body, key and headers at two bytes a character, and more for the rest of the entry.
    expect(kept.size.bytes).toBeGreaterThanOrEqual(('<p>render 1</p>'.length + key.length + headerCharacters) * 2 + ENTRY_BYTES);
    for (const other of ['b', 'c', 'd', 'e']) await kept.answer(other, catalog(1), render);
    expect(kept.size.answers).toBe(3);
    expect(calls.n).toBe(5);
    // The oldest two went first.
    await kept.answer(key, catalog(1), render);
    expect(calls.n).toBe(6);
  });
});

describe('keptKey', () => {
  it('keeps an address by what its page shows: parameters it ignores, their order and values it refuses change nothing', () => {
    const key = keptKey('/explore', '?q=pikachu&franquicia=pokemon');
    for (const junk of [
      '?q=pikachu&franquicia=pokemon&utm_source=x&fbclid=123',
      '?franquicia=pokemon&q=pikachu',
      '?q=%20%20pikachu%20&franquicia=pokemon&tipo=NOT%20A%20SLUG&orden=nada&precio_min=barato&disponible=quiza&pagina=-4',
      `?q=pikachu&franquicia=pokemon&${'a'.repeat(4000)}=${'b'.repeat(4000)}`,
      // `solo` means nothing on the page itself.
      '?q=pikachu&franquicia=pokemon&solo=mas&pagina=1',
    ]) {
      expect(keptKey('/explore', junk)).toBe(key);
    }
    // What the page shows does change it.
    const others = [
      keptKey('/explore', '?q=pikachu'),
      keptKey('/explore', '?q=pikachu&franquicia=pokemon&pagina=2'),
      keptKey('/explore', '?q=pikachu&franquicia=pokemon&orden=precio-asc'),
      keptKey('/explore', '?q=pikachu&franquicia=pokemon&disponible=1'),
      keptKey('/explore/resultados', '?q=pikachu&franquicia=pokemon'),
      keptKey('/explore/resultados', '?q=pikachu&franquicia=pokemon&solo=mas'),
    ];
    expect(new Set([key, ...others]).size).toBe(others.length + 1);
    // A page past the last one allowed is that last page.
    expect(keptKey('/explore', `?pagina=${MAX_PAGES + 50}`)).toBe(keptKey('/explore', `?pagina=${MAX_PAGES}`));
  });

  it('holds everything the page reads from its address: the filters read back from the key are those of the address', () => {
    const addresses = [
      '?q=Pikachu%20ex&franquicia=pokemon&tipo=sobre&expansion=corona-astral&disponible=1&preventa=true&oferta=1&precio_min=100&precio_max=2500&orden=nuevos',
      '?rareza=SR&condicion=NM&idioma=es&acabado=holo&graduadas=1&pagina=3',
      '?q=%C3%B1o%C3%B1o&zzz=1',
      '',
    ];
    for (const address of addresses) {
      const query = keptKey('/explore', address).split('|').at(-1)!;
      expect(filtersFromQuery(query)).toEqual(filtersFromQuery(address));
    }
  });

  it('10,000 addresses with junk parameters: one render and one kept answer', async () => {
    const kept = new RenderedAnswers();
    const { calls, render } = counter();
    for (let i = 0; i < 10_000; i += 1) {
      const search = `?q=umbreon&junk${i}=${'x'.repeat(200)}&franquicia=pokemon&utm_campaign=${i}`;
      await kept.answer(keptKey('/explore', search), catalog(1), render);
    }
    expect(calls.n).toBe(1);
    expect(kept.size.answers).toBe(1);
    expect(kept.size.bytes).toBeLessThan(4 * ENTRY_BYTES);
  });

  it('10,000 different searches stay within the answers and bytes a server keeps, each counted with its key and headers', async () => {
    const kept = new RenderedAnswers();
    const csp = `default-src 'self'; ${'script-src sha256-abc; '.repeat(60)}`;
    let calls = 0;
    const render = async () => {
      calls += 1;
      return { response: new Response('<p>sin resultados</p>', { headers: { 'content-type': 'text/html', 'content-security-policy': csp } }), shown: [] };
    };
    for (let i = 0; i < 10_000; i += 1) {
      await kept.answer(keptKey('/explore/resultados', `?q=${'zq'.repeat(20)}${i}&solo=mas&x=${i}`), catalog(1), render);
    }
    expect(calls).toBe(10_000);
    expect(kept.size.answers).toBeLessThanOrEqual(MAX_ANSWERS);
    expect(kept.size.bytes).toBeLessThanOrEqual(MAX_BYTES);
    // Each counted for its headers, not its 21-character body alone.
    expect(kept.size.bytes / kept.size.answers).toBeGreaterThan(csp.length * 2);
  });
});
