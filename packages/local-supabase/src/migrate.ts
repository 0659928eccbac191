/**
 * Applies the database scripts in Supabase's order: supabase/local/*.sql (local bootstrap, never
 * deployed), supabase/migrations/*.sql, supabase/seed.sql (the catalogue), then
 * supabase/local/seed/*.sql (local-only seed data such as the demo accounts, which reference the
 * catalogue and must never reach a hosted project). Each applied file is recorded in
 * `supabase_migrations.schema_migrations` (the table the Supabase CLI uses), so a restart applies
 * only new files.
 *
 * The executor only runs SQL and returns nothing, so the "already applied?" check happens inside
 * the database: each file is wrapped in a DO block that runs it through EXECUTE only when its
 * version is not recorded yet, and records it in the same statement.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The stack's own SQL bootstrap (roles, auth, storage, realtime): the package's sql/ folder. */
export const BOOTSTRAP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'sql');

/** One SQL file to apply. */
export interface SqlFile {
  /** Version recorded in schema_migrations: the timestamp for migrations, a prefixed path otherwise. */
  version: string;
  /** File name, e.g. '20261122000100_catalog.sql'. */
  name: string;
  path: string;
  kind: 'local' | 'migration' | 'seed';
  /** True for files under supabase/local/ (bootstrap and local-only seeds): never deployed. */
  localOnly?: boolean;
}

/** Runs a script of several statements as the database owner. */
export type SqlExecutor = (sql: string, name: string) => Promise<void>;

export interface ApplyOptions {
  /** Apply supabase/seed.sql too, and with `local` the local-only seeds (default true). */
  seed?: boolean;
  /**
   * Apply supabase/local/*.sql and supabase/local/seed/*.sql (default true; false for a database
   * that already is Supabase).
   */
  local?: boolean;
}

const BOOTSTRAP_SQL = `
create schema if not exists supabase_migrations;
create table if not exists supabase_migrations.schema_migrations (
  version text primary key,
  name text,
  applied_at timestamptz not null default now()
);
`;

function sqlFilesIn(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The ordered list of SQL files under `rootDir`/supabase: local bootstrap, migrations, seed, then
 * the local-only seeds.
 */
export function migrationFiles(rootDir: string, options: ApplyOptions = {}): SqlFile[] {
  const base = path.join(rootDir, 'supabase');
  const files: SqlFile[] = [];
  if (options.local !== false) {
    for (const name of sqlFilesIn(BOOTSTRAP_DIR)) {
      files.push({ version: `local/${name}`, name, path: path.join(BOOTSTRAP_DIR, name), kind: 'local', localOnly: true });
    }
  }
  for (const name of sqlFilesIn(path.join(base, 'migrations'))) {
    // Supabase CLI versions are the leading digits of the file name.
    const version = /^(\d+)_/.exec(name)?.[1] ?? name;
    files.push({ version, name, path: path.join(base, 'migrations', name), kind: 'migration' });
  }
  const seedPath = path.join(base, 'seed.sql');
  if (options.seed !== false && fs.existsSync(seedPath)) {
    files.push({ version: 'seed', name: 'seed.sql', path: seedPath, kind: 'seed' });
  }
  if (options.seed !== false && options.local !== false) {
    // After seed.sql: the demo accounts' orders point at catalogue products.
    const localSeedDir = path.join(base, 'local', 'seed');
    for (const name of sqlFilesIn(localSeedDir)) {
      files.push({ version: `local/seed/${name}`, name, path: path.join(localSeedDir, name), kind: 'seed', localOnly: true });
    }
  }
  return files;
}

function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** A dollar-quote tag that does not occur in `body`. */
function dollarTag(body: string, base: string): string {
  let tag = `$${base}$`;
  for (let i = 0; body.includes(tag); i += 1) tag = `$${base}${i}$`;
  return tag;
}

/** The statement that applies `file` once: run its SQL unless its version is already recorded. */
export function guardedScript(file: SqlFile, sql: string): string {
  const body = dollarTag(sql, 'migration_body');
  const outer = dollarTag(sql + body, 'migration_guard');
  return `do ${outer}
begin
  if not exists (select 1 from supabase_migrations.schema_migrations where version = ${literal(file.version)}) then
    execute ${body}${sql}${body};
    insert into supabase_migrations.schema_migrations (version, name) values (${literal(file.version)}, ${literal(file.name)});
  end if;
end
${outer};`;
}

/**
 * Applies every file not applied yet, in order, through `exec`. Returns the files it considered
 * (the database decides which of them actually ran).
 */
export async function applyMigrations(
  exec: SqlExecutor,
  rootDir: string,
  options: ApplyOptions = {},
): Promise<SqlFile[]> {
  const files = migrationFiles(rootDir, { seed: options.seed ?? true, local: options.local ?? true });
  await exec(BOOTSTRAP_SQL, 'supabase_migrations');
  for (const file of files) {
    const sql = fs.readFileSync(file.path, 'utf8');
    await exec(guardedScript(file, sql), file.localOnly ? file.version : file.name);
  }
  return files;
}
