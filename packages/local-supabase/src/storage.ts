/**
 * Supabase Storage compatible endpoints under /storage/v1. Object rows live in
 * storage.objects and are written as the caller's role, so the RLS policies of the
 * migrations decide who may upload; the bytes live in `${dataDir}/storage/BUCKET/PATH`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { promises as fs, type Stats } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { callerFromRequest, corsHeaders, HttpError, MAX_BODY_BYTES, readBody, type Caller } from './http.ts';
import type { Tx } from './db.ts';
import type { Handler, StackContext } from './types.ts';

/** Content types by file extension, for files whose row has no stored type. */
export const CONTENT_TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  avif: 'image/avif',
  gif: 'image/gif',
  ico: 'image/x-icon',
  json: 'application/json',
  txt: 'text/plain; charset=utf-8',
  pdf: 'application/pdf',
};

/** Default browser cache lifetime of objects, as storage-js sends it (seconds). */
const DEFAULT_MAX_AGE = 3600;

class StorageError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

const notFound = () => new StorageError(404, 'not_found', 'Object not found');
const bucketNotFound = () => new StorageError(404, 'Bucket not found', 'Bucket not found');
const invalidKey = () => new StorageError(400, 'InvalidKey', 'Invalid key');

function sendStorageError(res: ServerResponse, err: StorageError): void {
  if (res.headersSent) return;
  res.writeHead(err.status, { 'content-type': 'application/json; charset=utf-8', ...corsHeaders() });
  res.end(JSON.stringify({ statusCode: String(err.status), error: err.error, message: err.message }));
}

function storageRoot(ctx: StackContext): string {
  return path.resolve(ctx.config.dataDir, 'storage');
}

const BUCKET_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/**
 * Splits a still-encoded URL path into safe object-name segments: each segment is
 * decoded and then split again (so an encoded slash cannot smuggle `..`), and any
 * empty, `.` or `..` segment, backslash or NUL is refused.
 */
export function safeSegments(encoded: string): string[] {
  const out: string[] = [];
  for (const raw of encoded.split('/')) {
    if (raw === '') continue;
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      throw invalidKey();
    }
    for (const part of decoded.split('/')) {
      if (
        part === '' ||
        part === '.' ||
        part === '..' ||
        part.includes('\\') ||
        part.includes('\0') ||
        Buffer.byteLength(part) > 255
      ) {
        throw invalidKey();
      }
      out.push(part);
    }
  }
  if (out.length === 0 || out.join('/').length > 1024) throw invalidKey();
  return out;
}

function splitBucketAndName(rest: string): { bucket: string; name: string; segments: string[] } {
  const segments = safeSegments(rest);
  const bucket = segments.shift()!;
  if (!BUCKET_RE.test(bucket) || segments.length === 0) throw invalidKey();
  return { bucket, name: segments.join('/'), segments };
}

/** The file behind an object; resolved and checked to stay inside the storage folder. */
function filePath(ctx: StackContext, bucket: string, segments: string[]): string {
  const root = storageRoot(ctx);
  const full = path.resolve(root, bucket, ...segments);
  if (!full.startsWith(root + path.sep)) throw invalidKey();
  return full;
}

function extensionType(name: string): string | undefined {
  const ext = path.extname(name).slice(1).toLowerCase();
  return CONTENT_TYPES[ext];
}

interface BucketRow {
  id: string;
  public: boolean | null;
  file_size_limit: string | number | null;
  allowed_mime_types: string[] | null;
}

const bucketCache = new WeakMap<object, Map<string, { at: number; row: BucketRow | null }>>();
/** Bucket settings; cached for a few seconds because every image request needs them. */
async function getBucket(ctx: StackContext, id: string): Promise<BucketRow | null> {
  let cache = bucketCache.get(ctx.config);
  if (!cache) {
    cache = new Map();
    bucketCache.set(ctx.config, cache);
  }
  const hit = cache.get(id);
  if (hit && Date.now() - hit.at < 5000) return hit.row;
  const r = await ctx.db.admin((tx) =>
    tx.query<BucketRow>(`select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1`, [id]),
  );
  const row = r.rows[0] ?? null;
  cache.set(id, { at: Date.now(), row });
  return row;
}

interface ObjectMeta {
  mimetype?: string;
  cacheControl?: string;
  size?: number;
  eTag?: string;
}

function maxAgeOf(cacheControl: string | undefined): number {
  const m = /max-age=(\d+)/.exec(cacheControl ?? '');
  if (m) return Number(m[1]);
  const n = Number(cacheControl);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : DEFAULT_MAX_AGE;
}

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
    tx.query<{ metadata: ObjectMeta | null }>(`select metadata from storage.objects where bucket_id = $1 and name = $2`, [
      bucket,
      name,
    ]),
  );
  return r.rows[0]?.metadata ?? null;
}

