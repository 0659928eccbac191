/**
 * Supabase Storage compatible endpoints under /storage/v1: the route table. Object rows live in
 * storage.objects and are written as the caller's role, so the RLS policies of the
 * migrations decide who may upload; the bytes live in `${dataDir}/storage/BUCKET/PATH`.
 */
import { corsHeaders } from '../http.ts';
import type { Handler } from '../types.ts';
import { listBuckets } from './buckets.ts';
import { getAuthenticated, getPublic } from './download.ts';
import { sendStorageError, StorageError } from './errors.ts';
import { safeSegments } from './keys.ts';
import { listObjects } from './list.ts';
import { deleteMany, deleteOne } from './remove.ts';
import { upload } from './upload.ts';

/** Answers every /storage/v1 request. */
export const handleStorage: Handler = async (req, res, rawPath, url, ctx) => {
  const method = req.method ?? 'GET';
  try {
    if (method === 'OPTIONS') {
      res.writeHead(204, { ...corsHeaders(), 'access-control-max-age': '86400' });
      res.end();
      return;
    }
    const p = rawPath;
    let m: RegExpExecArray | null;
    if ((m = /^\/object\/public\/(.+)$/.exec(p)) && (method === 'GET' || method === 'HEAD')) {
      return await getPublic(req, res, m[1]!, url, ctx);
    }
    if ((m = /^\/object\/authenticated\/(.+)$/.exec(p)) && (method === 'GET' || method === 'HEAD')) {
      return await getAuthenticated(req, res, m[1]!, url, ctx);
    }
    if ((m = /^\/object\/list\/([^/]+)\/?$/.exec(p)) && method === 'POST') {
      return await listObjects(req, res, m[1]!, ctx);
    }
    if ((m = /^\/object\/([^/]+)\/?$/.exec(p)) && method === 'DELETE') {
      return await deleteMany(req, res, m[1]!, ctx);
    }
    if ((m = /^\/object\/(.+)$/.exec(p))) {
      if (method === 'GET' || method === 'HEAD') return await getAuthenticated(req, res, m[1]!, url, ctx);
      if (method === 'POST') return await upload(req, res, m[1]!, ctx, false);
      if (method === 'PUT') return await upload(req, res, m[1]!, ctx, true);
      if (method === 'DELETE') return await deleteOne(req, res, m[1]!, ctx);
    }
    if (/^\/bucket\/?$/.test(p) && method === 'GET') return await listBuckets(req, res, null, ctx);
    if ((m = /^\/bucket\/([^/]+)\/?$/.exec(p)) && method === 'GET') {
      return await listBuckets(req, res, safeSegments(m[1]!)[0]!, ctx);
    }
    throw new StorageError(404, 'not_found', 'Route not found');
  } catch (err) {
    if (err instanceof StorageError) {
      sendStorageError(res, err);
      return;
    }
    throw err;
  }
};
