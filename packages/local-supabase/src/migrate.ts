/**
 * Applies the database scripts in Supabase's order: the stack's own bootstrap in sql/ (what a hosted
 * project already has; never deployed), the project's migrations (supabase/migrations/*.sql), its
 * seed (supabase/seed.sql), then its local-only seeds (supabase/local/seed/*.sql: data such as demo
 * accounts, which reference the seed and must never reach a hosted project). The project's paths
 * are configuration (`ProjectLayout`); those are the defaults under a project root. Each applied
 * file is recorded in `supabase_migrations.schema_migrations` (the table the Supabase CLI uses), so
 * a restart applies only new files.
 *
 * The executor only runs SQL and returns nothing, so the "already applied?" check happens inside
 * the database: each file is wrapped in a DO block that runs it through EXECUTE only when its
 * version is not recorded yet, and records it in the same statement.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectLayout, type ProjectLayout } from './config.ts';

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
  /** True for the stack's bootstrap and the local-only seeds: never deployed. */
  localOnly?: boolean;
}

/** Runs a script of several statements as the database owner. */
export type SqlExecutor = (sql: string, name: string) => Promise<void>;

export interface ApplyOptions {
  /** Apply the seed too, and with `local` the local-only seeds (default true). */
  seed?: boolean;
  /**
   * Apply the stack's bootstrap (sql/) and the local-only seeds (default true; false for a database
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

/** A project root (the Supabase CLI's layout under it) or the layout itself. */
export type ProjectFiles = string | ProjectLayout;

function layoutOf(project: ProjectFiles): ProjectLayout {
  return typeof project === 'string' ? projectLayout(project) : project;
}

/**
 * The ordered list of SQL files: the stack's bootstrap (sql/), the project's migrations, its seed,
 * then its local-only seeds.
 */
export function migrationFiles(project: ProjectFiles, options: ApplyOptions = {}): SqlFile[] {
  const layout = layoutOf(project);
  const files: SqlFile[] = [];
  if (options.local !== false) {
    for (const name of sqlFilesIn(BOOTSTRAP_DIR)) {
      files.push({ version: `local/${name}`, name, path: path.join(BOOTSTRAP_DIR, name), kind: 'local', localOnly: true });
    }
  }
  for (const name of sqlFilesIn(layout.migrationsDir)) {
    // Supabase CLI versions are the leading digits of the file name.
    const version = /^(\d+)_/.exec(name)?.[1] ?? name;
    files.push({ version, name, path: path.join(layout.migrationsDir, name), kind: 'migration' });
  }
  if (options.seed !== false && fs.existsSync(layout.seedFile)) {
    files.push({ version: 'seed', name: path.basename(layout.seedFile), path: layout.seedFile, kind: 'seed' });
  }
  if (options.seed !== false && options.local !== false) {
    // After the seed: the demo accounts' orders point at catalogue products.
    for (const name of sqlFilesIn(layout.localSeedDir)) {
      files.push({ version: `local/seed/${name}`, name, path: path.join(layout.localSeedDir, name), kind: 'seed', localOnly: true });
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
export async function applyMigrations(exec: SqlExecutor, project: ProjectFiles, options: ApplyOptions = {}): Promise<SqlFile[]> {
  const files = migrationFiles(project, { seed: options.seed ?? true, local: options.local ?? true });
  await exec(BOOTSTRAP_SQL, 'supabase_migrations');
  for (const file of files) {
    const sql = fs.readFileSync(file.path, 'utf8');
    await exec(guardedScript(file, sql), file.localOnly ? file.version : file.name);
  }
  return files;
}
