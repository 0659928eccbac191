/**
 * The embedded, Supabase-compatible local stack: one process serving REST, Auth,
 * Storage, Realtime and the mailbox over PGlite (or a Postgres server). A project starts it with
 * `startStack(options)` or runs the command line with `cli(options)`, passing its configuration
 * (brand, e-mails, demo accounts, paths); run alone (`tsx src/index.ts [--reset]`) it uses the
 * neutral defaults and the current directory as the project.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defaultEmails } from './auth/emails.ts';
import {
  DEFAULT_BRAND,
  defaultDataDir,
  LOCAL_JWT_SECRET,
  projectLayout,
  type DemoAccount,
  type EmailTemplates,
  type ProjectLayout,
  type StackConfig,
} from './config.ts';
import { defaultCorsOrigins, originOf } from './cors.ts';
import { openPglite, openPostgres, type Db } from './db.ts';
import { apiKeys } from './jwt.ts';
import { applyMigrations, migrationFiles, type ProjectFiles } from './migrate.ts';
import { attachRealtime } from './realtime/server.ts';
import { loadSchema } from './rest/schema.ts';
import { createStackServer } from './server.ts';
import { seedStorage } from './storage/seed.ts';
import type { StackContext } from './types.ts';

export { emailLayout, defaultEmails, type EmailLayoutParts } from './auth/emails.ts';
export { escapeHtml } from './mailbox.ts';
export {
  DEFAULT_BRAND,
  LOCAL_JWT_SECRET,
  projectLayout,
  type DemoAccount,
  type Email,
  type EmailTemplates,
  type ProjectLayout,
  type StackConfig,
} from './config.ts';
export { apiKeys, signJwt } from './jwt.ts';
export { applyMigrations, migrationFiles, type ProjectFiles } from './migrate.ts';

export interface StartOptions {
  /** 0 picks a free port. Default: LOCAL_SUPABASE_PORT or 54321. */
  port?: number;
  /** Default: LOCAL_SUPABASE_HOST or 127.0.0.1. */
  host?: string;
  /** Folder for db/, storage/ and the mailbox. Default: LOCAL_SUPABASE_DATA_DIR or .data/. */
  dataDir?: string;
  /** Keep the database in memory (tests); storage still lives in dataDir. */
  memory?: boolean;
  /** Use this Postgres server instead of PGlite. Default: DATABASE_URL. */
  databaseUrl?: string;
  /** Wipe dataDir before starting. */
  reset?: boolean;
  /** Apply supabase/ migrations and seed through migrate.ts (default true). */
  migrate?: boolean;
  /** Extra SQL run as the owner after migrations (tests use it for their own tables). */
  setupSql?: string;
  jwtSecret?: string;
  autoconfirm?: boolean;
  siteUrl?: string;
  /** Browser origins allowed by CORS. Default: the site URL, the `npm start` origin, LOCAL_SUPABASE_CORS_ORIGINS. */
  corsOrigins?: string[];
  /** Most rows one REST read returns. Default: LOCAL_SUPABASE_MAX_ROWS or 1000. */
  maxRows?: number;
  /** The project (where supabase/ lives). Default: the current directory. */
  rootDir?: string;
  /** Where the project's SQL files and storage seed are; each defaults under `rootDir` (see ProjectLayout). */
  project?: Partial<ProjectLayout>;
  /** The name e-mails, the mailbox page and the Google stand-in show. Default: 'Local Supabase'. */
  brand?: string;
  /** The texts of the auth e-mails; each one left out keeps the neutral English default. */
  emails?: Partial<EmailTemplates>;
  /** Accounts of the project's local-only seed the banner lists when the database holds them. */
  demoAccounts?: DemoAccount[];
  /** Where fresh-database templates are cached; null disables them. Default node_modules/.cache/local-supabase. */
  templateDir?: string | null;
  /** HTTP timeouts (defaults 30 s for a request, 10 s for its headers). */
  requestTimeoutMs?: number;
  headersTimeoutMs?: number;
  /** Print the banner (URL, keys, demo accounts). */
  verbose?: boolean;
}

