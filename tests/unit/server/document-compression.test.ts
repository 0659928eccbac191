import type { IncomingMessage, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsBrotli, DocumentCompression, QUICK_QUALITY } from '~/server/document-compression.ts';

/** A page of prose that brotli's qualities compress differently. */
function page(seed: number, words = 4000): Buffer {
  const vocabulary = ['carta', 'sobre', 'caja', 'Pikachu', 'Luffy', 'holo', 'NM', 'español', 'precio', 'existencia'];
  const text = Array.from({ length: words }, (_, i) => `${vocabulary[(i * 31 + seed) % vocabulary.length]}${(i * 7919 + seed) % 97}`).join(' ');
  return Buffer.from(`<!doctype html><html><body><p>${text}</p></body></html>`);
}

const quality4 = (bytes: Buffer) => zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }).length;

function request(acceptEncoding: string | undefined, method = 'GET'): IncomingMessage {
  return { method, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } } as unknown as IncomingMessage;
}

/** Just enough of a ServerResponse for finish(). */
function response(statusCode = 200, headers: Record<string, string> = {}): ServerResponse & { sent: Record<string, string> } {
  const sent: Record<string, string> = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    statusCode,
    sent,
    getHeader: (name: string) => sent[name.toLowerCase()],
    setHeader: (name: string, value: string | number) => {
      sent[name.toLowerCase()] = String(value);
    },
  } as unknown as ServerResponse & { sent: Record<string, string> };
}

describe('acceptsBrotli', () => {
  it('agrees with the compression middleware: brotli whenever it is acceptable', () => {
    expect(acceptsBrotli(request('gzip, deflate, br, zstd'))).toBe(true);
    expect(acceptsBrotli(request('br;q=0.5, gzip;q=0.4'))).toBe(true);
    expect(acceptsBrotli(request('br;q=0.5, gzip'))).toBe(false);
    expect(acceptsBrotli(request('gzip, deflate'))).toBe(false);
    expect(acceptsBrotli(request('br;q=0, gzip'))).toBe(false);
    expect(acceptsBrotli(request(undefined))).toBe(false);
  });
});

