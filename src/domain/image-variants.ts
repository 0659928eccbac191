/**
 * The copies the shop makes of an uploaded photo, once, when it is uploaded
 * (src/server/admin/media-variants.ts): which widths, which formats, their object paths and the
 * limits a source must respect. Pure: the server measures the source with sharp and hands the
 * measures here.
 *
 * Naming scheme: every copy sits next to its original in the same bucket, named after it without
 * its extension, then `.{width}w.{ext}`:
 *   products/pk-abc-lqz1x2.jpg → products/pk-abc-lqz1x2.480w.avif, ….480w.webp, ….480w.jpg
 * so a page that knows an image's stored path and its upright width can write its `srcset`
 * (variantPath). The original's bytes are never changed: they stay for the owner.
 *
 * Which images have copies is recorded in the stored path itself: once its copies are made, an
 * original is kept under its name with its upright size, `name.{width}x{height}.{ext}` (sizedPath),
 *   products/pk-abc-lqz1x2.jpg → products/pk-abc-lqz1x2.3000x4000.jpg (copies ….3000x4000.480w.avif, …)
 * and that path is what the product or offer row stores. A page reads the size back from the path
 * (recordedSize) and writes its `srcset`, `width` and `height` without asking anything else; a path
 * without a size (an SVG, an image from before the copies) is shown as it is.
 */

/** @internal The widths made, narrowest first: a 170-px card at 1×–2×, a product page on a phone at 2×–3×, a desktop. */
export const VARIANT_WIDTHS = [240, 480, 960, 1600] as const;

/** The formats made of every width, in the order a `<picture>` offers them: AVIF, WebP, then JPEG for the rest. */
export const VARIANT_FORMATS = ['avif', 'webp', 'jpeg'] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];

/** The largest original the shop transforms: 15 MB. */
export const VARIANT_SOURCE_MAX_BYTES = 15 * 1024 * 1024;

/** The largest original in pixels (a 50-megapixel camera); more is refused before it is decoded. */
export const VARIANT_SOURCE_MAX_PIXELS = 50_000_000;

/** The source formats (as sharp names them) the shop takes; SVG is kept as it is (it scales by itself). */
const RASTER_SOURCES = ['jpeg', 'png', 'webp', 'gif', 'avif', 'heif'] as const;
const KEPT_AS_IS = ['svg'] as const;

const EXTENSIONS: Record<VariantFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg' };
const CONTENT_TYPES: Record<VariantFormat, string> = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' };

/** A source as measured: its stored width and height, its format and its EXIF orientation (1–8). */
export interface VariantSource {
  width: number;
  height: number;
  format: string;
  orientation?: number | undefined;
  bytes: number;
}

/** One copy to make. */
export interface PlannedVariant {
  width: number;
  height: number;
  format: VariantFormat;
  /** Its object path in the bucket (see the naming scheme above). */
  path: string;
  contentType: string;
}

/** Why a source is refused. */
export type VariantRefusal = 'too_large' | 'not_an_image';

export type VariantPlan = { ok: true; width: number; height: number; variants: PlannedVariant[] } | { ok: false; reason: VariantRefusal };

/** The object path of one copy of `originalPath`: its name without the extension, `.{width}w.{ext}`. */
export function variantPath(originalPath: string, width: number, format: VariantFormat): string {
  const slash = originalPath.lastIndexOf('/');
  const dot = originalPath.lastIndexOf('.');
  const stem = dot > slash + 1 ? originalPath.slice(0, dot) : originalPath;
  return `${stem}.${width}w.${EXTENSIONS[format]}`;
}

const SIZED_NAME = /\.(\d{1,5})x(\d{1,5})\.[a-z0-9]{1,5}$/i;

/**
 * The upright size an original's stored path (or its URL) records (sizedPath): null for a path
 * without one, or for one of the copies.
 */
export function recordedSize(pathOrUrl: string): { width: number; height: number } | null {
  const path = pathOrUrl.replace(/[?#].*$/, '');
  const match = SIZED_NAME.exec(path.slice(path.lastIndexOf('/') + 1));
  if (!match) return null;
  const width = Number(match[1]);
  const height = Number(match[2]);
  return width > 0 && height > 0 ? { width, height } : null;
}

/** The name an original is kept under once its copies are made: its name with its upright size before the extension (any former size replaced). */
export function sizedPath(originalPath: string, width: number, height: number): string {
  const slash = originalPath.lastIndexOf('/');
  const dot = originalPath.lastIndexOf('.');
  const hasExtension = dot > slash + 1;
  const ext = hasExtension ? originalPath.slice(dot) : '';
  const stem = (hasExtension ? originalPath.slice(0, dot) : originalPath).replace(/\.\d{1,5}x\d{1,5}$/, '');
  return `${stem}.${width}x${height}${ext}`;
}

/** Whether an object path is one of the shop's copies rather than an original. */
export function isVariantPath(path: string): boolean {
  return /\.\d+w\.(?:avif|webp|jpg)$/.test(path);
}

/** @internal The upright size of a source: EXIF orientations 5–8 turn it a quarter, so width and height swap. */
export function uprightSize(source: Pick<VariantSource, 'width' | 'height' | 'orientation'>): { width: number; height: number } {
  const turned = (source.orientation ?? 1) >= 5 && (source.orientation ?? 1) <= 8;
  return turned ? { width: source.height, height: source.width } : { width: source.width, height: source.height };
}

/** The widths made of an upright width: every standard width up to it, or the width itself when narrower than them all. */
export function variantWidths(uprightWidth: number): number[] {
  const widths: number[] = VARIANT_WIDTHS.filter((w) => w <= uprightWidth);
  return widths.length > 0 ? widths : [Math.max(1, Math.floor(uprightWidth))];
}

/**
 * The copies to make of the original stored at `originalPath`: every width of variantWidths in
 * every format, heights kept in proportion; none for an SVG. Refused: a source over
 * VARIANT_SOURCE_MAX_BYTES or VARIANT_SOURCE_MAX_PIXELS ('too_large'), or that is not one of the
 * image formats the shop takes ('not_an_image').
 */
export function planVariants(originalPath: string, source: VariantSource): VariantPlan {
  if (source.bytes > VARIANT_SOURCE_MAX_BYTES) return { ok: false, reason: 'too_large' };
  const format = source.format.toLowerCase();
  if ((KEPT_AS_IS as readonly string[]).includes(format)) return { ok: true, width: source.width, height: source.height, variants: [] };
  if (!(RASTER_SOURCES as readonly string[]).includes(format)) return { ok: false, reason: 'not_an_image' };
  if (!(source.width > 0 && source.height > 0)) return { ok: false, reason: 'not_an_image' };
  if (source.width * source.height > VARIANT_SOURCE_MAX_PIXELS) return { ok: false, reason: 'too_large' };
  const upright = uprightSize(source);
  const variants = variantWidths(upright.width).flatMap((width) => {
    const height = Math.max(1, Math.round((width * upright.height) / upright.width));
    return VARIANT_FORMATS.map((f) => ({ width, height, format: f, path: variantPath(originalPath, width, f), contentType: CONTENT_TYPES[f] }));
  });
  return { ok: true, width: upright.width, height: upright.height, variants };
}
