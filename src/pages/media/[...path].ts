/**
 * GET /media/{bucket}/{path}: a public catalogue image of the storage, served from the shop's own
 * origin so the product page's main image (its largest paint) needs no connection to another
 * origin. Only the public image buckets; the answer is cached by browsers and a CDN for a day.
 */
import type { APIRoute } from 'astro';
import { PUBLIC_SUPABASE_URL } from 'astro:env/client';
import { mediaObject, storagePublicBase } from '~/domain/images.ts';

export const prerender = false;

const notFound = () => new Response('No encontrado', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });

export const GET: APIRoute = async ({ params, request }) => {
  const object = mediaObject(params.path ?? '');
  if (!object || !PUBLIC_SUPABASE_URL) return notFound();
  const [bucket, path] = object;
  let upstream: Response;
  try {
    upstream = await fetch(`${storagePublicBase(PUBLIC_SUPABASE_URL)}${bucket}/${path}`, {
      headers: request.headers.get('if-none-match') ? { 'if-none-match': request.headers.get('if-none-match')! } : {},
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    return new Response('La imagen no está disponible por ahora.', {
      status: 502,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
    });
  }
  const type = upstream.headers.get('content-type') ?? '';
  const headers: Record<string, string> = { 'cache-control': 'public, max-age=86400, stale-while-revalidate=604800' };
  const etag = upstream.headers.get('etag');
  if (etag) headers.etag = etag;
  if (upstream.status === 304) return new Response(null, { status: 304, headers });
  // Only images: anything else the storage might hold is not served from the shop's origin.
  if (!upstream.ok || !type.startsWith('image/')) return notFound();
  headers['content-type'] = type;
  const length = upstream.headers.get('content-length');
  if (length) headers['content-length'] = length;
  return new Response(upstream.body, { status: 200, headers });
};
