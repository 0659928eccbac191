/**
 * The last good snapshot on disk (git-ignored), so a build still succeeds while the backend is
 * down. It keeps the raw rows, which are parsed again on reading like fresh ones.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CatalogRows } from './model.ts';

/** Default location, relative to the project root. */
export const SNAPSHOT_FILE = '.data/catalog-snapshot.json';

/**
 * Writes the rows atomically (temp file + rename), so a crash never leaves half a snapshot.
 * `wholeReadFrom`: when the read of the whole catalogue these rows come from started (null when
 * some rows are from an earlier read).
 */
export async function saveSnapshotRows(file: string, rows: CatalogRows, fetchedAt: string, wholeReadFrom: string | null = null): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify({ fetchedAt, wholeReadFrom, rows }));
  await rename(temp, file);
}

/** The stored snapshot as parsed JSON, or null when there is none or it is unreadable. */
export async function readSnapshotFile(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch {
    return null;
  }
}
