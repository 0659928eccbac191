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
