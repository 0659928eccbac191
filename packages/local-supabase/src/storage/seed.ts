/** The project's storage seed: public buckets and their files, copied into the data folder. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { StackContext } from '../types.ts';
import { BUCKET_RE, storageRoot } from './keys.ts';
import { DEFAULT_MAX_AGE, extensionType } from './metadata.ts';

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
    buckets = (await fs.readdir(source, { withFileTypes: true })).filter((e) => e.isDirectory() && BUCKET_RE.test(e.name)).map((e) => e.name);
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
      await tx.query(`insert into storage.buckets (id, name, public) values ($1, $1, true) on conflict (id) do nothing`, [bucket]);
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