export interface RunningStack {
  url: string;
  config: StackConfig;
  ctx: StackContext;
  /** Timings in milliseconds, for the start-up benchmark. */
  timings: { total: number; database: number; migrations: number; schema: number; storage: number; fresh: boolean; fromTemplate: boolean };
  stop(): Promise<void>;
}

/** PostgREST's db-max-rows as Supabase sets it: the most rows one read returns. */
export const DEFAULT_MAX_ROWS = 1000;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Thrown for configuration the stack refuses to run with; the CLI prints its message. */
export class StackConfigError extends Error {}

/** Checks that a non-loopback host is only used with a private JWT secret. */
export function assertSafeHost(host: string, jwtSecret: string): void {
  if (LOOPBACK.has(host)) return;
  if (jwtSecret === LOCAL_JWT_SECRET) {
    throw new StackConfigError(
      `Se rechaza escuchar en ${host}: el secreto JWT local es público. ` +
        'Define SUPABASE_JWT_SECRET con un secreto propio o usa 127.0.0.1.',
    );
  }
}

/** Deletes the stack's data folder (the --reset flag), refusing folders that cannot be ours. */
export function resetDataDir(dataDir: string, rootDir = process.cwd()): void {
  const target = path.resolve(dataDir);
  const protectedDirs = [path.parse(target).root, os.homedir(), path.resolve(rootDir)];
  // A mistyped LOCAL_SUPABASE_DATA_DIR must never wipe the project, the home folder or above.
  if (protectedDirs.some((p) => p === target || p.startsWith(target + path.sep))) {
    throw new StackConfigError(`Se rechaza borrar ${target}: no es una carpeta de datos del stack local.`);
  }
  fs.rmSync(target, { recursive: true, force: true });
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

/**
 * Fresh databases start from a cached tarball of "initdb + migrations + seed" when one
 * exists for exactly these SQL files and this PGlite version: initdb in WebAssembly is
 * the slow part of a first start, and tests start many fresh databases.
 */
export function templateKey(project: ProjectFiles, migrate: boolean, setupSql: string | undefined): string {
  const hash = createHash('sha256');
  hash.update(pgliteVersion());
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

function readTemplate(file: string): Blob | undefined {
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

async function writeTemplate(file: string, db: Db): Promise<void> {
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

/** Starts the whole stack and resolves once it listens. */
export async function startStack(options: StartOptions = {}): Promise<RunningStack> {
  const t0 = performance.now();
  const env = process.env;
  const rootDir = path.resolve(options.rootDir ?? process.cwd());
  const project = projectLayout(rootDir, options.project);
  const host = options.host ?? env.LOCAL_SUPABASE_HOST ?? '127.0.0.1';
  const port = options.port ?? (env.LOCAL_SUPABASE_PORT ? Number(env.LOCAL_SUPABASE_PORT) : 54321);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new StackConfigError(`Puerto no válido: ${port}`);
  const jwtSecret = options.jwtSecret || env.SUPABASE_JWT_SECRET || LOCAL_JWT_SECRET;
  if (jwtSecret.length < 32) throw new StackConfigError('SUPABASE_JWT_SECRET debe tener al menos 32 caracteres.');
  assertSafeHost(host, jwtSecret);
  const dataDir = path.resolve(options.dataDir ?? env.LOCAL_SUPABASE_DATA_DIR ?? defaultDataDir(rootDir));
  const maxRows = options.maxRows ?? (env.LOCAL_SUPABASE_MAX_ROWS ? Number(env.LOCAL_SUPABASE_MAX_ROWS) : DEFAULT_MAX_ROWS);
  if (!Number.isSafeInteger(maxRows) || maxRows < 1) {
    throw new StackConfigError(`LOCAL_SUPABASE_MAX_ROWS debe ser un entero positivo (recibido: ${String(maxRows)}).`);
  }
  const databaseUrl = options.databaseUrl ?? (env.DATABASE_URL || undefined);

  if (options.reset) resetDataDir(dataDir, rootDir);
  fs.mkdirSync(dataDir, { recursive: true });

  const dbDir = path.join(dataDir, 'db');
  const usePglite = !databaseUrl;
  const fresh = usePglite && (options.memory || !fs.existsSync(path.join(dbDir, 'PG_VERSION')));
  const tDb = performance.now();
  const migrate = options.migrate !== false;
  const templateDir = options.templateDir === undefined ? path.join(rootDir, 'node_modules', '.cache', 'local-supabase') : options.templateDir;
  const templateFile = usePglite && fresh && templateDir ? path.join(templateDir, `pglite-${templateKey(project, migrate, options.setupSql)}.tar`) : undefined;
  const template = templateFile ? readTemplate(templateFile) : undefined;
  let db: Db;
  let fromTemplate = false;
  if (!usePglite) {
    db = await openPostgres(databaseUrl);
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
  const database = performance.now() - tDb;

  const keys = await apiKeys(jwtSecret);
  const config: StackConfig = {
    host,
    port,
    url: '',
    jwtSecret,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    dataDir,
    databaseUrl,
    autoconfirm: options.autoconfirm ?? env.LOCAL_SUPABASE_AUTOCONFIRM === 'true',
    siteUrl: options.siteUrl || env.LOCAL_SUPABASE_SITE_URL || env.SITE_URL || 'http://localhost:4321',
    rootDir,
    project,
    brand: options.brand ?? DEFAULT_BRAND,
    emails: { ...defaultEmails, ...options.emails },
    demoAccounts: options.demoAccounts ?? [],
    corsOrigins: [],
    maxRows,
  };
  config.corsOrigins = options.corsOrigins
    ? options.corsOrigins.map((o) => originOf(o)).filter((o): o is string => o !== undefined)
    : defaultCorsOrigins(config.siteUrl);
  const ctx: StackContext = { db, config };

  let migrations = 0;
  let schemaMs = 0;
  let storageMs = 0;
  let realtime: { close(): Promise<void> } | undefined;
  let stackServer: ReturnType<typeof createStackServer> | undefined;
  try {
    const tMig = performance.now();
    if (!fromTemplate) {
      if (migrate) await runMigrations(db, project, true);
      if (options.setupSql) await db.exec(options.setupSql);
      if (templateFile) await writeTemplate(templateFile, db);
    }
    migrations = performance.now() - tMig;
    const tSchema = performance.now();
    await loadSchema(db, true);
    schemaMs = performance.now() - tSchema;
    const tStorage = performance.now();
    // Storage objects need the storage schema that the migrations create; they are seeded on
    // the first start (or when the storage folder went missing), not on every restart.
    const storageMissing = !fs.existsSync(path.join(dataDir, 'storage'));
    if (migrate && (fresh || !usePglite || storageMissing)) await seedStorage(ctx);
    storageMs = performance.now() - tStorage;

    stackServer = createStackServer(ctx, { requestTimeoutMs: options.requestTimeoutMs, headersTimeoutMs: options.headersTimeoutMs });
    realtime = await attachRealtime(stackServer.server, ctx);
    const server = stackServer.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address();
    const actualPort = typeof address === 'object' && address ? address.port : port;
    config.port = actualPort;
    const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
    config.url = `http://${urlHost}:${actualPort}`;
  } catch (err) {
    await realtime?.close().catch(() => undefined);
    await stackServer?.close(0).catch(() => undefined);
    await db.close().catch(() => undefined);
    throw err;
  }

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await realtime?.close().catch((e: unknown) => console.error('[local-supabase] realtime', e));
      await stackServer!.close();
      await db.close();
    })();
    return stopping;
  };

  const total = performance.now() - t0;
  if (options.verbose) printBanner(config, total, fresh, await demoAccountsPresent(db, config.demoAccounts));
  return { url: config.url, config, ctx, timings: { total, database, migrations, schema: schemaMs, storage: storageMs, fresh, fromTemplate }, stop };
}

/** The demo accounts this database actually holds (the local-only seed may have been skipped). */
async function demoAccountsPresent(db: Db, accounts: DemoAccount[]): Promise<DemoAccount[]> {
  if (accounts.length === 0) return [];
  try {
    const r = await db.admin((tx) =>
      tx.query<{ email: string }>('select email from auth.users where email = any($1::text[])', [accounts.map((a) => a.email)]),
    );
    const found = new Set(r.rows.map((row) => row.email));
    return accounts.filter((a) => found.has(a.email));
  } catch {
    return [];
  }
}

function printBanner(config: StackConfig, ms: number, fresh: boolean, demo: DemoAccount[]): void {
  const lines = [
    '',
    `Supabase local listo en ${config.url}  (${Math.round(ms)} ms${fresh ? ', base de datos nueva' : ''})`,
    '',
    `  API URL           ${config.url}`,
    `  REST              ${config.url}/rest/v1`,
    `  Auth              ${config.url}/auth/v1`,
    `  Storage           ${config.url}/storage/v1`,
    `  Realtime          ${config.url.replace(/^http/, 'ws')}/realtime/v1/websocket`,
    `  Buzón de correo   ${config.url}/mailbox`,
    `  Datos             ${config.databaseUrl ? 'Postgres (DATABASE_URL)' : config.dataDir}`,
    '',
    `  anon key          ${config.anonKey}`,
    `  service_role key  ${config.serviceRoleKey}`,
    `  JWT secret        ${config.jwtSecret === LOCAL_JWT_SECRET ? config.jwtSecret : '(SUPABASE_JWT_SECRET)'}`,
    '',
    ...(demo.length > 0
      ? [
          `  Cuentas de demostración (solo en este equipo, ${path.relative(config.rootDir, config.project.localSeedDir) || '.'}/):`,
          ...demo.map((a) => `    ${a.email.padEnd(18)} ${a.password.padEnd(12)} (${a.role})`),
        ]
      : ['  Sin cuentas de demostración en esta base de datos.']),
    '',
  ];
  console.log(lines.join('\n'));
}

/**
 * The command line: starts the stack with `defaults` (the project's configuration) plus the
 * environment, prints the banner, and stops on SIGINT/SIGTERM. `--reset` wipes the data folder.
 */
export async function runCli(defaults: StartOptions = {}): Promise<void> {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== '--reset');
  if (unknown.length > 0) {
    console.error(`Argumento desconocido: ${unknown.join(' ')}. Uso: npm run backend [-- --reset]`);
    process.exit(2);
  }
  let stack: RunningStack;
  try {
    stack = await startStack({ ...defaults, reset: args.includes('--reset'), verbose: true });
  } catch (err) {
    if (err instanceof StackConfigError || (err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(`[local-supabase] ${(err as Error).message}`);
      process.exit(1);
    }
    throw err;
  }
  let signals = 0;
  const shutdown = (signal: string) => {
    signals++;
    if (signals > 1) {
      console.error('[local-supabase] salida forzada');
      process.exit(1);
    }
    console.log(`[local-supabase] ${signal}: cerrando…`);
    stack.stop().then(
      () => {
        console.log('[local-supabase] cerrado');
        process.exit(0);
      },
      (err: unknown) => {
        console.error('[local-supabase] error al cerrar', err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

/** Runs the command line, printing a failure to start and exiting with 1. */
export function cli(defaults: StartOptions = {}): void {
  runCli(defaults).catch((err: unknown) => {
    console.error('[local-supabase] no se pudo iniciar:', err);
    process.exit(1);
  });
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) cli();

