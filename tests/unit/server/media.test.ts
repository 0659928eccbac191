import { describe, expect, it } from 'vitest';
import { MEDIA_CACHE_CONTROL, MEDIA_COPY_CACHE_CONTROL, MEDIA_FRESH_MS, MediaCache, serveMedia } from '~/server/media.ts';

const BASE = 'http://storage.test/storage/v1/object/public/products/';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>';

/**
 * Supabase Storage's public object endpoint as it answers: the object with its ETag; 304 when
 * If-None-Match names the current ETag (with `honorsEtag`; some versions ignored it and sent the
 * object again); a missing object as 400 with a JSON error whose statusCode is "404".
 */
function storage(objects: Record<string, { body: string; type: string; etag: string }>, honorsEtag = true) {
  const asked: Array<{ url: string; ifNoneMatch: string | null }> = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    const ifNoneMatch = new Headers(init?.headers).get('if-none-match');
    asked.push({ url, ifNoneMatch });
    const object = objects[url.slice(BASE.length)];
    if (!object) {
      return new Response(JSON.stringify({ statusCode: '404', error: 'not_found', message: 'Object not found' }), {
        status: 400,
        headers: { 'content-type': 'application/json' },
      });
    }
    if (honorsEtag && ifNoneMatch === object.etag) return new Response(null, { status: 304, headers: { etag: object.etag } });
    return new Response(object.body, {
      status: 200,
      headers: { 'content-type': object.type, etag: object.etag, 'content-length': String(Buffer.byteLength(object.body)) },
    });
  }) as typeof globalThis.fetch;
  return { fetch, asked };
}

const get = (headers: Record<string, string> = {}) => new Request('http://shop.test/media/products/a.svg', { headers });