describe('DocumentCompression', () => {
  it('compresses a page the second time it is asked for and then answers with the stored copy', async () => {
    const documents = new DocumentCompression();
    const html = page(1);
    expect(documents.lookup(html)).toBeNull();
    await documents.settled();
    expect(documents.size.pages).toBe(0);
    expect(documents.lookup(html)).toBeNull();
    await documents.settled();
    const stored = documents.lookup(html);
    expect(stored).not.toBeNull();
    expect(zlib.brotliDecompressSync(stored!).equals(html)).toBe(true);
    expect(stored!.length).toBeLessThan(quality4(html));
    // The same bytes from a new buffer are the same page.
    expect(documents.lookup(Buffer.from(html))).toBe(stored);
  });

  it('never answers a changed page with an older copy', async () => {
    const documents = new DocumentCompression();
    const before = page(2);
    documents.lookup(before);
    documents.lookup(before);
    await documents.settled();
    const after = Buffer.from(before.toString('utf8').replace('<p>', '<p>Agotado '));
    expect(documents.lookup(after)).toBeNull();
    expect(zlib.brotliDecompressSync(documents.lookup(before)!).equals(before)).toBe(true);
  });

  it('compresses one page at a time at the best quality; a page asked for again meanwhile gets a quick copy, made better later', async () => {
    const documents = new DocumentCompression({ restFactor: 0, busy: () => 0 });
    const [a, b] = [page(3), page(4)];
    for (const html of [a, b, a, b]) documents.lookup(html);
    await documents.settled();
    expect(documents.size.pages).toBe(2);
    expect(documents.storedQuality(a)).toBe(11);
    expect(documents.storedQuality(b)).toBe(QUICK_QUALITY);
    const quick = documents.lookup(b);
    expect(zlib.brotliDecompressSync(quick!).equals(b)).toBe(true);
    // Sent at the quick quality, and compressed again at the best one as nothing else is.
    await documents.settled();
    expect(documents.storedQuality(b)).toBe(11);
    const best = documents.lookup(b);
    expect(zlib.brotliDecompressSync(best!).equals(b)).toBe(true);
    expect(best!.length).toBeLessThan(quick!.length);
    expect(documents.size.bytes).toBe(documents.lookup(a)!.length + best!.length);
  });

  it('keeps within its bytes, dropping the copy sent longest ago', async () => {
    const pages = [page(5), page(6), page(7)];
    const one = zlib.brotliCompressSync(pages[0]!).length;
    const documents = new DocumentCompression({ maxBytes: Math.floor(one * 2.5), restFactor: 0, busy: () => 0 });
    const store = async (html: Buffer) => {
      documents.lookup(html);
      documents.lookup(html);
      await documents.settled();
    };
    await store(pages[0]!);
    await store(pages[1]!);
    // Sending the first again makes the second the oldest.
    expect(documents.lookup(pages[0]!)).not.toBeNull();
    await store(pages[2]!);
    expect(documents.size.pages).toBe(2);
    expect(documents.size.bytes).toBeLessThanOrEqual(Math.floor(one * 2.5));
    expect(documents.lookup(pages[0]!)).not.toBeNull();
    expect(documents.lookup(pages[2]!)).not.toBeNull();
    expect(documents.lookup(pages[1]!)).toBeNull();
  });

  it('while the server is busy makes only quick copies, a few at a time, and rests after each best one', async () => {
    let busy = 0.9;
    const documents = new DocumentCompression({ busy: () => busy, restFactor: 0 });
    const [first, a, b, c, d] = [page(11), page(9), page(10), page(12), page(13)];
    // The first page is compressed at the best quality whatever the load: the server's own, as it starts.
    documents.lookup(first);
    documents.lookup(first);
    await documents.settled();
    expect(documents.storedQuality(first)).toBe(11);
    for (const html of [a, a, a]) documents.lookup(html);
    await documents.settled();
    expect(documents.storedQuality(a)).toBe(QUICK_QUALITY);
    expect(documents.lookup(a)!.length).toBeLessThan(quality4(a));
    await documents.settled();
    expect(documents.storedQuality(a)).toBe(QUICK_QUALITY);
    // Two quick copies at once at most: the third page asked for again meanwhile waits for its next request.
    for (const html of [b, c, d, b, c, d]) documents.lookup(html);
    await documents.settled();
    expect([documents.storedQuality(b), documents.storedQuality(c), documents.storedQuality(d)]).toEqual([QUICK_QUALITY, QUICK_QUALITY, null]);
    documents.lookup(d);
    await documents.settled();
    expect(documents.storedQuality(d)).toBe(QUICK_QUALITY);
    // Quiet again: the page asked for again is made the best it can be.
    busy = 0.1;
    documents.lookup(a);
    await documents.settled();
    expect(documents.storedQuality(a)).toBe(11);

    // After a page, a rest a thousand times as long as it took: the next page gets a quick copy.
    const resting = new DocumentCompression({ busy: () => 0, restFactor: 1000 });
    for (const html of [a, a]) resting.lookup(html);
    await resting.settled();
    for (const html of [b, b, b]) resting.lookup(html);
    await resting.settled();
    expect(resting.storedQuality(a)).toBe(11);
    expect(resting.storedQuality(b)).toBe(QUICK_QUALITY);
  });

  it('leaves small pages to the middleware', async () => {
    const documents = new DocumentCompression();
    const tiny = Buffer.from('<p>Hola</p>');
    for (let i = 0; i < 3; i++) documents.lookup(tiny);
    await documents.settled();
    expect(documents.size.pages).toBe(0);
  });

  it('finish sends the stored copy with its headers only to a browser that takes brotli, on a 200', async () => {
    const documents = new DocumentCompression();
    const html = page(8);
    expect(documents.finish(request('br'), response(), html)).toBe(html);
    expect(documents.finish(request('br'), response(), html)).toBe(html);
    await documents.settled();

    const res = response(200, { Vary: 'Cookie' });
    const sent = documents.finish(request('gzip, deflate, br'), res, html);
    expect(sent).not.toBe(html);
    expect(zlib.brotliDecompressSync(sent).equals(html)).toBe(true);
    expect(res.sent['content-encoding']).toBe('br');
    expect(res.sent['content-length']).toBe(String(sent.length));
    expect(res.sent['vary']).toBe('Cookie, Accept-Encoding');

    for (const [req, res2] of [
      [request('gzip'), response()],
      [request('br', 'HEAD'), response()],
      [request('br'), response(404)],
      [request('br'), response(200, { 'Content-Encoding': 'gzip' })],
    ] as const) {
      expect(documents.finish(req, res2, html)).toBe(html);
      expect(res2.sent['content-length']).toBeUndefined();
    }
  });
});
