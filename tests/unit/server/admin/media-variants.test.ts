import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { makeVariants, removeImages } from '~/server/admin/media-variants.ts';
import type { ServerContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';
import { ADMIN_MEDIA_VARIANTS_TEXT } from '~/i18n/media.ts';

/**
 * A service client whose storage holds objects in memory; the write numbered `failAt` (1-based)
 * fails; `used` are the image paths some product or offer still shows.
 */
function storageCtx(objects: Map<string, Buffer>, { isAdmin = true, failAt = 0, used = [] as string[] } = {}) {
  let writes = 0;
  const bucket = {
    download: async (name: string) =>
      objects.has(name) ? { data: new Blob([new Uint8Array(objects.get(name)!)]), error: null } : { data: null, error: { message: 'Object not found' } },
    upload: async (name: string, body: Buffer) => {
      writes += 1;
      if (writes === failAt) return { data: null, error: { message: 'storage unavailable' } };
      objects.set(name, body);
      return { data: { path: name }, error: null };
    },
    remove: async (names: string[]) => {
      for (const name of names) objects.delete(name);
      return { data: [], error: null };
    },
  };
  const admin = {
    auth: { getUser: async () => ({ data: { user: { id: 'admin-1' } }, error: null }) },
    from: (table: string) => ({
      select: () => ({
        eq: (_column: string, value: string) =>
          table === 'profiles'
            ? { maybeSingle: async () => ({ data: { is_admin: isAdmin }, error: null }) }
            : Promise.resolve({ count: used.includes(value) ? 1 : 0, error: null }),
        contains: (_column: string, values: string[]) => Promise.resolve({ count: values.some((v) => used.includes(v)) ? 1 : 0, error: null }),
      }),
    }),
    storage: { from: () => bucket },
  };
  return { admin } as unknown as Pick<ServerContext, 'admin'>;
}

const request = (path: unknown, url = 'https://shop.test/api/admin/media/variants') =>
  new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer token' },
    body: JSON.stringify(url.endsWith('/remove') ? { paths: path } : { path }),
  });
const removal = (paths: unknown) => request(paths, 'https://shop.test/api/admin/media/remove');

async function answerOf(run: () => Promise<Response>) {
  const res = await handle(run);
  return { status: res.status, body: await res.json() };
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: { r: 10, g: 200, b: 10, alpha: 0.5 } } })
    .png()
    .toBuffer();