describe('/media: catalogue images kept in the server for a few minutes', () => {
  it('asks the storage once for an image shown again and again while it is fresh', async () => {
    const { fetch, asked } = storage({ 'a.svg': { body: SVG, type: 'image/svg+xml', etag: '"v1"' } });
    const cache = new MediaCache();
    let now = 1_000;
    for (let i = 0; i < 3; i += 1) {
      const response = await serveMedia(`${BASE}a.svg`, get(), { cache, fetch, now: () => now });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/svg+xml');
      expect(response.headers.get('cache-control')).toBe(MEDIA_CACHE_CONTROL);
      expect(response.headers.get('etag')).toBe('"v1"');
      expect(await response.text()).toBe(SVG);
      now += 1_000;
    }
    expect(asked).toHaveLength(1);
    expect(cache.size).toBe(Buffer.byteLength(SVG));
  });

  it('answers a browser that has the image with 304, from the kept copy', async () => {
    const { fetch, asked } = storage({ 'a.svg': { body: SVG, type: 'image/svg+xml', etag: '"v1"' } });
    const cache = new MediaCache();
    await serveMedia(`${BASE}a.svg`, get(), { cache, fetch });
    const again = await serveMedia(`${BASE}a.svg`, get({ 'if-none-match': '"v1"' }), { cache, fetch });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe('"v1"');
    expect(asked).toHaveLength(1);
  });

  it('checks an expired copy with its ETag: kept when unchanged, replaced when the storage sends another', async () => {
    const objects = { 'a.svg': { body: SVG, type: 'image/svg+xml', etag: '"v1"' } };
    const { fetch, asked } = storage(objects);
    const cache = new MediaCache();
    let now = 0;
    await serveMedia(`${BASE}a.svg`, get(), { cache, fetch, now: () => now });
    now += MEDIA_FRESH_MS;
    const checked = await serveMedia(`${BASE}a.svg`, get(), { cache, fetch, now: () => now });
    expect(await checked.text()).toBe(SVG);
    expect(asked.map((a) => a.ifNoneMatch)).toEqual([null, '"v1"']);
    // Fresh again after the check: not asked within the next minutes.
    now += MEDIA_FRESH_MS - 1;
    await serveMedia(`${BASE}a.svg`, get(), { cache, fetch, now: () => now });
    expect(asked).toHaveLength(2);

    objects['a.svg'] = { body: '<svg xmlns="http://www.w3.org/2000/svg"/>', type: 'image/svg+xml', etag: '"v2"' };
    now += 1;
    const replaced = await serveMedia(`${BASE}a.svg`, get(), { cache, fetch, now: () => now });
    expect(replaced.headers.get('etag')).toBe('"v2"');
    expect(await replaced.text()).toBe('<svg xmlns="http://www.w3.org/2000/svg"/>');
  });

  it('takes the object a storage that ignores If-None-Match sends again', async () => {
    const { fetch, asked } = storage({ 'a.svg': { body: SVG, type: 'image/svg+xml', etag: '"v1"' } }, false);
    const cache = new MediaCache();
    let now = 0;
    await serveMedia(`${BASE}a.svg`, get(), { cache, fetch, now: () => now });
    now += MEDIA_FRESH_MS;
    const response = await serveMedia(`${BASE}a.svg`, get(), { cache, fetch, now: () => now });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(SVG);
    expect(asked).toHaveLength(2);
  });

  it('forgets an image removed from the storage once its copy expires: 404', async () => {
    const objects: Record<string, { body: string; type: string; etag: string }> = { 'a.svg': { body: SVG, type: 'image/svg+xml', etag: '"v1"' } };
    const { fetch } = storage(objects);
    const cache = new MediaCache();
    let now = 0;
    await serveMedia(`${BASE}a.svg`, get(), { cache, fetch, now: () => now });
    delete objects['a.svg'];
    now += MEDIA_FRESH_MS;
    const gone = await serveMedia(`${BASE}a.svg`, get(), { cache, fetch, now: () => now });
    expect(gone.status).toBe(404);
    expect(gone.headers.get('cache-control')).toBe('no-store');
    expect(cache.size).toBe(0);
  });

  it('serves and keeps only images; a missing object is a 404 and a storage that does not answer a 502', async () => {
    const { fetch } = storage({ 'page.html': { body: '<script>alert(1)</script>', type: 'text/html', etag: '"h"' } });
    const cache = new MediaCache();
    expect((await serveMedia(`${BASE}page.html`, get(), { cache, fetch })).status).toBe(404);
    expect((await serveMedia(`${BASE}missing.svg`, get(), { cache, fetch })).status).toBe(404);
    expect(cache.size).toBe(0);
    const down = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof globalThis.fetch;
    const response = await serveMedia(`${BASE}a.svg`, get(), { cache, fetch: down });
    expect(response.status).toBe(502);
    expect(await response.text()).toBe('La imagen no está disponible por ahora.');
  });

  it('passes a large image through without keeping it, and keeps within its memory, oldest out first', async () => {
    const big = 'x'.repeat(2_000);
    const { fetch, asked } = storage({
      'big.png': { body: big, type: 'image/png', etag: '"b"' },
      'a.svg': { body: SVG, type: 'image/svg+xml', etag: '"a"' },
      'c.svg': { body: SVG, type: 'image/svg+xml', etag: '"c"' },
      'd.svg': { body: SVG, type: 'image/svg+xml', etag: '"d"' },
    });
    const size = Buffer.byteLength(SVG);
    const cache = new MediaCache(size * 2, 1_000);
    const large = await serveMedia(`${BASE}big.png`, get(), { cache, fetch });
    expect(await large.text()).toBe(big);
    expect(cache.size).toBe(0);
    for (const name of ['a.svg', 'c.svg', 'a.svg', 'd.svg']) await serveMedia(`${BASE}${name}`, get(), { cache, fetch });
    expect(cache.size).toBe(size * 2);
    // 'a' was used after 'c', so 'c' went out for 'd'.
    await serveMedia(`${BASE}a.svg`, get(), { cache, fetch });
    await serveMedia(`${BASE}c.svg`, get(), { cache, fetch });
    expect(asked.map((a) => a.url.slice(BASE.length))).toEqual(['big.png', 'a.svg', 'c.svg', 'd.svg', 'c.svg']);
  });
});

describe('/media: the copies of uploaded photos', () => {
  it('are kept a year, immutable, fresh or revalidated; their originals and other images a day', async () => {
    const copy = 'pk-1.1500x2100.480w.avif';
    const { fetch } = storage({
      [copy]: { body: 'avif', type: 'image/avif', etag: '"c1"' },
      'pk-1.1500x2100.jpg': { body: 'jpeg', type: 'image/jpeg', etag: '"o1"' },
    });
    const cache = new MediaCache();
    const first = await serveMedia(`${BASE}${copy}`, get(), { cache, fetch });
    expect([first.status, first.headers.get('cache-control'), first.headers.get('content-type')]).toEqual([200, MEDIA_COPY_CACHE_CONTROL, 'image/avif']);
    expect(MEDIA_COPY_CACHE_CONTROL).toBe('public, max-age=31536000, immutable');
    const kept = await serveMedia(`${BASE}${copy}`, get({ 'if-none-match': '"c1"' }), { cache, fetch });
    expect([kept.status, kept.headers.get('cache-control')]).toEqual([304, MEDIA_COPY_CACHE_CONTROL]);
    const passed = await serveMedia(`${BASE}${copy}`, get({ 'if-none-match': '"c1"' }), { cache: new MediaCache(), fetch });
    expect([passed.status, passed.headers.get('cache-control')]).toEqual([304, MEDIA_COPY_CACHE_CONTROL]);
    const original = await serveMedia(`${BASE}pk-1.1500x2100.jpg`, get(), { cache, fetch });
    expect(original.headers.get('cache-control')).toBe(MEDIA_CACHE_CONTROL);
  });
});
