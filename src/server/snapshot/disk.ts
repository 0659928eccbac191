/**
 * The last good snapshot on disk (git-ignored), so a build still succeeds while the backend is
 * down. It keeps the raw rows, which are parsed again on reading like fresh ones. The edits the
 * running server publishes since (src/server/rebuild/fast-edit.ts) are appended to a file beside
 * it, one line of changed rows each, instead of writing the whole copy again; reading the copy
 * applies them, and the next whole copy (a build's) replaces them.
 */
import { appendFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
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
  // The edits since the last copy are in this one.
  await rm(editsFile(file), { force: true });
}

/** The file of the edits appended since the copy `file` was written. */
export function editsFile(file: string): string {
  return `${file}.edits`;
}

/** Records an edit: the fresh rows of the products it changed, read at `fetchedAt`. */
export async function appendSnapshotEdit(file: string, rows: readonly unknown[], fetchedAt: string): Promise<void> {
  await appendFile(editsFile(file), `${JSON.stringify({ fetchedAt, rows })}\n`);
}

/** The disk copy's rows with the rows of `ids` replaced by `fresh` (ids missing from `fresh` were deleted). */
export function patchProductRows(rows: CatalogRows, ids: readonly string[], fresh: readonly unknown[]): CatalogRows {
  const byId = new Map<string, unknown>();
  for (const row of fresh) {
    const id = (row as { id?: unknown } | null)?.id;
    if (typeof id === 'string' || typeof id === 'number') byId.set(String(id), row);
  }
  const changed = new Set(ids);
  const kept = rows.products.flatMap((row) => {
    const id = String((row as { id?: unknown } | null)?.id ?? '');
    if (!changed.has(id)) return [row];
    const replacement = byId.get(id);
    byId.delete(id);
    return replacement ? [replacement] : [];
  });
  // New products go last; the snapshot is ordered by id like a full read.
  const added = [...byId.values()];
  const products =
    added.length === 0
      ? kept
      : [...kept, ...added].sort((a, b) => {
          const x = String((a as { id: unknown }).id);
          const y = String((b as { id: unknown }).id);
          return x < y ? -1 : x > y ? 1 : 0;
        });
  return { ...rows, products };
}

/**
 * The stored snapshot as parsed JSON with the edits appended since applied (its `fetchedAt` the
 * last edit's), or null when there is none or it is unreadable. An edit line that does not parse
 * (a write cut short) and the ones after it are left out.
 */
export async function readSnapshotFile(file: string): Promise<unknown> {
  let stored: unknown;
  try {
    stored = JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch {
    return null;
  }
  let edits = '';
  try {
    edits = await readFile(editsFile(file), 'utf8');
  } catch {
    return stored;
  }
  const copy = stored as { fetchedAt?: string | null; wholeReadFrom?: string | null; rows?: CatalogRows } | null;
  if (!copy?.rows || !Array.isArray(copy.rows.products)) return stored;
  let rows = copy.rows;
  let fetchedAt = copy.fetchedAt ?? null;
  for (const line of edits.split('\n')) {
    if (!line.trim()) continue;
    let edit: { fetchedAt?: unknown; rows?: unknown };
    try {
      edit = JSON.parse(line) as { fetchedAt?: unknown; rows?: unknown };
    } catch {
      break;
    }
    if (!Array.isArray(edit.rows)) break;
    const ids = edit.rows.map((row) => String((row as { id?: unknown } | null)?.id ?? ''));
    rows = patchProductRows(rows, ids, edit.rows);
    if (typeof edit.fetchedAt === 'string') fetchedAt = edit.fetchedAt;
  }
  // Not the whole catalogue read at one time any more.
  return { ...copy, fetchedAt, wholeReadFrom: rows === copy.rows ? (copy.wholeReadFrom ?? null) : null, rows };
}
