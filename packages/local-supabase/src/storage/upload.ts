/**
 * Uploads (POST creates, PUT or `x-upsert: true` replaces): the row is written as the caller's
 * role, so the RLS policies on storage.objects decide, and the bytes only once the row is allowed.
 */
import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { Tx } from '../db.ts';
import { corsHeaders, HttpError, readBody } from '../http.ts';
import type { StackContext } from '../types.ts';
import { forgetBucket, getBucket } from './buckets.ts';
import { claimsOf, requireCaller } from './caller.ts';
import { bucketNotFound, mapDbError, notFound, StorageError } from './errors.ts';
import { filePath, splitBucketAndName } from './keys.ts';
import { DEFAULT_MAX_AGE, maxAgeOf } from './metadata.ts';

/**
 * Largest upload read (Supabase Storage's default global limit, 50 MB); each bucket's own
 * file_size_limit (the products bucket: 15 MB) then decides, with the same 413 as the hosted storage.
 */
const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

interface Upload {
  data: Buffer;
  contentType: string;
  cacheControl: string;
}

/** Reads the upload as storage-js sends it: multipart with a file part, or the raw bytes. */
async function readUpload(req: IncomingMessage): Promise<Upload> {
  let body: Buffer;
  try {
    body = await readBody(req, MAX_UPLOAD_BYTES);
  } catch (err) {
    if (err instanceof HttpError && err.status === 413) {
      throw new StorageError(413, 'Payload too large', 'The object exceeded the maximum allowed size');
    }
    throw err;
  }
  const type = String(req.headers['content-type'] ?? '');
  if (/^multipart\/form-data/i.test(type)) {
    let form: FormData;
    try {
      form = await new Response(Uint8Array.from(body), { headers: { 'content-type': type } }).formData();
    } catch {
      throw new StorageError(400, 'InvalidRequest', 'Could not parse the multipart body');
    }
    let file: Blob | undefined;
    for (const [, value] of form.entries()) {
      // storage-js names the file part "" , so the part is found by being a file, not by name.
      if (typeof value !== 'string') {
        file = value;
        break;
      }
    }
    if (!file) throw new StorageError(400, 'InvalidRequest', 'No file in the multipart body');
    const cacheField = form.get('cacheControl');
    return {
      data: Buffer.from(await file.arrayBuffer()),
      contentType: file.type || 'application/octet-stream',
      cacheControl: typeof cacheField === 'string' && cacheField ? `max-age=${maxAgeOf(cacheField)}` : `max-age=${DEFAULT_MAX_AGE}`,
    };
  }
  const cc = req.headers['cache-control'];
  return {
    data: body,
    contentType: type || 'text/plain;charset=UTF-8',
    cacheControl: typeof cc === 'string' && cc ? `max-age=${maxAgeOf(cc)}` : `max-age=${DEFAULT_MAX_AGE}`,
  };
}

/** POST or PUT /object/BUCKET/PATH. */
export async function upload(req: IncomingMessage, res: ServerResponse, rest: string, ctx: StackContext, isUpdate: boolean) {
  const caller = await requireCaller(req, ctx);
  const { bucket, name, segments } = splitBucketAndName(rest);
  const b = await getBucket(ctx, bucket);
  if (!b) throw bucketNotFound();
  const up = await readUpload(req);
  const limit = b.file_size_limit === null ? null : Number(b.file_size_limit);
  if (limit !== null && Number.isFinite(limit) && limit > 0 && up.data.length > limit) {
    throw new StorageError(413, 'Payload too large', 'The object exceeded the maximum allowed size');
  }
  const mime = up.contentType.split(';')[0]!.trim().toLowerCase();
  if (b.allowed_mime_types && b.allowed_mime_types.length > 0) {
    const ok = b.allowed_mime_types.some((allowed) => {
      const a = allowed.toLowerCase();
      return a === mime || (a.endsWith('/*') && mime.startsWith(a.slice(0, -1)));
    });
    if (!ok) throw new StorageError(415, 'invalid_mime_type', `mime type ${mime} is not supported`);
  }
  const upsert = isUpdate || String(req.headers['x-upsert'] ?? '').toLowerCase() === 'true';
  const sub = typeof caller.claims.sub === 'string' && /^[0-9a-f-]{36}$/i.test(caller.claims.sub) ? caller.claims.sub : null;
  const metadata = {
    eTag: `"${createHash('md5').update(up.data).digest('hex')}"`,
    size: up.data.length,
    mimetype: up.contentType,
    cacheControl: up.cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: up.data.length,
    httpStatusCode: 200,
  };
  const file = filePath(ctx, bucket, segments);
  const id = await ctx.db
    .asRole(caller.role, claimsOf(caller), async (tx: Tx) => {
      let objectId: string;
      if (isUpdate) {
        // No RETURNING: it would also need a SELECT policy, which storage-api does not require.
        const existing = await tx.query(
          `update storage.objects set metadata = $3::jsonb, owner = $4, updated_at = now()
            where bucket_id = $1 and name = $2`,
          [bucket, name, JSON.stringify(metadata), sub],
        );
        if (!existing.affectedRows) throw notFound();
        objectId = '';
      } else {
        objectId = randomUUID();
        await tx.query(
          `insert into storage.objects (id, bucket_id, name, owner, metadata) values ($1, $2, $3, $4, $5::jsonb)
           ${upsert ? 'on conflict (bucket_id, name) do update set metadata = excluded.metadata, owner = excluded.owner, updated_at = now()' : ''}`,
          [objectId, bucket, name, sub, JSON.stringify(metadata)],
        );
      }
      // The bytes are written only once the row is allowed, inside the transaction, so a
      // failed write rolls the row back.
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, up.data);
      return objectId;
    })
    .catch(mapDbError);
  let objectId = id;
  if (!objectId) {
    const r = await ctx.db.admin((tx) =>
      tx.query<{ id: string }>(`select id::text as id from storage.objects where bucket_id = $1 and name = $2`, [bucket, name]),
    );
    objectId = r.rows[0]?.id ?? '';
  } else if (upsert) {
    // On conflict the existing row keeps its id.
    const r = await ctx.db.admin((tx) =>
      tx.query<{ id: string }>(`select id::text as id from storage.objects where bucket_id = $1 and name = $2`, [bucket, name]),
    );
    objectId = r.rows[0]?.id ?? objectId;
  }
  forgetBucket(ctx, bucket);
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...corsHeaders() });
  res.end(JSON.stringify({ Key: `${bucket}/${name}`, Id: objectId }));
}
