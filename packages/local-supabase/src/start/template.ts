/**
 * Fresh databases start from a cached tarball of "initdb + migrations + seed" when one
 * exists for exactly these SQL files and this PGlite version: initdb in WebAssembly is
 * the slow part of a first start, and tests start many fresh databases. The cache is
 * `node_modules/.cache/local-supabase/` by default and keeps the most recently used few.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Db } from '../db.ts';
import { migrationFiles, type ProjectFiles } from '../migrate.ts';

/** The cache key of a template: the PGlite version, every SQL file applied and the setup SQL. */
export function templateKey(project: ProjectFiles, migrate: boolean, setupSql: string | undefined): string {
  const hash = createHash('sha256');
  hash.update(pgliteVersion());
  // What a template holds besides the SQL files' work: 'analyzed' since templates carry the
  // planner's statistics (start/database.ts); older templates lack them and are not reused.
  hash.update('\0analyzed\0');
  if (migrate) {
    for (const file of migrationFiles(project, { seed: true })) {
      hash.update(`\0${file.version}\0`);
      hash.update(fs.readFileSync(file.path));
    }
  }
  hash.update(`\0setup\0${setupSql ?? ''}`);
  return hash.digest('hex').slice(0, 32);
}

function pgliteVersion(): string {
  // The package does not export its package.json: walk up from its entry point.
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (let i = 0; i < 5; i++) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg)) {
      const json = JSON.parse(fs.readFileSync(pkg, 'utf8')) as { name?: string; version?: string };
      if (json.name === '@electric-sql/pglite') return String(json.version);
    }
    dir = path.dirname(dir);
  }
  return 'unknown';
}

/** How many templates (one per set of SQL files) the cache keeps. */
const TEMPLATES_KEPT = 4;

/** The template in `file`, when there is one. */
export function readTemplate(file: string): Blob | undefined {
  try {
    const blob = new Blob([fs.readFileSync(file)]);
    // Marks it as recently used, so pruning drops stale templates first.
    const now = new Date();
    fs.utimesSync(file, now, now);
    return blob;
  } catch {
    return undefined;
  }
}

/** Deletes all but the most recently used templates (each is ~40 MB). */
function pruneTemplates(dir: string): void {
  try {
    const files = fs
      .readdirSync(dir)
      .filter((f) => /^pglite-[0-9a-f]+\.tar$/.test(f))
      .map((f) => ({ f, t: fs.statSync(path.join(dir, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { f } of files.slice(TEMPLATES_KEPT)) fs.rmSync(path.join(dir, f), { force: true });
  } catch {
    // Pruning is housekeeping; a failure must not stop the stack.
  }
}

/** Saves the database as the template in `file`, then prunes the cache. */
export async function writeTemplate(file: string, db: Db): Promise<void> {
  if (!db.snapshot) return;
  try {
    const blob = await db.snapshot();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // Written aside and renamed, so parallel starts never read half a template.
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    fs.writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
    fs.renameSync(tmp, file);
    pruneTemplates(path.dirname(file));
  } catch (err) {
    console.error('[local-supabase] no se pudo guardar la plantilla de la base de datos:', (err as Error).message);
  }
}
