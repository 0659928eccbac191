/**
 * `npm run db:types`: applies every migration to an in-memory database (the local stack's
 * bootstrap first, as `npm start` does, without the seed) and writes the `Database` type of the
 * `public` schema to src/data/database.types.ts. `--check` only reports whether the file is stale.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { applyMigrations } from 'local-supabase/migrate';
import { generateDatabaseTypes } from './db-types/generate.ts';

const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TYPES_FILE = path.join(ROOT_DIR, 'src', 'data', 'database.types.ts');

/** The generated `database.types.ts` for the migrations under `rootDir`. */
export async function databaseTypesFor(rootDir: string = ROOT_DIR): Promise<string> {
  const db = new PGlite();
  try {
    await applyMigrations(
      async (sql, name) => {
        try {
          await db.exec(sql);
        } catch (err) {
          throw new Error(`${name}: ${(err as Error).message}`, { cause: err });
        }
      },
      rootDir,
      { seed: false },
    );
    return await generateDatabaseTypes(db);
  } finally {
    await db.close();
  }
}

async function main(): Promise<void> {
  const source = await databaseTypesFor();
  const current = fs.existsSync(TYPES_FILE) ? fs.readFileSync(TYPES_FILE, 'utf8') : '';
  const relative = path.relative(ROOT_DIR, TYPES_FILE);
  if (process.argv.includes('--check')) {
    if (current !== source) {
      console.error(`${relative} is stale: run npm run db:types`);
      process.exit(1);
    }
    console.log(`${relative} is up to date`);
    return;
  }
  if (current === source) {
    console.log(`${relative} is up to date`);
    return;
  }
  fs.writeFileSync(TYPES_FILE, source);
  console.log(`wrote ${relative}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
