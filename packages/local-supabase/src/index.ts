/**
 * The embedded, Supabase-compatible local stack: one process serving REST, Auth,
 * Storage, Realtime and the mailbox over PGlite (or a Postgres server). A project starts it with
 * `startStack(options)` or runs the command line with `cli(options)`, passing its configuration
 * (brand, e-mails, demo accounts, paths); run alone (`tsx src/index.ts [--reset]`) it uses the
 * neutral defaults and the current directory as the project.
 *
 * This file wires the stack together; the steps are in start/ (settings, database and templates,
 * banner, signals) and the protocols in their own modules (server.ts routes to them).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiKeys } from './jwt.ts';
import { attachRealtime } from './realtime/server.ts';
import { loadSchema } from './rest/schema.ts';
import { createStackServer, listen } from './server.ts';
import { demoAccountsPresent, printBanner } from './start/banner.ts';
import { buildDatabase, openDatabase } from './start/database.ts';
import type { RunningStack, StartOptions } from './start/options.ts';
import { resetDataDir, resolveSettings, stackConfig, StackConfigError } from './start/settings.ts';
import { stopOnSignals } from './start/signals.ts';
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
export type { RunningStack, StartOptions } from './start/options.ts';
export { assertSafeHost, DEFAULT_MAX_ROWS, resetDataDir, StackConfigError } from './start/settings.ts';
export { templateKey } from './start/template.ts';

/** Starts the whole stack and resolves once it listens. */
export async function startStack(options: StartOptions = {}): Promise<RunningStack> {
  const t0 = performance.now();
  const settings = resolveSettings(options);
  const { rootDir, project, host, port, dataDir } = settings;

  if (options.reset) resetDataDir(dataDir, rootDir);
  fs.mkdirSync(dataDir, { recursive: true });

  const migrate = options.migrate !== false;
  const tDb = performance.now();
  const { db, usePglite, fresh, fromTemplate, templateFile } = await openDatabase({
    dataDir,
    databaseUrl: settings.databaseUrl,
    dbPool: settings.dbPool,
    rootDir,
    project,
    memory: options.memory,
    migrate,
    setupSql: options.setupSql,
    templateDir: options.templateDir,
  });
  const database = performance.now() - tDb;

  const config = stackConfig(settings, options, await apiKeys(settings.jwtSecret));
  const ctx: StackContext = { db, config };

  let migrations = 0;
  let schemaMs = 0;
  let storageMs = 0;
  let realtime: { close(): Promise<void> } | undefined;
  let stackServer: ReturnType<typeof createStackServer> | undefined;
  try {
    const tMig = performance.now();
    if (!fromTemplate) await buildDatabase(db, { project, migrate, setupSql: options.setupSql }, templateFile);
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
    const address = await listen(stackServer.server, port, host);
    config.port = address.port;
    config.url = address.url;
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
  stopOnSignals(stack);
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
