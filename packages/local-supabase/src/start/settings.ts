/**
 * What `startStack` runs with: its options completed by the environment and checked, and the
 * StackConfig built from them. Configuration the stack refuses throws StackConfigError.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultEmails } from '../auth/emails.ts';
import { DEFAULT_BRAND, defaultDataDir, LOCAL_JWT_SECRET, projectLayout, type ProjectLayout, type StackConfig } from '../config.ts';
import { defaultCorsOrigins, originOf } from '../cors.ts';
import type { StartOptions } from './options.ts';

/** PostgREST's db-max-rows as Supabase sets it: the most rows one read returns. */
export const DEFAULT_MAX_ROWS = 1000;

/** Connections to a Postgres server, PostgREST's default db-pool. */
const DEFAULT_DB_POOL = 10;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Thrown for configuration the stack refuses to run with; the CLI prints its message. */
export class StackConfigError extends Error {}

/** Checks that a non-loopback host is only used with a private JWT secret. */
export function assertSafeHost(host: string, jwtSecret: string): void {
  if (LOOPBACK.has(host)) return;
  if (jwtSecret === LOCAL_JWT_SECRET) {
    throw new StackConfigError(
      `Se rechaza escuchar en ${host}: el secreto JWT local es público. ` + 'Define SUPABASE_JWT_SECRET con un secreto propio o usa 127.0.0.1.',
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

/** The start options the environment completes, checked. */
export interface Settings {
  rootDir: string;
  project: ProjectLayout;
  host: string;
  port: number;
  jwtSecret: string;
  dataDir: string;
  maxRows: number;
  databaseUrl: string | undefined;
  dbPool: number;
}

/** Completes `options` with the environment and checks them; throws StackConfigError for what the stack refuses. */
export function resolveSettings(options: StartOptions, env: NodeJS.ProcessEnv = process.env): Settings {
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
  const dbPool = options.dbPool ?? (env.LOCAL_SUPABASE_DB_POOL ? Number(env.LOCAL_SUPABASE_DB_POOL) : DEFAULT_DB_POOL);
  if (!Number.isSafeInteger(dbPool) || dbPool < 1 || dbPool > 100) {
    throw new StackConfigError(`LOCAL_SUPABASE_DB_POOL debe ser un entero de 1 a 100 (recibido: ${String(dbPool)}).`);
  }
  return { rootDir, project, host, port, jwtSecret, dataDir, maxRows, databaseUrl, dbPool };
}

/** The stack's configuration; its `url` (and, for port 0, its `port`) are set once it listens. */
export function stackConfig(
  settings: Settings,
  options: StartOptions,
  keys: { anonKey: string; serviceRoleKey: string },
  env: NodeJS.ProcessEnv = process.env,
): StackConfig {
  const { host, port, jwtSecret, dataDir, databaseUrl, rootDir, project, maxRows } = settings;
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
  return config;
}
