/**
 * /explore's catalogue file (`explore/catalog.json`) read by the server (./catalog.ts), one
 * product entry at a time: read again, an entry whose bytes are those of the file read before
 * keeps that file's product object, and only the other entries are decoded and parsed. After an
 * edit at 100,000 products the file is 47 MB with a handful of new entries; parsing it whole held
 * the server's event loop for about half a second, on every server, for every edit.
 *
 * The file is what src/server/snapshot/catalog-files.ts exploreJsonInSteps writes (its parts joined): the filters' options,
 * then `"products":[…]` with one object per product, each starting with its id, then perhaps
 * `"readFrom"`. A file of another shape is parsed whole (parseExploreData), and kept nothing of.
 */
import fs from 'node:fs';
import { exploreProductReader, parseExploreData, type ExploreData, type ExploreProduct } from '~/domain/explore.ts';
import { editsFileBeside, fileIdentity, parseExploreEdits, type ExploreEdits } from './catalog-edits.ts';

/** A file read: its data, and what the next read of it compares with. */
export interface CatalogFile {
  data: ExploreData;
  /** The file's bytes, and where each product entry starts and ends in them (empty when the file was parsed whole). */
  bytes: Buffer;
  starts: number[];
  ends: number[];
  /** The bytes before the products (the options): when they change, no entry is kept. */
  headEnd: number;
  /** Each entry's product, null for an entry parseExploreData leaves out. */
  products: Array<ExploreProduct | null>;
}

const OPEN = Buffer.from('"products":[');
// Between two entries: the end of one object and the start of the next, whose first key is its id.
// Inside a JSON string a quote is escaped, so these bytes are never part of a name.
const BETWEEN = Buffer.from('},{"id":');
const AFTER = /^\](,"readFrom":"[^"\\]*")?\}\s*$/;

/** Where the entries of `bytes` are, or null when the file is not as exploreJsonInSteps writes it. */
function entries(bytes: Buffer): { headEnd: number; close: number; starts: number[]; ends: number[] } | null {
  const open = bytes.indexOf(OPEN);
  const close = bytes.lastIndexOf(']');
  if (open < 0 || close < open + OPEN.length || !AFTER.test(bytes.toString('utf8', close))) return null;
  const starts: number[] = [];
  const ends: number[] = [];
  let start = open + OPEN.length;
  if (start === close) return { headEnd: open, close, starts, ends };
  if (bytes.toString('utf8', start, start + 6) !== '{"id":') return null;
  for (;;) {
    const between = bytes.indexOf(BETWEEN, start);
    starts.push(start);
    if (between < 0 || between >= close) {
      ends.push(close);
      return { headEnd: open, close, starts, ends };
    }
    ends.push(between + 1);
    start = between + 2;
  }
}

/**
 * The catalogue in `bytes`, reusing what `previous` (the same file read before) made of the
 * entries that did not change. Null when it is not a catalogue.
 */
export function readCatalogFile(bytes: Buffer, previous: CatalogFile | null = null): CatalogFile | null {
  const found = entries(bytes);
  if (!found) {
    const data = parseExploreData(JSON.parse(bytes.toString('utf8')));
    return data && { data, bytes: Buffer.alloc(0), starts: [], ends: [], headEnd: 0, products: [] };
  }
  const { headEnd, close, starts, ends } = found;
  // The options and readFrom, with no products.
  const around = parseExploreData(JSON.parse(`${bytes.toString('utf8', 0, headEnd)}"products":[${bytes.toString('utf8', close)}`));
  if (!around) return null;
  const same = previous !== null && previous.headEnd === headEnd && bytes.compare(previous.bytes, 0, headEnd, 0, headEnd) === 0;
  const read = exploreProductReader(around);
  const products = starts.map((start, k) => {
    const end = ends[k]!;
    if (same && k < previous.starts.length && bytes.compare(previous.bytes, previous.starts[k]!, previous.ends[k]!, start, end) === 0)
      return previous.products[k]!;
    return read(JSON.parse(bytes.toString('utf8', start, end)));
  });
  const data: ExploreData = { ...around, products: products.filter((product) => product !== null) };
  return { data, bytes, starts, ends, headEnd, products };
}

/** An edited product's entry as the edits' file has it, and the product read from it (null: not usable). */
export interface EditedEntry {
  json: string;
  product: ExploreProduct | null;
}

/**
 * Each product's place in a file's products, made once per file read, as it is read
 * (readCatalogWithEdits), for withEdits: made by the first edit instead, it was 64–73 ms of that
 * edit at 100,000 products, on every server (runs CT and CY, 2026-12-04).
 */
const placesByFile = new WeakMap<CatalogFile, Map<string, number>>();

function placesOf(file: CatalogFile): Map<string, number> {
  let places = placesByFile.get(file);
  if (!places) {
    places = new Map();
    const { products } = file.data;
    for (let at = 0; at < products.length; at++) places.set(products[at]!.id, at);
    placesByFile.set(file, places);
  }
  return places;
}

/** @internal Whether a file read has its products' places made (tests). */
export function placesMade(file: CatalogFile): boolean {
  return placesByFile.has(file);
}

/** What withEdits made: the data, the edits as read, and the products placed anew since `before` (null: not known). */
export interface EditedCatalog {
  data: ExploreData;
  edited: Map<string, EditedEntry>;
  /**
   * When the products are `before`'s with only these objects replaced, each in the place of the
   * product of its id: the products another reader compares one by one, instead of every product.
   * Null when it is not so (no `before`, an entry left out).
   */
  replaced: ExploreProduct[] | null;
}

