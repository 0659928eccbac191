/** Buckets: their settings (cached, every image request needs them) and the bucket listing. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { corsHeaders } from '../http.ts';
import type { StackContext } from '../types.ts';
import { claimsOf, requireCaller } from './caller.ts';
import { bucketNotFound, StorageError } from './errors.ts';

export interface BucketRow {
  id: string;
  public: boolean | null;
  file_size_limit: string | number | null;
  allowed_mime_types: string[] | null;
}

const bucketCache = new WeakMap<object, Map<string, { at: number; row: BucketRow | null }>>();
/** Bucket settings; cached for a few seconds because every image request needs them. */
export async function getBucket(ctx: StackContext, id: string): Promise<BucketRow | null> {
  let cache = bucketCache.get(ctx.config);
  if (!cache) {
    cache = new Map();
    bucketCache.set(ctx.config, cache);
  }
  const hit = cache.get(id);
  if (hit && Date.now() - hit.at < 5000) return hit.row;
  const r = await ctx.db.admin((tx) => tx.query<BucketRow>(`select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1`, [id]));
  const row = r.rows[0] ?? null;
  cache.set(id, { at: Date.now(), row });
  return row;
}

/** Drops a bucket's cached settings, so the next request reads them again. */
export function forgetBucket(ctx: StackContext, id: string): void {
  bucketCache.get(ctx.config)?.delete(id);
}

function bucketJson(r: Record<string, unknown>): Record<string, unknown> {
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v);
  return { ...r, created_at: iso(r.created_at), updated_at: iso(r.updated_at) };
}

/** storage-js `listBuckets()` (id null) and `getBucket(id)`. */
export async function listBuckets(req: IncomingMessage, res: ServerResponse, id: string | null, ctx: StackContext) {
  const caller = await requireCaller(req, ctx);
  // Bucket settings are administration, as on a hosted project where only the service key lists them.
  if (caller.role !== 'service_role') throw new StorageError(403, 'Unauthorized', 'Only the service role may list buckets');
  const r = await ctx.db.asRole(caller.role, claimsOf(caller), (tx) =>
    tx.query(
      `select id, name, owner::text as owner, public, file_size_limit, allowed_mime_types, created_at, updated_at
         from storage.buckets ${id === null ? '' : 'where id = $1'} order by id`,
      id === null ? [] : [id],
    ),
  );
  if (id !== null && r.rows.length === 0) throw bucketNotFound();
  const body = id === null ? r.rows.map(bucketJson) : bucketJson(r.rows[0]!);
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...corsHeaders() });
  res.end(JSON.stringify(body));
}
