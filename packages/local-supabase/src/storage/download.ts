/**
 * Downloads: public objects (any caller, public buckets only) and authenticated ones (the
 * caller's role must be able to select the row), served with caching headers and 304s.
 */
import { promises as fs, type Stats } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { corsHeaders } from '../http.ts';
import type { StackContext } from '../types.ts';
import { getBucket } from './buckets.ts';
import { claimsOf, requireCaller } from './caller.ts';
import { bucketNotFound, notFound } from './errors.ts';
import { filePath, splitBucketAndName } from './keys.ts';
import { extensionType, maxAgeOf, type ObjectMeta } from './metadata.ts';

function etagOf(stat: Stats): string {
  return `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
}

/** Sends a stored file with caching headers; answers 304 when the browser's copy is current. */
async function serveFile(
  req: IncomingMessage,
  res: ServerResponse,
  file: string,
  name: string,
  meta: ObjectMeta | null,
  isPublic: boolean,
  url: URL,
): Promise<void> {
  let stat: Stats;
  try {
    stat = await fs.stat(file);
  } catch {
    throw notFound();
  }
  if (!stat.isFile()) throw notFound();
  const etag = etagOf(stat);
  const maxAge = maxAgeOf(meta?.cacheControl);
  const headers: Record<string, string> = {
    ...corsHeaders(),
    // The extension wins for known image types: a stored text/plain (storage-js's default
    // for raw uploads without a type) must not stop a browser from showing an image.
    'content-type': extensionType(name) || meta?.mimetype || 'application/octet-stream',
    'cache-control': `${isPublic ? 'public' : 'private'}, max-age=${maxAge}`,
    etag,
    'last-modified': stat.mtime.toUTCString(),
    'x-content-type-options': 'nosniff',
    // Stored SVGs are opened on the stack's origin when visited directly: no script may run.
    'content-security-policy': "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox",
  };
  const download = url.searchParams.get('download');
  if (download !== null) {
    const filename = (download || path.basename(name)).replace(/["\r\n\\]/g, '_');
    headers['content-disposition'] = `attachment; filename="${filename}"`;
  }
  const inm = req.headers['if-none-match'];
  if (typeof inm === 'string' && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  headers['content-length'] = String(stat.size);
  res.writeHead(200, headers);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  res.end(await fs.readFile(file));
}

async function objectMetaAsAdmin(ctx: StackContext, bucket: string, name: string): Promise<ObjectMeta | null> {
  const r = await ctx.db.admin((tx) =>
    tx.query<{ metadata: ObjectMeta | null }>(`select metadata from storage.objects where bucket_id = $1 and name = $2`, [bucket, name]),
  );
  return r.rows[0]?.metadata ?? null;
}

/** GET/HEAD /object/public/BUCKET/PATH. */
export async function getPublic(req: IncomingMessage, res: ServerResponse, rest: string, url: URL, ctx: StackContext) {
  const { bucket, name, segments } = splitBucketAndName(rest);
  const b = await getBucket(ctx, bucket);
  // A private bucket answers like a missing object, so its contents cannot be probed.
  if (!b || !b.public) throw bucketNotFound();
  const file = filePath(ctx, bucket, segments);
  const meta = await objectMetaAsAdmin(ctx, bucket, name);
  await serveFile(req, res, file, name, meta, true, url);
}

/** GET/HEAD /object/authenticated/BUCKET/PATH (and /object/BUCKET/PATH). */
export async function getAuthenticated(req: IncomingMessage, res: ServerResponse, rest: string, url: URL, ctx: StackContext) {
  const caller = await requireCaller(req, ctx);
  const { bucket, name, segments } = splitBucketAndName(rest);
  if (!(await getBucket(ctx, bucket))) throw bucketNotFound();
  const r = await ctx.db.asRole(caller.role, claimsOf(caller), (tx) =>
    tx.query<{ metadata: ObjectMeta | null }>(`select metadata from storage.objects where bucket_id = $1 and name = $2`, [bucket, name]),
  );
  if (r.rows.length === 0) throw notFound();
  await serveFile(req, res, filePath(ctx, bucket, segments), name, r.rows[0]!.metadata, false, url);
}
