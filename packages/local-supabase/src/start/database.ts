/**
 * The stack's database: PGlite in the data folder (or in memory), started from a cached template
 * when one matches (template.ts), or a PostgreSQL server given by URL; then, unless it came from
 * a template, the migrations, the seed and the setup SQL, and the planner's statistics of them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openPglite, type Db } from '../db.ts';
import { openPostgres } from '../postgres.ts';
import { applyMigrations, type ProjectFiles } from '../migrate.ts';
import { readTemplate, templateKey, writeTemplate } from './template.ts';

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl: string | undefined;
  /** Connections to the Postgres server (default 10). */
  dbPool?: number;
  rootDir: string;
  project: ProjectFiles;
  /** Keep a PGlite database in memory. */
  memory?: boolean;
  /** Apply the migrations and seed. */
  migrate: boolean;
  setupSql?: string;
  /** Where templates are cached; null disables them; undefined is node_modules/.cache/local-supabase. */
  templateDir?: string | null;
}

export interface OpenDatabase {
  db: Db;
  usePglite: boolean;
  /** A PGlite database created by this start (in memory, or no data folder yet). */
  fresh: boolean;
  /** Started from a cached template: already migrated and seeded. */
  fromTemplate: boolean;
  /** The template this fresh database is cached as, once built. */
  templateFile: string | undefined;
}

/** Opens the database; a damaged template is dropped and the database is created from scratch. */
export async function openDatabase(options: DatabaseOptions): Promise<OpenDatabase> {
  const { dataDir, databaseUrl, rootDir, project, migrate } = options;
  const dbDir = path.join(dataDir, 'db');
  const usePglite = !databaseUrl;
  const fresh = usePglite && (options.memory || !fs.existsSync(path.join(dbDir, 'PG_VERSION')));
  const templateDir = options.templateDir === undefined ? path.join(rootDir, 'node_modules', '.cache', 'local-supabase') : options.templateDir;
  const templateFile = usePglite && fresh && templateDir ? path.join(templateDir, `pglite-${templateKey(project, migrate, options.setupSql)}.tar`) : undefined;
  const template = templateFile ? readTemplate(templateFile) : undefined;
  let db: Db;
  let fromTemplate = false;
  if (!usePglite) {
    db = await openPostgres(databaseUrl, { max: options.dbPool });
  } else {
    const pgDir = options.memory ? undefined : dbDir;
    try {
      db = await openPglite({ dataDir: pgDir, template });
      fromTemplate = Boolean(template);
    } catch (err) {
      if (!template) throw err;
      // A damaged template is dropped and the database is built from scratch.
      console.error('[local-supabase] plantilla dañada, se crea la base de datos desde cero:', (err as Error).message);
      fs.rmSync(templateFile!, { force: true });
      if (pgDir) fs.rmSync(pgDir, { recursive: true, force: true });
      db = await openPglite({ dataDir: pgDir });
    }
  }
  return { db, usePglite, fresh, fromTemplate, templateFile };
}

async function runMigrations(db: Db, project: ProjectFiles, seed: boolean): Promise<void> {
  await applyMigrations(
    async (sql, name) => {
      try {
        await db.exec(sql);
      } catch (err) {
        throw new Error(`La migración ${name} falló: ${(err as Error).message}`, { cause: err });
      }
    },
    project,
    { seed },
  );
}

/** Builds a database not started from a template: migrations and seed, the setup SQL, then the template. */
export async function buildDatabase(
  db: Db,
  options: Pick<DatabaseOptions, 'project' | 'migrate' | 'setupSql'>,
  templateFile: string | undefined,
): Promise<void> {
  if (options.migrate) await runMigrations(db, options.project, true);
  if (options.setupSql) await db.exec(options.setupSql);
  // The planner's statistics of the seeded rows, which a hosted project's autovacuum gathers
  // soon after a bulk load and PGlite never does. Without them a filter with an ORDER BY and a
  // LIMIT (a page of card_offers for 100 products, by id) walks the whole primary key index:
  // 0.4 s instead of 6 ms on 240,000 offers, and the live stock poll ran out of time at 100,000
  // products. The template carries them too.
  await db.exec('analyze');
  if (templateFile) await writeTemplate(templateFile, db);
}
