/**
 * Image paths in catalogue rows are either complete URLs, site paths served from public/, or
 * paths relative to the backend's public storage ('products/x.svg' = bucket 'products', object
 * 'x.svg'). Only the last kind needs the storage base URL.
 */

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