/**
 * The catalogue `file` with `edits` (./catalog-edits.ts) applied: each edited product's entry in
 * place of the file's, in the file's order. `kept` is what the last call made of the edits then:
 * an entry whose text has not changed keeps its product object (live, and prepared by the search).
 * `before` is the products that call served, for the same file: they are copied and only the
 * changed entries placed in them (at 100,000 products, going over the file's products and
 * looking each up among the edits took 33 ms of every edit, on every server). The caller checks
 * that the edits are for this file.
 */
export function withEdits(
  file: CatalogFile,
  edits: ExploreEdits | null,
  kept: ReadonlyMap<string, EditedEntry> = new Map(),
  before: readonly ExploreProduct[] | null = null,
): EditedCatalog {
  const edited = new Map<string, EditedEntry>();
  if (!edits || edits.entries.size === 0) return { data: file.data, edited, replaced: null };
  const read = exploreProductReader(file.data);
  for (const [id, json] of edits.entries) {
    const known = kept.get(id);
    edited.set(id, known?.json === json ? known : { json, product: read(JSON.parse(json)) });
  }
  // `before` holds every entry of the file (none left out, so each product is in its file's
  // place) and so will the result: only the entries that changed are placed.
  const whole = (entries: Iterable<EditedEntry>) => [...entries].every((entry) => entry.product !== null);
  if (before && before.length === file.data.products.length && whole(edited.values()) && whole(kept.values())) {
    const places = placesOf(file);
    const products = before.slice();
    const replaced: ExploreProduct[] = [];
    const place = (id: string, product: ExploreProduct) => {
      const at = places.get(id);
      if (at === undefined || products[at] === product) return;
      products[at] = product;
      replaced.push(product);
    };
    for (const [id, entry] of edited) place(id, entry.product!);
    // An edit no longer written (edits for the same file only grow, but a writer may start them again): the file's entry.
    for (const id of kept.keys()) if (!edited.has(id) && places.has(id)) place(id, file.data.products[places.get(id)!]!);
    return { data: { ...file.data, products }, edited, replaced };
  }
  const products: ExploreProduct[] = [];
  for (const product of file.data.products) {
    const entry = edited.get(product.id);
    if (!entry) products.push(product);
    else if (entry.product) products.push(entry.product);
  }
  return { data: { ...file.data, products }, edited, replaced: null };
}

/** The catalogue file and its edits as read: the data served, and what the next read keeps. */
export interface CatalogRead {
  data: ExploreData;
  /**
   * When the catalogue file was written (ms since the epoch): its products are as old as that,
   * whatever the edits' time, so a catalogue brought up to date reads the changes from then.
   */
  madeAt: number;
  file: CatalogFile;
  /** The catalogue file's identity on disk (./catalog-edits.ts fileIdentity). */
  identity: string;
  edited: Map<string, EditedEntry>;
  /** The products whose objects are not the previous read's, when only those changed (EditedCatalog.replaced). */
  replaced: ExploreProduct[] | null;
}

/** A stat that found no file: null. */
function missing(error: unknown): null {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
  throw error;
}

/** What changes when the catalogue file or its edits are written again: a text to compare with the last one. */
export async function catalogSignature(file: string): Promise<string> {
  const stat = await fs.promises.stat(file);
  const edits = await fs.promises.stat(editsFileBeside(file)).catch(missing);
  return `${fileIdentity(stat)}|${edits ? fileIdentity(edits) : ''}`;
}

/**
 * A file's bytes with its identity on disk, both through one open handle: a file replaced
 * meanwhile is the old one or the new one, never the new bytes under the old identity. Null when
 * there is no file.
 */
async function readWithIdentity(file: string): Promise<{ bytes: Buffer; identity: string; mtimeMs: number } | null> {
  const handle = await fs.promises.open(file, 'r').catch(missing);
  if (!handle) return null;
  try {
    const stat = await handle.stat();
    return { bytes: await handle.readFile(), identity: fileIdentity(stat), mtimeMs: stat.mtimeMs };
  } finally {
    await handle.close();
  }
}

/**
 * The catalogue at `file` with the edits written for it beside it, keeping what `previous` (the
 * last read) made of what did not change: the catalogue file is read again only when it is
 * another file. Null when it is not a catalogue; edits written for another file are left out.
 */
export async function readCatalogWithEdits(file: string, previous: CatalogRead | null = null): Promise<CatalogRead | null> {
  const stat = await fs.promises.stat(file);
  let read = previous && previous.identity === fileIdentity(stat) ? { file: previous.file, identity: previous.identity, mtimeMs: stat.mtimeMs } : null;
  if (!read) {
    const current = await readWithIdentity(file);
    const parsed = current && readCatalogFile(current.bytes, previous?.file ?? null);
    if (!current || !parsed) return null;
    // Where each product is, for the edits to come: made with the read, not by the first edit.
    placesOf(parsed);
    read = { file: parsed, identity: current.identity, mtimeMs: current.mtimeMs };
  }
  const written = await readWithIdentity(editsFileBeside(file));
  const edits = written ? parseExploreEdits(written.bytes.toString('utf8')) : null;
  const mine = edits?.base === read.identity ? edits : null;
  // The previous read of the same file: its products are copied, the changed entries placed.
  const before = previous && previous.file === read.file ? previous.data.products : null;
  const { data, edited, replaced } = withEdits(read.file, mine, previous?.edited, before);
  return { data, madeAt: read.mtimeMs, file: read.file, identity: read.identity, edited, replaced };
}
