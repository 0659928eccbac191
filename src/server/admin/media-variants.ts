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
 *
 * Once its copies are written, the original is kept under its name with its upright size
 * (`name.{width}x{height}.{ext}`, sizedPath in src/domain/image-variants.ts; same bytes, moved
 * with the service role) and the answer's `path` is that name: the row that stores it records
 * that the image has copies, and of which size, for every page that shows it.
 *
 * POST /api/admin/media/remove {paths} (admins only): the originals a product or an offer no
 * longer uses, removed with all their copies; one still used by any product or offer is kept.
 */
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { z } from 'zod';
import {
  isVariantPath,
  planVariants,
  recordedSize,
  sizedPath,
  VARIANT_FORMATS,
  VARIANT_SOURCE_MAX_BYTES,
  VARIANT_SOURCE_MAX_PIXELS,
  variantPath,
  variantWidths,
  type PlannedVariant,
} from '~/domain/image-variants.ts';
import { ADMIN_MEDIA_VARIANTS_TEXT as TEXT } from '~/i18n/media.ts';
import type { ServerContext } from '../context.ts';
import { requireAdmin } from '../http/auth.ts';
import { ApiError, json, readJson } from '../http/json.ts';

const BUCKET = 'products';
/** Copies never change (a new upload has a new name): caches may keep them a year. */
const VARIANT_CACHE_SECONDS = '31536000';

/** An object straight in the products bucket, as src/islands/admin/product-edit.ts names them; never a copy. */
const originalPath = z
  .string({ error: TEXT.invalidPath })
  .regex(/^products\/[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/, { error: TEXT.invalidPath })
  .refine((path) => !path.includes('..') && !isVariantPath(path), { error: TEXT.invalidPath });
const bodySchema = z.object({ path: originalPath });
/** At most a product's or an offer's images at once. */
const removeSchema = z.object({
  paths: z.array(originalPath, { error: TEXT.invalidPath }).min(1, { error: TEXT.invalidPath }).max(20, { error: TEXT.invalidPath }),
});

/** The content type an original is stored with, by the format sharp read. */
const ORIGINAL_TYPES: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  heif: 'image/avif',
};

/** One copy as the endpoint answers it. */
interface MadeVariant {
  path: string;
  width: number;
  height: number;
  format: string;
}

/** An original decoded once, upright and brought down to its widest copy: every copy is made from these pixels. */
export type UprightPixels = { data: Buffer; info: OutputInfo };

/** Decodes an original (its EXIF orientation applied) at most `widest` pixels wide; throws when it is not a decodable image. */
export function decodeUpright(original: Buffer, widest: number): Promise<UprightPixels> {
  return sharp(original, { limitInputPixels: VARIANT_SOURCE_MAX_PIXELS, failOn: 'error' })
    .rotate()
    .resize({ width: widest, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
}

/** Encodes one copy from the upright pixels; no metadata is carried (sharp keeps none unless asked). The demo's photos are made with it too (scripts/seed/photos.ts). */
export function encodeCopy(pixels: UprightPixels, variant: PlannedVariant): Promise<Buffer> {
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

  // Over the limit is refused before anything is decoded.
  if (original.byteLength > VARIANT_SOURCE_MAX_BYTES) return refuse(ctx, objectName, 413, TEXT.tooLarge, 'too_large');
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
  let pixels: UprightPixels | null = null;
  if (plan.variants.length > 0) {
    const widest = Math.max(...plan.variants.map((v) => v.width));
    try {
      pixels = await decodeUpright(original, widest);
    } catch {
      return refuse(ctx, objectName, 422, TEXT.notAnImage, 'not_an_image');
    }
  }

  // The original is kept under its name with its upright size; its copies are named after that name.
  const recorded = plan.variants.length > 0 ? sizedPath(objectName, plan.width, plan.height) : objectName;
  const variants = plan.variants.map((v) => ({ ...v, path: variantPath(recorded, v.width, v.format) }));
  const written: string[] = [];
  const made: MadeVariant[] = [];
  try {
    if (recorded !== objectName) {
      const contentType = download.data.type || ORIGINAL_TYPES[measured.format ?? ''] || 'application/octet-stream';
      const { error } = await ctx.admin.storage.from(BUCKET).upload(recorded, original, { contentType, cacheControl: VARIANT_CACHE_SECONDS, upsert: false });
      if (error) {
        const exists = /exist|duplicate/i.test(error.message) || (error as { statusCode?: string }).statusCode === '409';
        throw exists ? new ApiError(409, TEXT.alreadyMade, 'already_made') : new Error(error.message);
      }
      written.push(recorded);
    }
    for (const variant of variants) {
      const body = await encodeCopy(pixels!, variant);
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
  // The name without the size goes: the original now lives under its recorded name.
  if (recorded !== objectName) await removeObjects(ctx, [objectName]);
  return json({ path: `${BUCKET}/${recorded}`, width: plan.width, height: plan.height, variants: made }, 201);
}

/** Every object of an original: itself and, when its name records a size, each of its copies. */
function objectsOf(objectName: string): string[] {
  const size = recordedSize(objectName);
  if (!size) return [objectName];
  return [objectName, ...variantWidths(size.width).flatMap((width) => VARIANT_FORMATS.map((format) => variantPath(objectName, width, format)))];
}

/** Whether any product (main image or gallery) or offer still shows the image stored as `path`. */
async function stillUsed(ctx: Pick<ServerContext, 'admin'>, path: string): Promise<boolean> {
  const reads = await Promise.all([
    ctx.admin.from('products').select('id', { count: 'exact', head: true }).eq('image', path),
    ctx.admin.from('products').select('id', { count: 'exact', head: true }).contains('images', [path]),
    ctx.admin.from('card_offers').select('id', { count: 'exact', head: true }).contains('images', [path]),
  ]);
  // A read that fails counts as used: nothing is removed that a page may still show.
  return reads.some((read) => read.error !== null || (read.count ?? 0) > 0);
}

/** POST /api/admin/media/remove: removes originals no product or offer uses any more, with all their copies; 200 {removed, kept}. */
export async function removeImages(request: Request, ctx: Pick<ServerContext, 'admin'>): Promise<Response> {
  await requireAdmin(request, ctx.admin, TEXT.adminsOnly);
  const { paths } = await readJson(request, removeSchema);
  const removed: string[] = [];
  const kept: string[] = [];
  for (const path of [...new Set(paths)]) {
    if (await stillUsed(ctx, path)) {
      kept.push(path);
      continue;
    }
    const { error } = await ctx.admin.storage.from(BUCKET).remove(objectsOf(path.slice(BUCKET.length + 1)));
    if (error) {
      console.error('[media] no se pudo borrar', path, error.message);
      throw new ApiError(502, TEXT.removeFailed, 'remove_failed');
    }
    removed.push(path);
  }
  return json({ removed, kept });
}
