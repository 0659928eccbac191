import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { makeVariants } from '~/server/admin/media-variants.ts';
import type { ServerContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';
import { ADMIN_MEDIA_VARIANTS_TEXT } from '~/i18n/media.ts';

/** A service client whose storage holds objects in memory; the write numbered `failAt` (1-based) fails. */
function storageCtx(objects: Map<string, Buffer>, { isAdmin = true, failAt = 0 } = {}) {
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
    from: () => ({ select: () => ({ eq: () => ({ maybeSingle: async () => ({ data: { is_admin: isAdmin }, error: null }) }) }) }),
    storage: { from: () => bucket },
  };
  return { admin } as unknown as Pick<ServerContext, 'admin'>;
}

const request = (path: unknown) =>
  new Request('https://shop.test/api/admin/media/variants', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer token' },
    body: JSON.stringify({ path }),
  });

async function answerOf(run: () => Promise<Response>) {
  const res = await handle(run);
  return { status: res.status, body: await res.json() };
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: { r: 10, g: 200, b: 10, alpha: 0.5 } } })
    .png()
    .toBuffer();

describe('POST /api/admin/media/variants', () => {
  it('makes the copies of a small PNG at its own width, JPEG flattened, and answers them', async () => {
    const objects = new Map([['pk-1.png', await png(200, 100)]]);
    const answer = await answerOf(() => makeVariants(request('products/pk-1.png'), storageCtx(objects)));
    expect(answer.status).toBe(201);
    expect(answer.body.variants.map((v: { path: string }) => v.path)).toEqual(['products/pk-1.200w.avif', 'products/pk-1.200w.webp', 'products/pk-1.200w.jpg']);
    const jpeg = await sharp(objects.get('pk-1.200w.jpg')).metadata();
    expect([jpeg.format, jpeg.width, jpeg.height, jpeg.hasAlpha]).toEqual(['jpeg', 200, 100, false]);
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

  it('refuses a path outside the originals of the products bucket', async () => {
    for (const path of [42, '', 'products/', 'franchises/x.png', 'products/x.480w.avif', 'products/..png']) {
      const answer = await answerOf(() => makeVariants(request(path), storageCtx(new Map())));
      expect(answer).toMatchObject({ status: 400, body: { message: ADMIN_MEDIA_VARIANTS_TEXT.invalidPath } });
    }
  });
});
