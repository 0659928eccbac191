/**
 * The last good snapshot on disk (git-ignored), so a build still succeeds while the backend is
 * down. It keeps the raw rows, which are parsed again on reading like fresh ones. The edits the
 * running server publishes since (src/server/rebuild/fast-edit.ts) are appended to a file beside
 * it, one line of changed rows each, instead of writing the whole copy again; reading the copy
 * applies them, and the next whole copy (a build's) replaces them.
 */
import { appendFile, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { runSteps, type Steps } from '~/domain/steps.ts';
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
  const handle = await open(temp, 'w');
  try {
    for (const text of snapshotText(rows, fetchedAt, wholeReadFrom)) await handle.write(text);
  } finally {
    await handle.close();
  }
  await rename(temp, file);
  // The edits since the last copy are in this one.
  await rm(editsFile(file), { force: true });
}

/** How the copy's products end: their last line, then the end of the array and of the copy. */
const PRODUCTS_END = '\n]}}';

/** Product rows written or read between two pauses. */
const ROWS_PER_SLICE = 1000;

/**
 * The copy's text, a slice at a time: JSON, with each product's row on a line of its own after
 * the rest (`…"products":[` on the first line, then one row and its comma per line), so that the
 * running server reads it a row at a time between its answers (snapshotInSteps), and no string of
 * the whole copy (179 MB at 100,000 products) is made to write it.
 */
function* snapshotText(rows: CatalogRows, fetchedAt: string, wholeReadFrom: string | null): Generator<string> {
  const { products, ...rest } = rows;
  const head = JSON.stringify({ fetchedAt, wholeReadFrom, rows: { ...rest, products: [] } });
  yield `${head.slice(0, -'[]}}'.length)}[\n`;
  for (let start = 0; start < products.length; start += ROWS_PER_SLICE) {
    const slice = products.slice(start, start + ROWS_PER_SLICE).map((row) => JSON.stringify(row) ?? 'null');
    yield `${start > 0 ? ',\n' : ''}${slice.join(',\n')}`;
  }
  yield PRODUCTS_END;
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

/** The copy on disk as read, and the edits appended since (null when there is no copy). */
export interface StoredSnapshot {
  copy: Buffer;
  edits: string;
}

/** Reads the copy and its edits off the event loop; null when there is no copy. */
export async function readSnapshotBytes(file: string): Promise<StoredSnapshot | null> {
  let copy: Buffer;
  try {
    copy = await readFile(file);
  } catch {
    return null;
  }
  let edits = '';
  try {
    edits = await readFile(editsFile(file), 'utf8');
  } catch {
    // No edits since the copy.
  }
  return { copy, edits };
}

/**
 * The stored snapshot as parsed JSON with the edits appended since applied (its `fetchedAt` the
 * last edit's), or null when there is none or it is unreadable. An edit line that does not parse
 * (a write cut short) and the ones after it are left out.
 */
export async function readSnapshotFile(file: string): Promise<unknown> {
  return runSteps(snapshotInSteps(await readSnapshotBytes(file)));
}

/** readSnapshotFile's parsing in steps (Steps): a pause may go after every slice of product rows and every edit. */
export function* snapshotInSteps(stored: StoredSnapshot | null): Steps<unknown> {
  if (!stored) return null;
  let parsed: unknown;
  try {
    parsed = yield* parseCopy(stored.copy);
  } catch {
    return null;
  }
  const copy = parsed as { fetchedAt?: string | null; wholeReadFrom?: string | null; rows?: CatalogRows } | null;
  if (!stored.edits || !copy?.rows || !Array.isArray(copy.rows.products)) return parsed;
  let rows = copy.rows;
  let fetchedAt = copy.fetchedAt ?? null;
  for (const line of stored.edits.split('\n')) {
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
    yield;
  }
  // Not the whole catalogue read at one time any more.
  return { ...copy, fetchedAt, wholeReadFrom: rows === copy.rows ? (copy.wholeReadFrom ?? null) : null, rows };
}

const NEWLINE = 0x0a;
const COMMA = 0x2c;

/**
 * The copy's JSON. A copy laid out as snapshotText writes it is read a product row at a time; any
 * other (one line: copies written before) is parsed whole. Throws when it is not JSON.
 */
function* parseCopy(bytes: Buffer): Steps<unknown> {
  const first = bytes.indexOf(NEWLINE);
  const head = first < 0 ? '' : bytes.toString('utf8', 0, first);
  const end = bytes.length - PRODUCTS_END.length;
  if (!head.endsWith('"products":[') || end < first || bytes.toString('utf8', end) !== PRODUCTS_END) return JSON.parse(bytes.toString('utf8')) as unknown;
  const copy = JSON.parse(`${head}]}}`) as { rows: { products: unknown[] } };
  const products = copy.rows.products;
  // No row's JSON holds a line break (JSON.stringify writes none): each line is a row, and its comma.
  for (let at = first + 1; at < end;) {
    const next = bytes.indexOf(NEWLINE, at);
    const lineEnd = next < 0 || next > end ? end : next;
    const rowEnd = bytes[lineEnd - 1] === COMMA ? lineEnd - 1 : lineEnd;
    if (rowEnd > at) products.push(JSON.parse(bytes.toString('utf8', at, rowEnd)) as unknown);
    at = lineEnd + 1;
    if (products.length % ROWS_PER_SLICE === 0) yield;
  }
  return copy;
}