async function getPublic(req: IncomingMessage, res: ServerResponse, rest: string, url: URL, ctx: StackContext) {
  const { bucket, name, segments } = splitBucketAndName(rest);
  const b = await getBucket(ctx, bucket);
  // A private bucket answers like a missing object, so its contents cannot be probed.
  if (!b || !b.public) throw bucketNotFound();
  const file = filePath(ctx, bucket, segments);
  const meta = await objectMetaAsAdmin(ctx, bucket, name);
  await serveFile(req, res, file, name, meta, true, url);
}

async function requireCaller(req: IncomingMessage, ctx: StackContext): Promise<Caller> {
  const caller = await callerFromRequest(req, ctx);
  if (!caller) throw new StorageError(403, 'Unauthorized', 'invalid signature');
  return caller;
}

function claimsOf(caller: Caller): Record<string, unknown> {
  return caller.claims as Record<string, unknown>;
}

async function getAuthenticated(req: IncomingMessage, res: ServerResponse, rest: string, url: URL, ctx: StackContext) {
  const caller = await requireCaller(req, ctx);
  const { bucket, name, segments } = splitBucketAndName(rest);
  if (!(await getBucket(ctx, bucket))) throw bucketNotFound();
  const r = await ctx.db.asRole(caller.role, claimsOf(caller), (tx) =>
    tx.query<{ metadata: ObjectMeta | null }>(`select metadata from storage.objects where bucket_id = $1 and name = $2`, [
      bucket,
      name,
    ]),
  );
  if (r.rows.length === 0) throw notFound();
  await serveFile(req, res, filePath(ctx, bucket, segments), name, r.rows[0]!.metadata, false, url);
}

interface Upload {
  data: Buffer;
  contentType: string;
  cacheControl: string;
}

/** Reads the upload as storage-js sends it: multipart with a file part, or the raw bytes. */
async function readUpload(req: IncomingMessage): Promise<Upload> {
  let body: Buffer;
  try {
    body = await readBody(req, MAX_BODY_BYTES);
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

function pgCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Maps a database failure of a write to storage-api's answer. */
function mapDbError(err: unknown): never {
  if (err instanceof StorageError) throw err;
  const code = pgCode(err);
  if (code === '42501') throw new StorageError(403, 'Unauthorized', 'new row violates row-level security policy');
  if (code === '23505') throw new StorageError(409, 'Duplicate', 'The resource already exists');
  if (code === '23503') throw bucketNotFound();
  if (code === 'ENOTDIR' || code === 'EEXIST' || code === 'EISDIR') {
    throw new StorageError(409, 'Duplicate', 'The object path conflicts with an existing object');
  }
  // Any other database refusal (a check constraint, a too-long value) is the request's fault.
  if (code && /^[0-9A-Z]{5}$/.test(code) && /\d/.test(code)) throw new StorageError(400, 'InvalidRequest', (err as Error).message);
  throw err;
}

async function upload(req: IncomingMessage, res: ServerResponse, rest: string, ctx: StackContext, isUpdate: boolean) {
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
  bucketCache.get(ctx.config)?.delete(bucket);
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...corsHeaders() });
  res.end(JSON.stringify({ Key: `${bucket}/${name}`, Id: objectId }));
}

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

async function deleteOne(req: IncomingMessage, res: ServerResponse, rest: string, ctx: StackContext) {
  const caller = await requireCaller(req, ctx);
  const { bucket, name } = splitBucketAndName(rest);
  if (!(await getBucket(ctx, bucket))) throw bucketNotFound();
  const removed = await removeObjects(ctx, caller, bucket, [name]);
  if (removed.length === 0) throw notFound();
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...corsHeaders() });
  res.end(JSON.stringify({ message: 'Successfully deleted' }));
}

