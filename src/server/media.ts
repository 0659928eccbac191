/**
 * /media/{bucket}/{path}: the storage's public catalogue images, answered from the shop's origin
 * (src/pages/media/[...path].ts), with the images asked for lately kept in the server's memory.
 *
 * Without a copy, every shopper's first sight of a product image waited for the storage: a
 * request from this server to Supabase and back before the first byte (2026-11-26, the
 * 100,000-product bench: 253 ms for the first card's image of /explore, its largest paint, while
 * the page itself took 25 ms). A CDN in front keeps the images a day (the Cache-Control below),
 * the copies of uploaded photos a year (their names never change);
 * a shop served without one, or a CDN's first request for an image, now waits for the storage
 * once per image every MEDIA_FRESH_MS. Uploads never overwrite an object (src/data/storage.ts,
 * `upsert: false`), so a kept image is the image; a removed one is forgotten when its copy
 * expires. After that the copy is checked with the storage's ETag, and kept if unchanged.
 */
import { isVariantPath } from '~/domain/image-variants.ts';
import { API_MEDIA_TEXT } from '~/i18n/api.ts';

/** How long a kept image is answered without asking the storage (10 minutes). */
export const MEDIA_FRESH_MS = 10 * 60 * 1000;
/** The memory all kept images may take (32 MB), and the largest image kept (1 MB). */
export const MEDIA_CACHE_BYTES = 32 * 1024 * 1024;
export const MEDIA_ENTRY_BYTES = 1024 * 1024;

/** What browsers and a CDN may do with an image: keep it a day, then use it a week while they check. */
export const MEDIA_CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800';
/**
 * A copy of an uploaded photo (name.{width}w.{ext}, src/domain/image-variants.ts) never changes:
 * a new photo gets a new name. Browsers and a CDN keep it a year without asking again.
 */
export const MEDIA_COPY_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** The Cache-Control of the image at `upstreamUrl`: a year, immutable, for a photo's copy; a day otherwise. */
export function mediaCacheControl(upstreamUrl: string): string {
  return isVariantPath(new URL(upstreamUrl).pathname) ? MEDIA_COPY_CACHE_CONTROL : MEDIA_CACHE_CONTROL;
}

interface Kept {
  body: Uint8Array<ArrayBuffer>;
  type: string;
  etag: string | null;
  checkedAt: number;
}

/** Images by storage address, least recently used first (a Map keeps insertion order). */
export class MediaCache {
  private readonly entries = new Map<string, Kept>();
  private bytes = 0;

  constructor(
    readonly maxBytes = MEDIA_CACHE_BYTES,
    readonly maxEntryBytes = MEDIA_ENTRY_BYTES,
  ) {}

  get(key: string): Kept | undefined {
    const kept = this.entries.get(key);
    if (kept) {
      this.entries.delete(key);
      this.entries.set(key, kept);
    }
    return kept;
  }

  set(key: string, kept: Kept): void {
    this.delete(key);
    if (kept.body.byteLength > this.maxEntryBytes) return;
    this.entries.set(key, kept);
    this.bytes += kept.body.byteLength;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.body.byteLength;
    }
  }

  delete(key: string): void {
    const kept = this.entries.get(key);
    if (!kept) return;
    this.entries.delete(key);
    this.bytes -= kept.body.byteLength;
  }

  /** Bytes kept, for tests and logs. */
  get size(): number {
    return this.bytes;
  }
}

const text = (status: number, body: string) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
/** What /media answers for anything but a public catalogue image. */
export const mediaNotFound = () => text(404, API_MEDIA_TEXT.notFound);

function answer(kept: Kept, ifNoneMatch: string | null, cacheControl: string): Response {
  const headers: Record<string, string> = { 'cache-control': cacheControl };
  if (kept.etag) headers.etag = kept.etag;
  if (kept.etag && ifNoneMatch === kept.etag) return new Response(null, { status: 304, headers });
  headers['content-type'] = kept.type;
  headers['content-length'] = String(kept.body.byteLength);
  return new Response(kept.body, { status: 200, headers });
}

export interface MediaOptions {
  cache: MediaCache;
  fetch?: typeof fetch;
  now?: () => number;
  freshMs?: number;
}

/**
 * The answer for the storage object at `upstreamUrl` (a public image bucket's address) to
 * `request`: the kept copy while fresh, else the storage's (kept when it is an image of at most
 * maxEntryBytes). Anything but an image is a 404; a storage that does not answer, a 502.
 */
export async function serveMedia(upstreamUrl: string, request: Request, options: MediaOptions): Promise<Response> {
  const { cache, fetch: get = fetch, now = Date.now, freshMs = MEDIA_FRESH_MS } = options;
  const ifNoneMatch = request.headers.get('if-none-match');
  const cacheControl = mediaCacheControl(upstreamUrl);
  const kept = cache.get(upstreamUrl);
  if (kept && now() - kept.checkedAt < freshMs) return answer(kept, ifNoneMatch, cacheControl);

  // Asked with the kept copy's ETag (unchanged: 304 and the copy stays), or the browser's when
  // nothing is kept (its 304 is passed on).
  const validator = kept?.etag ?? ifNoneMatch;
  let upstream: Response;
  try {
    upstream = await get(upstreamUrl, { headers: validator ? { 'if-none-match': validator } : {}, signal: AbortSignal.timeout(10_000) });
  } catch {
    return text(502, API_MEDIA_TEXT.unavailable);
  }
  if (upstream.status === 304) {
    if (kept) {
      kept.checkedAt = now();
      return answer(kept, ifNoneMatch, cacheControl);
    }
    const etag = upstream.headers.get('etag') ?? ifNoneMatch;
    return new Response(null, { status: 304, headers: { 'cache-control': cacheControl, ...(etag ? { etag } : {}) } });
  }
  const type = upstream.headers.get('content-type') ?? '';
  // Only images: anything else the storage might hold is not served from the shop's origin.
  if (!upstream.ok || !type.startsWith('image/')) {
    cache.delete(upstreamUrl);
    await upstream.body?.cancel();
    return mediaNotFound();
  }
  const etag = upstream.headers.get('etag');
  const length = Number(upstream.headers.get('content-length'));
  if (Number.isFinite(length) && length > cache.maxEntryBytes) {
    // Too large to keep: passed through as it comes.
    const headers: Record<string, string> = { 'cache-control': cacheControl, 'content-type': type, 'content-length': String(length) };
    if (etag) headers.etag = etag;
    return new Response(upstream.body, { status: 200, headers });
  }
  const fresh: Kept = { body: new Uint8Array(await upstream.arrayBuffer()), type, etag, checkedAt: now() };
  cache.set(upstreamUrl, fresh);
  return answer(fresh, ifNoneMatch, cacheControl);
}
