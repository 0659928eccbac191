/** Removing objects (one, or storage-js `remove([...])`): the row as the caller's role, then the file. */
import { promises as fs } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { corsHeaders, readBody, type Caller } from '../http.ts';
import type { StackContext } from '../types.ts';
import { getBucket } from './buckets.ts';
import { claimsOf, requireCaller } from './caller.ts';
import { bucketNotFound, mapDbError, notFound, StorageError } from './errors.ts';
import { BUCKET_RE, filePath, safeSegments, splitBucketAndName } from './keys.ts';

async function removeObjects(ctx: StackContext, caller: Caller, bucket: string, names: string[]) {
  const rows = await ctx.db
    .asRole(caller.role, claimsOf(caller), (tx) =>
      tx.query<Record<string, unknown> & { name: string }>(
        `delete from storage.objects where bucket_id = $1 and name = any($2::text[])
         returning id::text as id, name, bucket_id, owner::text as owner, metadata, created_at, updated_at, last_accessed_at`,
        [bucket, names],
      ),
    )
    .catch(mapDbError);
  for (const row of rows.rows) {
    const file = filePath(ctx, bucket, safeSegments(row.name.split('/').map(encodeURIComponent).join('/')));
    await fs.rm(file, { force: true });
  }
  return rows.rows;
}

/** DELETE /object/BUCKET/PATH. */
export async function deleteOne(req: IncomingMessage, res: ServerResponse, rest: string, ctx: StackContext) {
  const caller = await requireCaller(req, ctx);
  const { bucket, name } = splitBucketAndName(rest);
  if (!(await getBucket(ctx, bucket))) throw bucketNotFound();
  const removed = await removeObjects(ctx, caller, bucket, [name]);
  if (removed.length === 0) throw notFound();
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...corsHeaders() });
  res.end(JSON.stringify({ message: 'Successfully deleted' }));
}

/** storage-js `remove([...])`: DELETE /object/BUCKET with {prefixes}. */
export async function deleteMany(req: IncomingMessage, res: ServerResponse, bucketPart: string, ctx: StackContext) {
  const caller = await requireCaller(req, ctx);
  const bucket = safeSegments(bucketPart)[0]!;
  if (!BUCKET_RE.test(bucket) || !(await getBucket(ctx, bucket))) throw bucketNotFound();
  let prefixes: unknown;
  try {
    prefixes = (JSON.parse((await readBody(req, 1024 * 1024)).toString('utf8')) as { prefixes?: unknown }).prefixes;
  } catch {
    throw new StorageError(400, 'InvalidRequest', 'Body must be JSON with a prefixes list');
  }
  if (!Array.isArray(prefixes) || prefixes.length > 1000 || !prefixes.every((p) => typeof p === 'string')) {
    throw new StorageError(400, 'InvalidRequest', 'Body must be JSON with a prefixes list');
  }
  const names = (prefixes as string[]).map((p) => safeSegments(p.split('/').map(encodeURIComponent).join('/')).join('/'));
  const removed = await removeObjects(ctx, caller, bucket, names);
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...corsHeaders() });
  res.end(JSON.stringify(removed));
}
