/**
 * POST /api/admin/media/variants through its handler against the local stack: the demo admin
 * uploads a 4,000 × 3,000 phone photo taken sideways (EXIF orientation 6, with a GPS position) as
 * the back office does, and every planned copy is stored upright, at its width, in its format,
 * with no EXIF; the original's bytes stay, under its name with its upright size. A text file
 * renamed .jpg is refused with a 422 and removed; a shopper is refused with a 403. The products
 * bucket takes an 11.7 MB phone photo (more than the former 5 MB, and than the local stack's 10 MB
 * request limit) and its copies are made; one byte over 15 MB is refused by the bucket.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_SHOPPER } from '../../scripts/seed/constants.ts';
import { planVariants, VARIANT_SOURCE_MAX_BYTES } from '~/domain/image-variants.ts';
import { makeVariants } from '~/server/admin/media-variants.ts';
import { createAdminClient } from '~/server/supabase.ts';
import { ADMIN_MEDIA_VARIANTS_TEXT } from '~/i18n/media.ts';
import { apiRequest as req, callApi as call } from '../support/api-requests.ts';
import { signIn } from '../support/shopper.ts';
import { startTestStack, type TestStack } from '../../packages/local-supabase/tests/helpers.ts';

let stack: TestStack;
let service: SupabaseClient;
let admin: SupabaseClient;
let adminToken: string;
let shopperToken: string;

const variantsOf = (path: string, token: string) =>
  call(() => makeVariants(req('POST', '/api/admin/media/variants', token, { path }), { admin: service as never }));

/** The bucket's objects whose names start with `stem`. */
async function stored(stem: string): Promise<string[]> {
  const { data, error } = await service.storage.from('products').list('', { search: stem, limit: 100 });
  if (error) throw new Error(error.message);
  return data
    .map((o) => o.name)
    .filter((name) => name.startsWith(stem))
    .sort();
}

