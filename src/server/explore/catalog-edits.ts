/**
 * /explore's catalogue after the owner's edits, without writing it whole: the running server
 * that publishes an edit (src/server/rebuild/fast-edit.ts) writes the edited products' entries
 * beside the catalogue the build wrote, in `explore/catalog-edits.json`, and every server reads
 * the catalogue as that file says (./catalog.ts). At 100,000 products the catalogue is 47 MB:
 * made, written and read again whole by every server, it cost each edit seconds.
 *
 * The file names the catalogue it applies to by its identity on disk (inode, size and change
 * time, `fileIdentity`): a catalogue written again (a build, or an edit that writes it whole) is a
 * new file, and the entries written for the old one are then left out. They are kept for the
 * next edit while the catalogue is the same, so the file holds every product edited since it
 * was written; past EDITS_MOST of them, the edit writes the catalogue whole instead.
 *
 * `{"base":"<identity>","products":[<entry>,…]}`: each entry is a product's entry exactly as the
 * catalogue writes it (src/server/snapshot/catalog-files.ts exploreEntryJson), one per product,
 * replacing the catalogue's entry with the same id. Edits that add, remove or move products are
 * builds (the fast path falls back), so the entries never name a product the catalogue lacks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { fileForPath } from '../rebuild/incremental.ts';

/** The catalogue's URL path, and its edits' beside it. */
export const EXPLORE_CATALOG_PATH = '/explore/catalog.json';
export const EXPLORE_EDITS_PATH = '/explore/catalog-edits.json';

/** The edits' file beside the catalogue file `catalogFile`. */
export function editsFileBeside(catalogFile: string): string {
  return path.join(path.dirname(catalogFile), path.basename(EXPLORE_EDITS_PATH));
}

/** @internal Products edited since the catalogue was written beyond which an edit writes it whole (exported for tests). */
export const EDITS_MOST = 2000;

/** A file's identity on disk: another file at the same path (written again, or another build's) has another. */
export function fileIdentity(stat: Pick<fs.Stats, 'ino' | 'size' | 'mtimeMs'>): string {
  return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
}

const EditsFile = z.object({ base: z.string(), products: z.array(z.object({ id: z.string() }).passthrough()) });

/** The edits' file read: the catalogue it applies to, and each entry's text by product id. */
export interface ExploreEdits {
  base: string;
  entries: Map<string, string>;
}

/**
 * The edits in `text`, or null when it is not such a file. Each entry's text is the entry as
 * written (JSON.stringify of what JSON.parse reads back gives the same text).
 */
export function parseExploreEdits(text: string): ExploreEdits | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = EditsFile.safeParse(value);
  if (!parsed.success) return null;
  return { base: parsed.data.base, entries: new Map(parsed.data.products.map((entry) => [entry.id, JSON.stringify(entry)])) };
}

/** The edits' file as text. */
function exploreEditsText(edits: ExploreEdits): string {
  return `{"base":${JSON.stringify(edits.base)},"products":[${[...edits.entries.values()].join(',')}]}`;
}

/**
 * The edits' file after an edit of `entries` (id and entry text), for the catalogue at
 * `catalogFile`: the entries already written for it, with these added or replaced. Null when the
 * catalogue must be written whole instead: it is not there, the edits would pass EDITS_MOST, or
 * an edits' file is there but cannot be read (written without it, the earlier edits it holds
 * would be lost; the catalogue made whole has them).
 */
async function nextExploreEdits(catalogFile: string, entries: Iterable<[id: string, json: string]>): Promise<string | null> {
  const stat = await fs.promises.stat(catalogFile).catch(() => null);
  if (!stat) return null;
  const base = fileIdentity(stat);
  const earlier = await writtenEdits(editsFileBeside(catalogFile));
  if (earlier === 'unreadable') return null;
  const edits: ExploreEdits = { base, entries: earlier?.base === base ? earlier.entries : new Map() };
  for (const [id, json] of entries) edits.entries.set(id, json);
  return edits.entries.size > EDITS_MOST ? null : exploreEditsText(edits);
}

/** The edits' file at `file`: null when there is none, 'unreadable' when it cannot be read or is not such a file. */
async function writtenEdits(file: string): Promise<ExploreEdits | null | 'unreadable'> {
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? null : 'unreadable';
  }
  return parseExploreEdits(text) ?? 'unreadable';
}

/**
 * What an edit writes of /explore's catalogue in the served folder `servedClient`: the edits'
 * file with `entries` (id and entry text), or the catalogue whole, made by `whole`, when
 * nextExploreEdits says so (the caller then removes the edits' file, after writing it).
 */
export async function exploreEditOutput(
  servedClient: string,
  entries: Iterable<[id: string, json: string]>,
  whole: () => Promise<string[]>,
): Promise<{ urlPath: string; data: string | string[] }> {
  const edits = await nextExploreEdits(path.join(servedClient, fileForPath(EXPLORE_CATALOG_PATH)), entries);
  return edits === null ? { urlPath: EXPLORE_CATALOG_PATH, data: await whole() } : { urlPath: EXPLORE_EDITS_PATH, data: edits };
}