/** storage-js `remove([...])`: DELETE /object/BUCKET with {prefixes}. */
async function deleteMany(req: IncomingMessage, res: ServerResponse, bucketPart: string, ctx: StackContext) {
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

const listBody = {
  parse(raw: unknown): { prefix: string; limit: number; offset: number; search: string; column: string; order: string } {
    const o = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    const sortBy = o.sortBy && typeof o.sortBy === 'object' ? (o.sortBy as Record<string, unknown>) : {};
    const num = (v: unknown, dflt: number, max: number) =>
      typeof v === 'number' && Number.isInteger(v) && v >= 0 ? Math.min(v, max) : dflt;
    const column = ['name', 'created_at', 'updated_at', 'last_accessed_at'].includes(String(sortBy.column))
      ? String(sortBy.column)
      : 'name';
    return {
      prefix: typeof o.prefix === 'string' ? o.prefix.replace(/^\/+|\/+$/g, '') : '',
      limit: num(o.limit, 100, 1000),
      offset: num(o.offset, 0, 1_000_000),
      search: typeof o.search === 'string' ? o.search : '',
      column,
      order: String(sortBy.order).toLowerCase() === 'desc' ? 'desc' : 'asc',
    };
  },
};

/** storage-js `list(prefix)`: the files and folders directly under a prefix, as the caller may see them. */
async function listObjects(req: IncomingMessage, res: ServerResponse, bucketPart: string, ctx: StackContext) {
  const caller = await requireCaller(req, ctx);
  const bucket = safeSegments(bucketPart)[0]!;
  if (!BUCKET_RE.test(bucket) || !(await getBucket(ctx, bucket))) throw bucketNotFound();
  let raw: unknown;
  try {
    const text = (await readBody(req, 64 * 1024)).toString('utf8');
    raw = text ? JSON.parse(text) : {};
  } catch {
    throw new StorageError(400, 'InvalidRequest', 'Body must be JSON');
  }
  const q = listBody.parse(raw);
  const base = q.prefix ? `${q.prefix}/` : '';
  const rows = await ctx.db.asRole(caller.role, claimsOf(caller), (tx) =>
    tx.query<{ id: string; name: string; created_at: Date; updated_at: Date; last_accessed_at: Date; metadata: unknown }>(
      `select id::text as id, name, created_at, updated_at, last_accessed_at, metadata from storage.objects
        where bucket_id = $1 and left(name, length($2)) = $2 order by name`,
      [bucket, base],
    ),
  );
  const items = new Map<string, Record<string, unknown>>();
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v ?? null);
  for (const r of rows.rows) {
    const rest = r.name.slice(base.length);
    const slash = rest.indexOf('/');
    const name = slash === -1 ? rest : rest.slice(0, slash);
    if (!name || (q.search && !name.toLowerCase().includes(q.search.toLowerCase()))) continue;
    if (slash !== -1) {
      if (!items.has(name)) {
        items.set(name, { name, id: null, updated_at: null, created_at: null, last_accessed_at: null, metadata: null });
      }
    } else {
      items.set(name, {
        name,
        id: r.id,
        updated_at: iso(r.updated_at),
        created_at: iso(r.created_at),
        last_accessed_at: iso(r.last_accessed_at),
        metadata: r.metadata,
      });
    }
  }
  const sorted = [...items.values()].sort((a, b) => {
    const ka = String(a[q.column] ?? '');
    const kb = String(b[q.column] ?? '');
    const c = ka < kb ? -1 : ka > kb ? 1 : 0;
    return q.order === 'desc' ? -c : c;
  });
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...corsHeaders() });
  res.end(JSON.stringify(sorted.slice(q.offset, q.offset + q.limit)));
}

function bucketJson(r: Record<string, unknown>): Record<string, unknown> {
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v);
  return { ...r, created_at: iso(r.created_at), updated_at: iso(r.updated_at) };
}

async function listBuckets(req: IncomingMessage, res: ServerResponse, id: string | null, ctx: StackContext) {
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

async function* walk(dir: string): AsyncGenerator<string> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(full);
    else if (e.isFile()) yield full;
  }
}

/**
 * Copies the project's storage seed (supabase/storage/** by default) into `${dataDir}/storage` (files already there are kept, so
 * uploads survive restarts) and makes sure every top-level folder has a public bucket and
 * every seed file an object row.
 */
export async function seedStorage(ctx: StackContext): Promise<void> {
  const source = ctx.config.project.storageDir;
  const target = storageRoot(ctx);
  await fs.mkdir(target, { recursive: true });
  let buckets: string[] = [];
  try {
    buckets = (await fs.readdir(source, { withFileTypes: true }))
      .filter((e) => e.isDirectory() && BUCKET_RE.test(e.name))
      .map((e) => e.name);
  } catch {
    return;
  }
  for (const bucket of buckets) {
    const objects: Array<{ name: string; size: number; mimetype: string }> = [];
    for await (const file of walk(path.join(source, bucket))) {
      const rel = path.relative(path.join(source, bucket), file).split(path.sep);
      if (rel.some((s) => s.startsWith('.'))) continue;
      const dest = path.join(target, bucket, ...rel);
      try {
        await fs.access(dest);
      } catch {
        await fs.mkdir(path.dirname(dest), { recursive: true });
        await fs.copyFile(file, dest);
      }
      const stat = await fs.stat(dest);
      objects.push({
        name: rel.join('/'),
        size: stat.size,
        mimetype: extensionType(file) ?? 'application/octet-stream',
      });
    }
    await ctx.db.admin(async (tx) => {
      await tx.query(
        `insert into storage.buckets (id, name, public) values ($1, $1, true) on conflict (id) do nothing`,
        [bucket],
      );
      for (const o of objects) {
        await tx.query(
          `insert into storage.objects (bucket_id, name, metadata) values ($1, $2, $3::jsonb)
           on conflict (bucket_id, name) do nothing`,
          [
            bucket,
            o.name,
            JSON.stringify({
              size: o.size,
              mimetype: o.mimetype,
              cacheControl: `max-age=${DEFAULT_MAX_AGE}`,
              contentLength: o.size,
              httpStatusCode: 200,
            }),
          ],
        );
      }
    });
  }
}