/** A 4,000 × 3,000 JPEG as a phone stores it when held sideways: red on the left, blue on the right, orientation 6, a GPS position. */
async function sidewaysPhoto(): Promise<Buffer> {
  const half = { width: 2000, height: 3000, channels: 3 as const };
  const red = await sharp({ create: { ...half, background: '#d00000' } })
    .png()
    .toBuffer();
  const blue = await sharp({ create: { ...half, background: '#0000d0' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#000000' } })
    .composite([
      { input: red, left: 0, top: 0 },
      { input: blue, left: 2000, top: 0 },
    ])
    .withExif({
      IFD0: { Make: 'Telefono', Model: 'Camara' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '19/1 25/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '99/1 8/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 85 })
    .toBuffer();
}

async function upload(name: string, body: Buffer, contentType: string): Promise<void> {
  const { error } = await admin.storage.from('products').upload(name, body, { contentType, upsert: false });
  if (error) throw new Error(error.message);
}

async function download(name: string): Promise<Buffer> {
  const { data, error } = await service.storage.from('products').download(name);
  if (error || !data) throw new Error(error?.message ?? 'sin datos');
  return Buffer.from(await data.arrayBuffer());
}

beforeAll(async () => {
  stack = await startTestStack();
  service = createAdminClient(stack.url, stack.serviceRoleKey) as unknown as SupabaseClient;
  ({ token: adminToken, client: admin } = await signIn(stack, DEMO_ADMIN));
  ({ token: shopperToken } = await signIn(stack, DEMO_SHOPPER));
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe('the copies of an uploaded photo', () => {
  it('stores every planned copy upright, at its width and in its format, with no EXIF; the original stays', async () => {
    const photo = await sidewaysPhoto();
    expect((await sharp(photo).metadata()).orientation).toBe(6);
    await upload('pk-foto-lado.jpg', photo, 'image/jpeg');

    const answer = await variantsOf('products/pk-foto-lado.jpg', adminToken);
    expect(answer.status).toBe(201);
    const plan = planVariants('pk-foto-lado.3000x4000.jpg', { width: 4000, height: 3000, format: 'jpeg', orientation: 6, bytes: photo.byteLength });
    if (!plan.ok) throw new Error('plan refused');
    expect(answer.body).toMatchObject({ path: 'products/pk-foto-lado.3000x4000.jpg', width: 3000, height: 4000 });
    expect(answer.body.variants).toEqual(plan.variants.map((v) => ({ path: `products/${v.path}`, width: v.width, height: v.height, format: v.format })));
    expect(answer.body.variants).toHaveLength(12);

    for (const variant of plan.variants) {
      const meta = await sharp(await download(variant.path)).metadata();
      expect([variant.path, meta.width, meta.height]).toEqual([variant.path, variant.width, variant.height]);
      expect(meta.format).toBe(variant.format === 'avif' ? 'heif' : variant.format);
      if (variant.format === 'avif') expect(meta.compression).toBe('av1');
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
    }

    // Upright: the photo's left (red) is now its top, its right (blue) its bottom.
    const { data, info } = await sharp(await download(plan.variants.find((v) => v.width === 240 && v.format === 'jpeg')!.path))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => Array.from(data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3));
    const [topRed, , topBlue] = at(120, 20);
    const [bottomRed, , bottomBlue] = at(120, info.height - 20);
    expect(topRed).toBeGreaterThan(150);
    expect(topBlue).toBeLessThan(80);
    expect(bottomBlue).toBeGreaterThan(150);
    expect(bottomRed).toBeLessThan(80);

    // The original, for the owner, as uploaded (its EXIF included), under its name with its upright size.
    const original = await download('pk-foto-lado.3000x4000.jpg');
    expect(original.equals(photo)).toBe(true);
    expect(await stored('pk-foto-lado')).toHaveLength(13);
    expect(await stored('pk-foto-lado.jpg')).toEqual([]);

    // Asked again: the copies are there already; nothing is overwritten or removed.
    const again = await variantsOf('products/pk-foto-lado.3000x4000.jpg', adminToken);
    expect(again).toMatchObject({ status: 409, body: { message: ADMIN_MEDIA_VARIANTS_TEXT.alreadyMade } });
    expect(await stored('pk-foto-lado')).toHaveLength(13);
  }, 120_000);

  it('takes an 11.7 MB phone photo and makes its copies; the bucket refuses one byte over 15 MB', async () => {
    // Noise compresses badly: a 3,000 × 4,000 JPEG of it at quality 95 weighs about 11.7 MB.
    const noise = Buffer.alloc(3000 * 4000 * 3);
    let seed = 47;
    for (let i = 0; i < noise.length; i += 1) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      noise[i] = seed >> 16;
    }
    const photo = await sharp(noise, { raw: { width: 3000, height: 4000, channels: 3 } })
      .jpeg({ quality: 95 })
      .toBuffer();
    expect(photo.byteLength).toBeGreaterThan(10 * 1024 * 1024);
    expect(photo.byteLength).toBeLessThanOrEqual(VARIANT_SOURCE_MAX_BYTES);
    await upload('pk-foto-pesada.jpg', photo, 'image/jpeg');
    const answer = await variantsOf('products/pk-foto-pesada.jpg', adminToken);
    expect(answer).toMatchObject({ status: 201, body: { path: 'products/pk-foto-pesada.3000x4000.jpg', width: 3000, height: 4000 } });
    expect(await stored('pk-foto-pesada')).toHaveLength(13);

    const tooBig = Buffer.concat([photo, Buffer.alloc(VARIANT_SOURCE_MAX_BYTES + 1 - photo.byteLength)]);
    const { error } = await admin.storage.from('products').upload('pk-foto-enorme.jpg', tooBig, { contentType: 'image/jpeg' });
    expect(error).not.toBeNull();
    expect(await stored('pk-foto-enorme')).toEqual([]);
  }, 300_000);

  it('refuses a text file renamed .jpg with a Spanish message, and nothing of it stays', async () => {
    await upload('pk-texto.jpg', Buffer.from('Esto no es una foto, es una lista de precios.\n'), 'image/jpeg');
    expect(await stored('pk-texto')).toEqual(['pk-texto.jpg']);
    const answer = await variantsOf('products/pk-texto.jpg', adminToken);
    expect(answer).toEqual({ status: 422, body: { error: 'not_an_image', message: ADMIN_MEDIA_VARIANTS_TEXT.notAnImage } });
    expect(await stored('pk-texto')).toEqual([]);
  });

  it('refuses a shopper (403) and a path that is not an original of the products bucket (400)', async () => {
    await upload(
      'pk-de-admin.png',
      await sharp({ create: { width: 300, height: 200, channels: 3, background: '#888888' } })
        .png()
        .toBuffer(),
      'image/png',
    );
    expect((await variantsOf('products/pk-de-admin.png', shopperToken)).status).toBe(403);
    expect(await stored('pk-de-admin')).toEqual(['pk-de-admin.png']);
    for (const path of ['expansions/x.png', 'products/../x.png', 'products/pk-de-admin.240w.webp', 'products/a/b.png']) {
      expect(await variantsOf(path, adminToken)).toMatchObject({ status: 400, body: { message: ADMIN_MEDIA_VARIANTS_TEXT.invalidPath } });
    }
    expect((await variantsOf('products/no-existe.jpg', adminToken)).status).toBe(404);
  });
});
