/**
 * Build-time access to the catalogue snapshot: read Supabase once per build, fall back to the last
 * good copy on disk, and to the static catalogue alone when there is neither.
 */
import path from 'node:path';
import { readSnapshotFile, saveSnapshotRows, SNAPSHOT_FILE } from './disk.ts';
import { buildTimeClient, fetchCatalogRows, type BackendConfig } from './fetch.ts';
import { mergeSnapshot, parseStoredSnapshot, staticSnapshot, type CatalogSnapshot, type RejectedRow } from './model.ts';

/** The part of Astro's loader logger the snapshot uses. */
export interface SnapshotLogger {
  info(message: string): void;
  warn(message: string): void;
}

/** Where the snapshot came from. */
export type SnapshotSource = 'backend' | 'disk' | 'static';

/** Options of loadCatalogSnapshot; all have defaults for the real build. */
export interface LoadOptions {
  backend?: BackendConfig | null;
  file?: string;
  logger?: SnapshotLogger;
  /** Retry transient backend failures (default true; tests of the fallback turn it off). */
  retry?: boolean;
}

/** The backend the build reads from, from the environment `npm start` prepares. */
export function backendFromEnv(env: Record<string, string | undefined> = process.env): BackendConfig | null {
  const url = env.PUBLIC_SUPABASE_URL?.trim();
  const anonKey = env.PUBLIC_SUPABASE_ANON_KEY?.trim();
  return url && anonKey ? { url: url.replace(/\/+$/, ''), anonKey } : null;
}

function report(logger: SnapshotLogger, rejected: RejectedRow[]): void {
  for (const row of rejected) logger.warn(`Fila omitida de ${row.table} (id ${row.id}): ${row.reason}`);
}

/** Reads the snapshot: backend first, then the disk copy, then the static catalogue alone. */
export async function loadCatalogSnapshot(options: LoadOptions = {}): Promise<{ snapshot: CatalogSnapshot; source: SnapshotSource }> {
  const logger = options.logger ?? console;
  // CATALOG_SNAPSHOT_FILE: another copy (tests build from a catalogue of their own).
  const file = options.file ?? path.resolve(process.env.CATALOG_SNAPSHOT_FILE || SNAPSHOT_FILE);
  const backend = options.backend === undefined ? backendFromEnv() : options.backend;

  if (backend) {
    try {
      const rows = await fetchCatalogRows(buildTimeClient(backend), options.retry ?? true);
      const fetchedAt = new Date().toISOString();
      const { snapshot, rejected } = mergeSnapshot(rows, fetchedAt);
      report(logger, rejected);
      try {
        await saveSnapshotRows(file, rows, fetchedAt);
      } catch (error) {
        logger.warn(`No se pudo guardar la copia del catálogo en ${file}: ${String(error)}`);
      }
      logger.info(`Catálogo leído de Supabase: ${snapshot.products.length} productos.`);
      return { snapshot, source: 'backend' };
    } catch (error) {
      logger.warn(`No se pudo leer el catálogo de Supabase (${error instanceof Error ? error.message : String(error)}).`);
    }
  } else {
    logger.warn('PUBLIC_SUPABASE_URL o PUBLIC_SUPABASE_ANON_KEY no están definidas; no se lee el catálogo de Supabase.');
  }

  const stored = parseStoredSnapshot(await readSnapshotFile(file));
  if (stored) {
    report(logger, stored.rejected);
    logger.warn(`Se usa la última copia del catálogo (${stored.snapshot.fetchedAt ?? 'sin fecha'}), ${stored.snapshot.products.length} productos.`);
    return { snapshot: stored.snapshot, source: 'disk' };
  }
  logger.warn('No hay copia del catálogo: se construye solo con el catálogo estático y sin productos.');
  return { snapshot: staticSnapshot(), source: 'static' };
}

let shared: Promise<CatalogSnapshot> | null = null;

/** The build's snapshot, read once and shared by every collection loader. */
export function sharedCatalogSnapshot(logger: SnapshotLogger): Promise<CatalogSnapshot> {
  shared ??= loadCatalogSnapshot({ logger }).then((result) => result.snapshot);
  return shared;
}