describe('POST /api/admin/media/variants', () => {
  it('makes the copies of a small PNG at its own width, JPEG flattened, and keeps the original under its name with its size', async () => {
    const original = await png(200, 100);
    const objects = new Map([['pk-1.png', original]]);
    const answer = await answerOf(() => makeVariants(request('products/pk-1.png'), storageCtx(objects)));
    expect(answer.status).toBe(201);
    expect(answer.body.path).toBe('products/pk-1.200x100.png');
    expect(answer.body.variants.map((v: { path: string }) => v.path)).toEqual([
      'products/pk-1.200x100.200w.avif',
      'products/pk-1.200x100.200w.webp',
      'products/pk-1.200x100.200w.jpg',
    ]);
    const jpeg = await sharp(objects.get('pk-1.200x100.200w.jpg')).metadata();
    expect([jpeg.format, jpeg.width, jpeg.height, jpeg.hasAlpha]).toEqual(['jpeg', 200, 100, false]);
    expect(objects.get('pk-1.200x100.png')?.equals(original)).toBe(true);
    expect([...objects.keys()].sort()).toEqual(['pk-1.200x100.200w.avif', 'pk-1.200x100.200w.jpg', 'pk-1.200x100.200w.webp', 'pk-1.200x100.png']);
  });

  it('refuses and removes an original over 15 MB', async () => {
    const objects = new Map([['pk-5.jpg', Buffer.alloc(15 * 1024 * 1024 + 1)]]);
    const answer = await answerOf(() => makeVariants(request('products/pk-5.jpg'), storageCtx(objects)));
    expect(answer).toEqual({ status: 413, body: { error: 'too_large', message: ADMIN_MEDIA_VARIANTS_TEXT.tooLarge } });
    expect(ADMIN_MEDIA_VARIANTS_TEXT.tooLarge).toContain('15 MB');
    expect(objects.size).toBe(0);
  });

  it('removes the copies already written when one cannot be written, and keeps the original', async () => {
    const original = await png(1000, 500);
    const objects = new Map([['pk-2.png', original]]);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const answer = await answerOf(() => makeVariants(request('products/pk-2.png'), storageCtx(objects, { failAt: 5 })));
    expect(answer).toEqual({ status: 502, body: { error: 'variants_failed', message: ADMIN_MEDIA_VARIANTS_TEXT.failed } });
    expect([...objects.keys()]).toEqual(['pk-2.png']);
    expect(objects.get('pk-2.png')).toBe(original);
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();
  });

  it('keeps an SVG as it is, with no copies', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="red"/></svg>');
    const objects = new Map([['pk-3.svg', svg]]);
    const answer = await answerOf(() => makeVariants(request('products/pk-3.svg'), storageCtx(objects)));
    expect(answer).toEqual({ status: 201, body: { path: 'products/pk-3.svg', width: 40, height: 20, variants: [] } });
    expect([...objects.keys()]).toEqual(['pk-3.svg']);
  });

  it('refuses and removes a file that is not an image; refuses a non-admin and touches nothing', async () => {
    const objects = new Map([['pk-4.jpg', Buffer.from('%PDF-1.7 no soy una foto')]]);
    expect((await answerOf(() => makeVariants(request('products/pk-4.jpg'), storageCtx(objects, { isAdmin: false })))).status).toBe(403);
    expect(objects.has('pk-4.jpg')).toBe(true);
    const answer = await answerOf(() => makeVariants(request('products/pk-4.jpg'), storageCtx(objects)));
    expect(answer).toEqual({ status: 422, body: { error: 'not_an_image', message: ADMIN_MEDIA_VARIANTS_TEXT.notAnImage } });
    expect(objects.size).toBe(0);
  });

  it('removes an image no product or offer uses with all its copies, keeps one still used, and touches nothing for a non-admin', async () => {
    const objects = new Map<string, Buffer>();
    objects.set('pk-6.png', await png(600, 300)).set('pk-7.png', await png(300, 300));
    const gone = (await answerOf(() => makeVariants(request('products/pk-6.png'), storageCtx(objects)))).body.path;
    const kept = (await answerOf(() => makeVariants(request('products/pk-7.png'), storageCtx(objects)))).body.path;
    expect([gone, kept]).toEqual(['products/pk-6.600x300.png', 'products/pk-7.300x300.png']);
    objects.set('otro.png', Buffer.from('x'));
    const before = objects.size;
    expect(before).toBe(1 + (1 + 2 * 3) + (1 + 3));

    expect((await answerOf(() => removeImages(removal([gone]), storageCtx(objects, { isAdmin: false })))).status).toBe(403);
    expect(objects.size).toBe(before);
    const answer = await answerOf(() => removeImages(removal([gone, kept]), storageCtx(objects, { used: [kept] })));
    expect(answer).toEqual({ status: 200, body: { removed: [gone], kept: [kept] } });
    expect([...objects.keys()].filter((name) => name.startsWith('pk-6'))).toEqual([]);
    expect([...objects.keys()].filter((name) => name.startsWith('pk-7'))).toHaveLength(4);
    expect(objects.has('otro.png')).toBe(true);

    for (const paths of [[], ['products/pk-7.300x300.240w.webp'], ['franchises/x.png'], Array.from({ length: 21 }, (_, i) => `products/p${i}.png`)]) {
      expect((await answerOf(() => removeImages(removal(paths), storageCtx(objects)))).status).toBe(400);
    }
  });

  it('refuses a path outside the originals of the products bucket', async () => {
    for (const path of [42, '', 'products/', 'franchises/x.png', 'products/x.480w.avif', 'products/..png']) {
      const answer = await answerOf(() => makeVariants(request(path), storageCtx(new Map())));
      expect(answer).toMatchObject({ status: 400, body: { message: ADMIN_MEDIA_VARIANTS_TEXT.invalidPath } });
    }
  });
});
