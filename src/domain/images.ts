/**
 * Image paths in catalogue rows are either complete URLs, site paths served from public/, or
 * paths relative to the backend's public storage ('products/x.svg' = bucket 'products', object
 * 'x.svg'). Only the last kind needs the storage base URL.
 */

import { recordedSize, variantPath, variantWidths, type VariantFormat } from './image-variants.ts';

const ABSOLUTE_URL = /^(?:https?:)?\/\//i;
const DATA_OR_BLOB_URL = /^(?:data|blob):/i;

/** The public storage prefix of a Supabase project URL, with a trailing slash. */
export function storagePublicBase(supabaseUrl: string): string {
  return `${supabaseUrl.replace(/\/+$/, '')}/storage/v1/object/public/`;
}

/**
 * The URL to put in an `<img src>` for a stored image path.
 * @example resolveImage('products/x.svg', 'https://abc.supabase.co')
 *   // 'https://abc.supabase.co/storage/v1/object/public/products/x.svg'
 */
export function resolveImage(src: string | null | undefined, storageBaseUrl: string): string {
  const value = (src ?? '').trim();
  if (value === '') return '';
  if (ABSOLUTE_URL.test(value) || DATA_OR_BLOB_URL.test(value)) return value;
  // A single leading slash is a path of this site (public/), not of the storage.
  if (value.startsWith('/')) return value;
  const relative = value.replace(/^\.\//, '');
  return storagePublicBase(storageBaseUrl) + relative.split('/').map(encodeSegment).join('/');
}

function encodeSegment(segment: string): string {
  // Keep already-escaped names stable instead of double-encoding their '%'.
  try {
    return encodeURIComponent(decodeURIComponent(segment));
  } catch {
    return encodeURIComponent(segment);
  }
}

/** The public storage buckets of catalogue images (supabase/migrations/…_storage.sql). */
export const PUBLIC_IMAGE_BUCKETS = ['products', 'expansions', 'product-types', 'franchises'] as const;

/** Where the shop serves storage images from its own origin (src/pages/media/[...path].ts). */
export const MEDIA_PREFIX = '/media/';

/**
 * The same image from the shop's own origin: a stored path ('products/x.svg') becomes
 * '/media/products/x.svg', so the page's largest image needs no connection to another origin.
 * Complete URLs and site paths are returned as they are.
 */
export function sameOriginImage(src: string | null | undefined): string {
  const value = (src ?? '').trim();
  if (value === '' || ABSOLUTE_URL.test(value) || DATA_OR_BLOB_URL.test(value) || value.startsWith('/')) return value;
  return MEDIA_PREFIX + value.replace(/^\.\//, '').split('/').map(encodeSegment).join('/');
}

/**
 * A URL of this project's public storage from the shop's own origin
 * ('https://x.supabase.co/storage/v1/object/public/products/a.svg' → '/media/products/a.svg');
 * any other URL as it is. For images already resolved, as /explore's catalogue has them.
 */
export function sameOriginStorageUrl(url: string, supabaseUrl: string): string {
  const base = storagePublicBase(supabaseUrl);
  return url.startsWith(base) ? MEDIA_PREFIX + url.slice(base.length) : url;
}

/**
 * The storage object a '/media/…' path names: [bucket, object path], or null when it is not a
 * public catalogue image (unknown bucket, empty, '..', '.', or a character outside [\w.-]).
 */
export function mediaObject(path: string): [bucket: string, object: string] | null {
  const segments = path.split('/').filter((segment) => segment !== '');
  if (segments.length < 2 || segments.length > 8) return null;
  const [bucket, ...rest] = segments;
  if (!(PUBLIC_IMAGE_BUCKETS as readonly string[]).includes(bucket!)) return null;
  for (const segment of rest) {
    if (segment === '.' || segment === '..' || !/^[\w.-]{1,200}$/.test(segment)) return null;
  }
  return [bucket!, rest.join('/')];
}

/**
 * The `elementtiming` name of a page's first image (the first card of /explore): the browser
 * reports when it was painted, and the page's scripts are asked for after that
 * (src/server/late-scripts.ts).
 */
export const FIRST_IMAGE_TIMING = 'primera-imagen';

/**
 * A slot an image is shown in, as `sizes` describes it: its widths under media conditions, the
 * last without one ('(min-width: 480px) 260px, 50vw'). A square slot shows the image whole
 * (object-fit: contain), so a portrait photo in it is narrower than the slot.
 */
export interface ImageSlot {
  widths: ReadonlyArray<readonly [media: string | null, width: string]>;
  square?: boolean;
}

/** The slots of the shop's pages (their CSS: product-card.css, product-detail.css, the islands' thumbnails). */
export const IMAGE_SLOTS = {
  /** A product card: two per row on a phone, columns of about 200–260 px wider. */
  card: {
    widths: [
      ['(min-width: 480px)', '260px'],
      [null, '50vw'],
    ],
    square: true,
  },
  /**
   * The product page's main image, inside its 1 px border: the container's width on a phone (its
   * padding 1 rem, 1.5 rem from 768 px), one of two columns with a 2 rem gap from 900 px, in a
   * container of 1,280 px at most. As wide as it is drawn, not wider: on a 412 px phone at 1.75× it
   * needs 472 px, so the 480 px copy comes (for the demo's photos, 3.8 KB of AVIF against 34 KB).
   */
  product: {
    widths: [
      ['(min-width: 900px)', 'min(598px, 50vw - 42px)'],
      ['(min-width: 768px)', 'calc(100vw - 50px)'],
      [null, 'calc(100vw - 34px)'],
    ],
    square: true,
  },
  /** The full-screen viewer: up to 90% of the screen, 900 px at most. */
  viewer: { widths: [[null, 'min(90vw, 900px)']] },
  /** The home's hero slide: hidden on a phone (the narrowest copy, if any), 360 px wider. */
  hero: {
    widths: [
      ['(min-width: 600px)', '360px'],
      [null, '1px'],
    ],
  },
  /** A picker's tile (franchises, expansions, the home's sliders): a 16:9 box. */
  tile: {
    widths: [
      ['(min-width: 480px)', '320px'],
      [null, '50vw'],
    ],
  },
  /** Thumbnails: the gallery's, an offer's photos, the cart's and the back office's lines. */
  thumb80: { widths: [[null, '80px']], square: true },
  thumb72: { widths: [[null, '72px']], square: true },
  thumb64: { widths: [[null, '64px']], square: true },
  thumb48: { widths: [[null, '48px']], square: true },
  thumb40: { widths: [[null, '40px']], square: true },
} as const satisfies Record<string, ImageSlot>;

/** What an `<img>` (inside a `<picture>` with `sources`) needs to ask for the right copy. */
export interface ResponsiveImage {
  /** The JPEG copy for a browser that reads no `srcset`. */
  src: string;
  /** The JPEG copies, by width. */
  srcset: string;
  sizes: string;
  /** The photo's upright size, for the box to be reserved before it loads. */
  width: number;
  height: number;
  /** AVIF, then WebP: the `<source>`s of the `<picture>`. */
  sources: Array<{ type: 'image/avif' | 'image/webp'; srcset: string }>;
}

const SOURCE_TYPES = { avif: 'image/avif', webp: 'image/webp' } as const;

/**
 * The copies of an image to offer in `slot`, from its URL (or stored path) as a page resolved it:
 * null when its name records no size (sizedPath, src/domain/image-variants.ts), that is an SVG or
 * an image without copies, shown as it is.
 * @example responsiveImage('/media/products/a.1500x2100.jpg', IMAGE_SLOTS.card)
 *   // { src: '/media/products/a.1500x2100.480w.jpg', srcset: '….240w.jpg 240w, ….480w.jpg 480w, …', sizes: '…', width: 1500, height: 2100, sources: [avif, webp] }
 */
export function responsiveImage(url: string | null | undefined, slot: ImageSlot): ResponsiveImage | null {
  const value = (url ?? '').trim();
  if (value === '' || DATA_OR_BLOB_URL.test(value)) return null;
  const size = recordedSize(value);
  if (!size) return null;
  const widths = variantWidths(size.width);
  const set = (format: VariantFormat) => widths.map((w) => `${variantPath(value, w, format)} ${w}w`).join(', ');
  // In a square slot a portrait photo is as wide as the slot times its width over its height.
  const scale = slot.square && size.height > size.width ? size.width / size.height : 1;
  const scaled = (width: string) => (scale === 1 ? width : `calc(${width} * ${scale.toFixed(3)})`);
  const sizes = slot.widths.map(([media, width]) => (media ? `${media} ${scaled(width)}` : scaled(width))).join(', ');
  const fallback = widths.find((w) => w >= 480) ?? widths[widths.length - 1]!;
  return {
    src: variantPath(value, fallback, 'jpeg'),
    srcset: set('jpeg'),
    sizes,
    width: size.width,
    height: size.height,
    sources: (['avif', 'webp'] as const).map((format) => ({ type: SOURCE_TYPES[format], srcset: set(format) })),
  };
}

/** The size a photo is drawn at inside a box, its proportions kept (as object-fit: contain). */
export function containedSize(photo: { width: number; height: number }, box: readonly [width: number, height: number]): [width: number, height: number] {
  const scale = Math.min(box[0] / photo.width, box[1] / photo.height);
  return [Math.max(1, Math.round(photo.width * scale)), Math.max(1, Math.round(photo.height * scale))];
}
