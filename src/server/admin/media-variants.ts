/**
 * POST /api/admin/media/variants {path: 'products/<object>'} (admins only): the copies of a photo
 * the back office has just uploaded, made once, here, with sharp.
 *
 * The browser uploads the original to the products bucket as before (src/data/storage.ts; the
 * server takes no request body over 1 MB, astro.config.mjs), then names it here. The original is
 * read with the service role and decoded: a file that is not an image (a text file renamed .jpg),
 * over 15 MB or over 50 megapixels is refused with a 4xx and removed, so nothing of it stays.
 * Otherwise every copy of the plan (src/domain/image-variants.ts: 240–1,600 px wide in AVIF, WebP
 * and JPEG, named next to the original) is made from the upright image (its EXIF orientation
 * applied) with no metadata at all (no location, no camera), and written without overwriting
 * anything; when one cannot be made or written, the copies already written are removed and the
 * answer is a 502 (or a 409 when the copies were already there). The original stays as uploaded,
 * for the owner. An SVG has no copies (it scales by itself).
 */
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { z } from 'zod';
import { isVariantPath, planVariants, VARIANT_SOURCE_MAX_PIXELS, type PlannedVariant } from '~/domain/image-variants.ts';
import { ADMIN_MEDIA_VARIANTS_TEXT as TEXT } from '~/i18n/media.ts';
import type { ServerContext } from '../context.ts';
import { requireAdmin } from '../http/auth.ts';
import { ApiError, json, readJson } from '../http/json.ts';

const BUCKET = 'products';
/** Copies never change (a new upload has a new name): caches may keep them a year. */
const VARIANT_CACHE_SECONDS = '31536000';

/** An object straight in the products bucket, as src/islands/admin/product-edit.ts names them; never a copy. */
const bodySchema = z.object({
  path: z
    .string({ error: TEXT.invalidPath })
    .regex(/^products\/[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/, { error: TEXT.invalidPath })
    .refine((path) => !path.includes('..') && !isVariantPath(path), { error: TEXT.invalidPath }),
});

/** One copy as the endpoint answers it. */
interface MadeVariant {
  path: string;
  width: number;
  height: number;
  format: string;
}

/** Encodes one copy from the upright pixels; no metadata is carried (sharp keeps none unless asked). */
function encode(pixels: { data: Buffer; info: OutputInfo }, variant: PlannedVariant): Promise<Buffer> {
  const { width, height, channels } = pixels.info;
  const image = sharp(pixels.data, { raw: { width, height, channels } }).resize({ width: variant.width, height: variant.height, fit: 'fill' });
  if (variant.format === 'avif') return image.avif({ quality: 50, effort: 2 }).toBuffer();
  if (variant.format === 'webp') return image.webp({ quality: 75 }).toBuffer();
  return image.flatten({ background: '#ffffff' }).jpeg({ quality: 80, mozjpeg: true }).toBuffer();
}

/** Removes objects of the bucket, reporting (not throwing) a failure. */
async function removeObjects(ctx: Pick<ServerContext, 'admin'>, names: string[]): Promise<void> {
  if (names.length === 0) return;
  const { error } = await ctx.admin.storage.from(BUCKET).remove(names);
  if (error) console.error('[media] no se pudieron borrar', names, error.message);
}

/** Refuses the original: removes it, then answers `status` with `message`. */
async function refuse(ctx: Pick<ServerContext, 'admin'>, objectName: string, status: number, message: string, code: string): Promise<never> {
  await removeObjects(ctx, [objectName]);
  throw new ApiError(status, message, code);
}

/** POST: makes and stores every copy of an uploaded original; 201 {width, height, variants}. */
export async function makeVariants(request: Request, ctx: Pick<ServerContext, 'admin'>): Promise<Response> {
  await requireAdmin(request, ctx.admin, TEXT.adminsOnly);
  const { path } = await readJson(request, bodySchema);
  const objectName = path.slice(BUCKET.length + 1);

  const download = await ctx.admin.storage.from(BUCKET).download(objectName);
  if (download.error || !download.data) throw new ApiError(404, TEXT.notFound, 'not_found');
  const original = Buffer.from(await download.data.arrayBuffer());

  let measured: Metadata;
  try {
    measured = await sharp(original, { limitInputPixels: false }).metadata();
  } catch {
    return refuse(ctx, objectName, 422, TEXT.notAnImage, 'not_an_image');
  }
  const plan = planVariants(objectName, {
    width: measured.width ?? 0,
    height: measured.height ?? 0,
    format: measured.format ?? '',
    orientation: measured.orientation,
    bytes: original.byteLength,
  });
  if (!plan.ok) {
    return plan.reason === 'too_large'
      ? refuse(ctx, objectName, 413, TEXT.tooLarge, 'too_large')
      : refuse(ctx, objectName, 422, TEXT.notAnImage, 'not_an_image');
  }

  // Decoded once, turned upright and brought down to the widest copy; every copy comes from these pixels.
  let pixels: { data: Buffer; info: OutputInfo } | null = null;
  if (plan.variants.length > 0) {
    const widest = Math.max(...plan.variants.map((v) => v.width));
    try {
      pixels = await sharp(original, { limitInputPixels: VARIANT_SOURCE_MAX_PIXELS, failOn: 'error' })
        .rotate()
        .resize({ width: widest, withoutEnlargement: true })
        .raw()
        .toBuffer({ resolveWithObject: true });
    } catch {
      return refuse(ctx, objectName, 422, TEXT.notAnImage, 'not_an_image');
    }
  }

  const written: string[] = [];
  const made: MadeVariant[] = [];
  try {
    for (const variant of plan.variants) {
      const body = await encode(pixels!, variant);
      const { error } = await ctx.admin.storage
        .from(BUCKET)
        .upload(variant.path, body, { contentType: variant.contentType, cacheControl: VARIANT_CACHE_SECONDS, upsert: false });
      if (error) {
        const exists = /exist|duplicate/i.test(error.message) || (error as { statusCode?: string }).statusCode === '409';
        throw exists ? new ApiError(409, TEXT.alreadyMade, 'already_made') : new Error(error.message);
      }
      written.push(variant.path);
      made.push({ path: `${BUCKET}/${variant.path}`, width: variant.width, height: variant.height, format: variant.format });
    }
  } catch (error) {
    // Nothing half-made stays: the copies this request wrote go; the original stays for the owner.
    await removeObjects(ctx, written);
    if (error instanceof ApiError) throw error;
    console.error('[media] no se pudieron hacer las copias de', path, error);
    throw new ApiError(502, TEXT.failed, 'variants_failed');
  }
  return json({ path, width: plan.width, height: plan.height, variants: made }, 201);
}
