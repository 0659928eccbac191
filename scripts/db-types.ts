/**
 * `npm run db:types`: applies every migration to an in-memory database (the local stack's
 * bootstrap first, as `npm start` does, without the seed) and writes, from its catalogue, the
 * `Database` type of the `public` schema to src/data/database.types.ts and the resulting schema
 * (every table, view, policy and function with its current body) to supabase/schema.sql.
 * `--check` only reports whether either file is stale.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { applyMigrations, migrationFiles } from 'local-supabase/migrate';
import { generateDatabaseTypes } from './db-types/generate.ts';
import { catalogBaseline, generateSchemaSql, type CatalogBaseline } from './db-types/schema-sql.ts';

const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TYPES_FILE = path.join(ROOT_DIR, 'src', 'data', 'database.types.ts');
export const SCHEMA_FILE = path.join(ROOT_DIR, 'supabase', 'schema.sql');

/**
 * Runs `read` on a fresh in-memory database with every migration under `rootDir` applied, with
 * the catalogue as it was just before the first migration (what the local stack's bootstrap
 * created, standing for what a hosted project already has).
 */
async function withMigratedDatabase<T>(rootDir: string, read: (db: PGlite, baseline: CatalogBaseline) => Promise<T>): Promise<T> {
  const db = new PGlite();
  try {
    const firstMigration = migrationFiles(rootDir, { seed: false }).find((file) => file.kind === 'migration')?.name;
    let baseline: CatalogBaseline | undefined;
    await applyMigrations(
      async (sql, name) => {
        if (name === firstMigration && !baseline) baseline = await catalogBaseline(db);
        try {
          await db.exec(sql);
        } catch (err) {
          throw new Error(`${name}: ${(err as Error).message}`, { cause: err });
        }
      },
      rootDir,
      { seed: false },
    );
    return await read(db, baseline ?? (await catalogBaseline(db)));
  } finally {
    await db.close();
  }
}

/** The generated `database.types.ts` for the migrations under `rootDir`. */
export async function databaseTypesFor(rootDir: string = ROOT_DIR): Promise<string> {
  return withMigratedDatabase(rootDir, (db) => generateDatabaseTypes(db));
}

/** The generated `schema.sql` for the migrations under `rootDir`. */
export async function schemaSqlFor(rootDir: string = ROOT_DIR): Promise<string> {
  return withMigratedDatabase(rootDir, (db, baseline) => generateSchemaSql(db, baseline));
}

async function main(): Promise<void> {
  const generated = await withMigratedDatabase(ROOT_DIR, async (db, baseline) => [
    { file: TYPES_FILE, source: await generateDatabaseTypes(db) },
    { file: SCHEMA_FILE, source: await generateSchemaSql(db, baseline) },
  ]);
  const check = process.argv.includes('--check');
  let stale = false;
  for (const { file, source } of generated) {
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    const relative = path.relative(ROOT_DIR, file);
    if (current === source) {
      console.log(`${relative} is up to date`);
    } else if (check) {
      console.error(`${relative} is stale: run npm run db:types`);
      stale = true;
    } else {
      fs.writeFileSync(file, source);
      console.log(`wrote ${relative}`);
    }
  }
  if (stale) process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
