/** Listing objects: a bucket's files and folders under a prefix, as the caller may see them. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { corsHeaders, readBody } from '../http.ts';
import type { StackContext } from '../types.ts';
import { getBucket } from './buckets.ts';
import { claimsOf, requireCaller } from './caller.ts';
import { bucketNotFound, StorageError } from './errors.ts';
import { BUCKET_RE, safeSegments } from './keys.ts';

const listBody = {
  parse(raw: unknown): { prefix: string; limit: number; offset: number; search: string; column: string; order: string } {
    const o = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    const sortBy = o.sortBy && typeof o.sortBy === 'object' ? (o.sortBy as Record<string, unknown>) : {};
    const num = (v: unknown, dflt: number, max: number) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? Math.min(v, max) : dflt);
    const column = ['name', 'created_at', 'updated_at', 'last_accessed_at'].includes(String(sortBy.column)) ? String(sortBy.column) : 'name';
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
export async function listObjects(req: IncomingMessage, res: ServerResponse, bucketPart: string, ctx: StackContext) {
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
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : (v ?? null));
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
