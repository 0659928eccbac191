/**
 * Build-time access to the catalogue snapshot: read Supabase once per build, fall back to the last
 * good copy on disk, and to the static catalogue alone when there is neither.
 */
import path from 'node:path';
import { API_SNAPSHOT_OPERATOR_TEXT as LOG } from '~/i18n/api.ts';
import { patchProductRows, readSnapshotFile, saveSnapshotRows, SNAPSHOT_FILE } from './disk.ts';

export { patchProductRows };
import { buildTimeClient, fetchCatalogRows, fetchProductRows, type BackendConfig } from './fetch.ts';
import { mergeSnapshot, parseStoredSnapshot, staticSnapshot, type CatalogRows, type CatalogSnapshot, type RejectedRow } from './model.ts';
import { PART_ENV, PART_SNAPSHOT_SINCE_ENV, parsePart, rendersProduct } from '../rebuild/parts.ts';

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
  /**
   * Products known to have changed since the copy on disk was read (an incremental build): only
   * their rows are read from the backend and merged into the disk copy. Default: CATALOG_CHANGED_IDS.
   */
  changedIds?: string[];
  /**
   * In a part past the first of a build in parts: when part 0 started (ISO). A disk copy at least
   * that recent is used as it is. Default: CATALOG_PART_SNAPSHOT_SINCE.
   */
  partSnapshotSince?: string;
  /**
   * With `partSnapshotSince`: which part of the build this is; the copy's products are kept only
   * for the pages this part renders. Default: CATALOG_RENDER_PART.
   */
  part?: { index: number; count: number } | null;
}

/** The backend the build reads from, from the environment `npm start` prepares. */
export function backendFromEnv(env: Record<string, string | undefined> = process.env): BackendConfig | null {
  const url = env.PUBLIC_SUPABASE_URL?.trim();
  const anonKey = env.PUBLIC_SUPABASE_ANON_KEY?.trim();
  return url && anonKey ? { url: url.replace(/\/+$/, ''), anonKey } : null;
}

function report(logger: SnapshotLogger, rejected: RejectedRow[]): void {
  for (const row of rejected) logger.warn(LOG.rowSkipped(row.table, row.id, row.reason));
}

/**
 * Turns rows just read from Supabase into the snapshot, reporting rejected rows and keeping a disk
 * copy for later builds. `wholeReadFrom`: when the read of every row started (null when some rows
 * come from an earlier copy).
 */
async function snapshotFromBackendRows(rows: CatalogRows, file: string, logger: SnapshotLogger, wholeReadFrom: string | null): Promise<CatalogSnapshot> {
  const fetchedAt = new Date().toISOString();
  const { snapshot, rejected } = mergeSnapshot(rows, fetchedAt, wholeReadFrom);
  report(logger, rejected);
  try {
    await saveSnapshotRows(file, rows, fetchedAt, wholeReadFrom);
  } catch (error) {
    logger.warn(LOG.notSaved(file, String(error)));
  }
  return snapshot;
}

/** Reads the snapshot: backend first, then the disk copy, then the static catalogue alone. */
export async function loadCatalogSnapshot(options: LoadOptions = {}): Promise<{ snapshot: CatalogSnapshot; source: SnapshotSource }> {
  const logger = options.logger ?? console;
  // CATALOG_SNAPSHOT_FILE: another copy (tests build from a catalogue of their own).
  const file = options.file ?? path.resolve(process.env.CATALOG_SNAPSHOT_FILE || SNAPSHOT_FILE);
  const backend = options.backend === undefined ? backendFromEnv() : options.backend;

  // A part past the first of a build in parts: the copy part 0 saved for this build, so every part
  // renders the same catalogue and the backend is read once (../rebuild/parts.ts).
  const since = options.partSnapshotSince ?? process.env[PART_SNAPSHOT_SINCE_ENV];
  if (since) {
    // Only this part's products: the others' pages are rendered elsewhere, and 100,000 products
    // are about 220 MB of objects in each process.
    const part = options.part === undefined ? parsePart(process.env[PART_ENV]) : options.part;
    const keepProduct = part && part.index > 0 ? (id: string) => rendersProduct(part, id) : undefined;
    const copy = parseStoredSnapshot(await readSnapshotFile(file), keepProduct);
    if (copy && copy.snapshot.fetchedAt && copy.snapshot.fetchedAt >= new Date(since).toISOString()) {
      logger.info(LOG.firstPartCopy(copy.snapshot.fetchedAt, copy.snapshot.products.length));
      return { snapshot: copy.snapshot, source: 'disk' };
    }
    logger.warn(LOG.copyTooOld);
  }

  const changedIds =
    options.changedIds ??
    (process.env.CATALOG_CHANGED_IDS ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
  if (backend && changedIds.length > 0) {
    // An incremental build: the disk copy plus a fresh read of the changed products only.
    const stored = await readSnapshotFile(file);
    const previous = stored && typeof stored === 'object' ? (stored as { rows?: CatalogRows }).rows : undefined;
    if (previous && (['franchises', 'collections', 'expansions', 'productTypes', 'products'] as const).every((key) => Array.isArray(previous[key]))) {
      try {
        const fresh = await fetchProductRows(buildTimeClient(backend), changedIds, options.retry ?? true);
        const snapshot = await snapshotFromBackendRows(patchProductRows(previous, changedIds, fresh), file, logger, null);
        logger.info(LOG.patched(changedIds.length, snapshot.products.length));
        return { snapshot, source: 'backend' };
      } catch (error) {
        logger.warn(LOG.changedUnreadable(error instanceof Error ? error.message : String(error)));
      }
    }
  }

  if (backend) {
    try {
      const readFrom = new Date().toISOString();
      const snapshot = await snapshotFromBackendRows(await fetchCatalogRows(buildTimeClient(backend), options.retry ?? true), file, logger, readFrom);
      logger.info(LOG.read(snapshot.products.length));
      return { snapshot, source: 'backend' };
    } catch (error) {
      logger.warn(LOG.unreadable(error instanceof Error ? error.message : String(error)));
    }
  } else {
    logger.warn(LOG.noBackend);
  }

  const stored = parseStoredSnapshot(await readSnapshotFile(file));
  if (stored) {
    report(logger, stored.rejected);
    logger.warn(LOG.lastCopy(stored.snapshot.fetchedAt, stored.snapshot.products.length));
    return { snapshot: stored.snapshot, source: 'disk' };
  }
  logger.warn(LOG.noCopy);
  return { snapshot: staticSnapshot(), source: 'static' };
}

// On globalThis: the content loaders and the prerendered pages load separate copies of this
// module in the same build process, and must share one read of the catalogue.
const SHARED_KEY = Symbol.for('cartas-mx.catalog-snapshot');

/** The build's snapshot, read once and shared by every collection loader and the pages. */
export function sharedCatalogSnapshot(logger: SnapshotLogger): Promise<CatalogSnapshot> {
  const store = globalThis as Record<symbol, Promise<CatalogSnapshot> | undefined>;
  store[SHARED_KEY] ??= loadCatalogSnapshot({ logger }).then((result) => {
    collectGarbage();
    return result.snapshot;
  });
  return store[SHARED_KEY];
}

/**
 * A full garbage collection when the build process allows one (`--expose-gc`, which runBuild in
 * ../rebuild/build-process.ts passes): reading the catalogue leaves its text behind (about 70 MB as a
 * buffer and as much again as a string at 100,000 products), which would otherwise stay in memory
 * until V8's next full collection, while the build's other parts start.
 */
function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc === 'function') gc();
}
