/**
 * GET /media/{bucket}/{path}: a public catalogue image of the storage, served from the shop's own
 * origin so the product page's main image (its largest paint) needs no connection to another
 * origin, and kept in the server's memory a few minutes (src/server/media.ts). Only the public
 * image buckets; the answer is cached by browsers and a CDN for a day.
 */
import type { APIRoute } from 'astro';
import { PUBLIC_SUPABASE_URL } from 'astro:env/client';
import { mediaObject, storagePublicBase } from '~/domain/images.ts';
import { MediaCache, mediaNotFound, serveMedia } from '~/server/media.ts';

export const prerender = false;

const cache = new MediaCache();

export const GET: APIRoute = async ({ params, request }) => {
  const object = mediaObject(params.path ?? '');
  if (!object || !PUBLIC_SUPABASE_URL) return mediaNotFound();
  const [bucket, path] = object;
  return serveMedia(`${storagePublicBase(PUBLIC_SUPABASE_URL)}${bucket}/${path}`, request, { cache });
};
