/**
 * Incremental catalogue builds, the part that runs inside `astro build`: every build writes a
 * manifest (a fingerprint of each prebuilt file and a digest of each product); a later build given
 * the served build's manifest and the changed product ids renders only the files whose fingerprint
 * changed, plus the pages that show the changed products, and the publisher (output.ts) copies just
 * those into the served folder. Too many changes, or no usable manifest, mean a full build.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { catalogPages, pagesShowing, type CatalogPage, type RouteCatalog } from '~/domain/routes.ts';
import type { Product } from '~/domain/products.ts';
import { runSteps, type Steps } from '~/domain/steps.ts';
import { API_REBUILD_REASON_TEXT } from '~/i18n/api.ts';
import { manifestEditsFile, manifestIdentity, withManifestEdits, type ManifestFields } from './manifest-edits.ts';

/** Manifest format; a build never reads a manifest of another version. */
export const MANIFEST_VERSION = 1;

/** More changed products than this and the build renders everything. */
export const DEFAULT_MAX_CHANGED = 500;

/** What a build leaves next to its output for the next incremental build: its version and its fields (ManifestFields). */
export interface BuildManifest extends ManifestFields {
  v: typeof MANIFEST_VERSION;
}

/** A prebuilt file and what its content depends on. */
export interface FingerprintedFile {
  path: string;
  fingerprint: string;
}

/**
 * The SHA-1 of a text's UTF-8 bytes, or of bytes, in base64url (20 characters). A text is encoded
 * first: Node hashes a string handed to it several times slower than the same bytes as a Buffer
 * (a 3.8 MB search file: 20 ms against 3 ms with the encoding, 2026-12-04), for the same digest.
 */
function sha1(content: string | Buffer): string {
  return createHash('sha1')
    .update(typeof content === 'string' ? Buffer.from(content) : content)
    .digest('base64url')
    .slice(0, 20);
}

/**
 * What a product's static pages show of it. Stock and timestamps are left out: stock never
 * rebuilds (pages read live stock), so a stock change must not make a product look changed.
 */
export function productDigest(product: Product): string {
  const { stock: _stock, ...shown } = product as Product & { updated_at?: unknown };
  delete (shown as { updated_at?: unknown }).updated_at;
  return sha1(JSON.stringify(shown));
}

/** The products' digests (productDigest) by id. */
export type Digests = Pick<ReadonlyMap<string, string>, 'get'>;

/** A catalogue page's fingerprint: its products' digests in order plus its counts. */
export function pageFingerprint(page: CatalogPage, digests: Digests): string {
  return sha1(`${page.extra}|${page.productIds.map((id) => `${id}:${digests.get(id) ?? ''}`).join(',')}`);
}

/** The fingerprint of every catalogue page (of those `only` accepts). */
export function pageFingerprints(catalog: RouteCatalog, digests: Digests, only: (path: string) => boolean = () => true): FingerprintedFile[] {
  return catalogPages(catalog)
    .filter((page) => only(page.path))
    .map((page) => ({ path: page.path, fingerprint: pageFingerprint(page, digests) }));
}

/** Fingerprint of a file from its whole content (search shards, feeds): the same for a text and its UTF-8 bytes. */
export function contentFingerprint(content: string | Buffer): string {
  return sha1(content);
}

/**
 * The fingerprint of /explore's catalogue: every listed product's digest, and its stock, which
 * /explore's catalogue carries for its 'Solo disponibles' filter until the server reads it live.
 */
export function exploreFingerprint(products: readonly Product[], digests: Digests): string {
  return runSteps(exploreFingerprintInSteps(products, digests));
}

/** Products or manifest entries taken between two pauses of the steps below. */
const PER_STEP = 2000;

/** A slice of PER_STEP products' part of /explore's fingerprint, with what it was made from. */
interface FingerprintSlice {
  ids: string[];
  digests: Array<string | undefined>;
  stocks: Array<number | null>;
  hash: string;
}

/**
 * The slices of the last /explore fingerprint made: an edit changes a few products of 100,000,
 * so the slices whose products, digests and stock are the same are not hashed again (hashing
 * every product took 113-171 ms of an edit at 100,000 products, runs BL-BM).
 */
let lastSlices: FingerprintSlice[] = [];
/** The products array the last slices were made from (a change names it, FingerprintChange). */
let lastProducts: readonly Product[] | null = null;
let fingerprintSlicesMade = 0;

/**
 * What changed since the last fingerprint: it was made from `from`, and the products now differ
 * from those only at `places` (the same products in the same places, with these replaced): the
 * other slices are taken as they were without comparing their products (comparing 100,000 took
 * about 27 ms of each edit at 100,000 products, run CM).
 */
export interface FingerprintChange {
  from: readonly Product[];
  places: readonly number[];
}

/** @internal How many slices of /explore fingerprints were hashed (tests: unchanged slices are not hashed again). */
export function exploreSlicesMade(): number {
  return fingerprintSlicesMade;
}

/** Whether `slice` was made from these products (from `start` to `end`) with these digests and stock. */
function sameProducts(
  slice: FingerprintSlice | undefined,
  products: readonly Product[],
  start: number,
  end: number,
  digests: Digests,
): slice is FingerprintSlice {
  if (!slice || slice.ids.length !== end - start) return false;
  for (let k = start; k < end; k += 1) {
    const product = products[k]!;
    const j = k - start;
    if (slice.ids[j] !== product.id || slice.stocks[j] !== (product.stock ?? null) || slice.digests[j] !== digests.get(product.id)) return false;
  }
  return true;
}

/**
 * exploreFingerprint in steps (Steps): the hash of the products' slices' hashes, each slice
 * `id:digest:stock` for its PER_STEP products, hashed again only when one of them changed. With
 * `change` (made from the last fingerprint's products), only the slices of its places are compared.
 */
export function* exploreFingerprintInSteps(products: readonly Product[], digests: Digests, change: FingerprintChange | null = null): Steps<string> {
  const whole = createHash('sha1');
  const slices: FingerprintSlice[] = [];
  const changed =
    change && change.from === lastProducts && change.from.length === products.length
      ? new Set(change.places.map((place) => Math.floor(place / PER_STEP)))
      : null;
  for (let start = 0; start < products.length; start += PER_STEP) {
    const end = Math.min(start + PER_STEP, products.length);
    const known = lastSlices[slices.length];
    let slice: FingerprintSlice;
    if (changed && known && !changed.has(slices.length)) slice = known;
    else if (sameProducts(known, products, start, end, digests)) slice = known;
    else {
      const part = products.slice(start, end);
      const ids = part.map((product) => product.id);
      const sliceDigests = ids.map((id) => digests.get(id));
      const stocks = part.map((product) => product.stock ?? null);
      const text = ids.map((id, k) => `${id}:${sliceDigests[k]}:${stocks[k] ?? ''}`).join(',');
      slice = { ids, digests: sliceDigests, stocks, hash: sha1(text) };
      fingerprintSlicesMade += 1;
      yield;
    }
    slices.push(slice);
    whole.update(`${slice.hash},`);
  }
  lastSlices = slices;
  lastProducts = products;
  return whole.digest('base64url').slice(0, 20);
}

/** A slice of a manifest's record as JSON (a comma first but in the first slice), with the keys and values it was made from. */
interface ManifestSlice {
  keys: string[];
  values: string[];
  bytes: Buffer;
}

/** A record's slices as last written. */
interface RecordText {
  slices: ManifestSlice[];
}

/**
 * The slices of each record (`files`, `products`) last written as JSON, by record object: the
 * running server changes its manifest's records in place for each edit, a few entries of 100,000,
 * so the slices whose keys and values are the same are not made again (making them all took
 * 200-330 ms at 100,000 products, a script, 2026-12-02). Each slice is kept encoded: encoding
 * the manifest's 12 MB each time it was written took 10-20 ms more.
 */
const textOf = new WeakMap<Record<string, string>, RecordText>();

/**
 * Entries of a manifest slice. Each slice holding an entry an edit set is made again (a rename at
 * 100,000 products sets about 50 pages' and 100 search files' fingerprints): with 150 entries
 * spread over a manifest of 204,000 and 100,000, slices of 2,000 took 124-162 ms to make again and
 * slices of 250 took 5-38 ms (a script, 2026-12-03).
 */
const SLICE_ENTRIES = 250;
let slicesMade = 0;

/** @internal How many slices of manifest records manifestJsonInSteps has made (tests: unchanged slices are not made again). */
export function manifestSlicesMade(): number {
  return slicesMade;
}

/** Whether `slice` was made from exactly these keys (from `start`) and their values in `record`. */
function sameSlice(
  slice: ManifestSlice | undefined,
  keys: readonly string[],
  start: number,
  end: number,
  record: Record<string, string>,
): slice is ManifestSlice {
  if (!slice || slice.keys.length !== end - start) return false;
  for (let k = start; k < end; k += 1) {
    const key = keys[k]!;
    if (slice.keys[k - start] !== key || slice.values[k - start] !== record[key]) return false;
  }
  return true;
}

/** The slice of `keys` with their values in `record`, as JSON; `first` when no slice comes before it. */
function makeSlice(keys: string[], record: Record<string, string>, first: boolean): ManifestSlice {
  slicesMade += 1;
  const values = keys.map((key) => record[key]!);
  const text = keys.map((key, k) => `${JSON.stringify(key)}:${JSON.stringify(values[k])}`).join(',');
  return { keys, values, bytes: Buffer.from(first ? text : `,${text}`) };
}

/**
 * The manifest as JSON, encoded, in parts and in steps (Steps): the running server writes it
 * whole after a few hundred edits (./manifest-edits.ts), and at 100,000 products one
 * JSON.stringify of it (15 MB) held the server 170-340 ms (2026-12-01). The same object when
 * parsed; its digests and fingerprints come last, a slice of SLICE_ENTRIES entries per part, each
 * made again only when its entries changed (textOf).
 */
export function* manifestJsonInSteps(manifest: BuildManifest): Steps<Buffer[]> {
  const { files, products, ...rest } = manifest;
  const parts: Buffer[] = [Buffer.from(JSON.stringify(rest).slice(0, -1))];
  for (const [name, record] of [
    ['files', files],
    ['products', products],
  ] as const) {
    parts.push(Buffer.from(`,${JSON.stringify(name)}:{`));
    const known = textOf.get(record);
    const text: RecordText = { slices: [] };
    const keys = Object.keys(record);
    let made = 0;
    for (let start = 0; start < keys.length; start += SLICE_ENTRIES) {
      const end = Math.min(start + SLICE_ENTRIES, keys.length);
      const kept = known?.slices[text.slices.length];
      if (sameSlice(kept, keys, start, end, record)) text.slices.push(kept);
      else {
        text.slices.push(makeSlice(keys.slice(start, end), record, start === 0));
        made += end - start;
      }
      if (made >= PER_STEP) {
        made = 0;
        yield;
      }
    }
    textOf.set(record, text);
    for (const slice of text.slices) parts.push(slice.bytes);
    parts.push(Buffer.from('}'));
  }
  parts.push(Buffer.from('}'));
  return parts;
}

/** What the next build is asked to do, read from the environment output.ts prepares. */
export interface IncrementalRequest {
  previous: BuildManifest | null;
  changedIds: string[];
  maxChanged: number;
}

/**
 * The previous manifest with the edits the server published since (./manifest-edits.ts), or null
 * when the file is missing, unreadable or of another version.
 */
export function readManifest(file: string): BuildManifest | null {
  try {
    const base = manifestIdentity(file);
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as BuildManifest;
    return data && data.v === MANIFEST_VERSION && typeof data.files === 'object' && typeof data.products === 'object'
      ? withManifestEdits(data, file, base)
      : null;
  } catch {
    return null;
  }
}

/** Writes a manifest atomically (temp file + rename); the edits written beside the one it replaces go. */
export function writeManifest(file: string, manifest: BuildManifest): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(manifest));
  fs.renameSync(temp, file);
  fs.rmSync(manifestEditsFile(file), { force: true });
}

/** The incremental request in `env`: CATALOG_PREVIOUS_MANIFEST, CATALOG_CHANGED_IDS, CATALOG_MAX_CHANGED. */
export function requestFromEnv(env: Record<string, string | undefined> = process.env): IncrementalRequest | null {
  const file = env.CATALOG_PREVIOUS_MANIFEST;
  if (!file) return null;
  const max = Number(env.CATALOG_MAX_CHANGED);
  return {
    previous: readManifest(file),
    changedIds: (env.CATALOG_CHANGED_IDS ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean),
    maxChanged: Number.isInteger(max) && max >= 0 ? max : DEFAULT_MAX_CHANGED,
  };
}

/** A build's plan: which files to render (null: all of them) and the manifest it leaves. */
export interface BuildPlan {
  render: Set<string> | null;
  manifest: BuildManifest;
}

/**
 * Decides what a build renders. `files` are every fingerprinted file of the new catalogue
 * (pages, search shards, feeds). Without a request (or a usable previous manifest), or with more
 * changed products than allowed, everything is rendered; otherwise the files whose fingerprint
 * differs from the previous build's or that are new, and every page that shows a changed product.
 * `digests`: the products' digests (productDigest) when the caller has made them already.
 */
export function planBuild(catalog: RouteCatalog, files: FingerprintedFile[], request: IncrementalRequest | null, digests?: Digests): BuildPlan {
  const products: Record<string, string> = {};
  for (const product of catalog.products) products[product.id] = digests?.get(product.id) ?? productDigest(product);
  const fileMap: Record<string, string> = {};
  for (const file of files) fileMap[file.path] = file.fingerprint;
  const full = (reason: string | null): BuildPlan => ({
    render: null,
    manifest: { v: MANIFEST_VERSION, mode: 'full', reason, files: fileMap, products, render: [], removed: [] },
  });
  if (!request) return full(null);
  const previous = request.previous;
  if (!previous) return full(API_REBUILD_REASON_TEXT.noPreviousManifest);

  // Changed: the ids the caller named plus any product whose digest differs (a missed change).
  const changed = new Set(request.changedIds);
  for (const [id, digest] of Object.entries(products)) if (previous.products[id] !== digest) changed.add(id);
  for (const id of Object.keys(previous.products)) if (!(id in products)) changed.add(id);
  if (changed.size > request.maxChanged) return full(API_REBUILD_REASON_TEXT.tooManyChanged(changed.size, request.maxChanged));

  const render = new Set<string>();
  for (const [file, fingerprint] of Object.entries(fileMap)) if (previous.files[file] !== fingerprint) render.add(file);
  for (const page of pagesShowing(catalog, changed)) render.add(page);
  const removed = Object.keys(previous.files).filter((file) => !(file in fileMap));
  return {
    render,
    manifest: { v: MANIFEST_VERSION, mode: 'incremental', reason: null, files: fileMap, products, render: [...render].sort(), removed },
  };
}

/** The static file a URL path is written to by `astro build` (directory format). */
export function fileForPath(urlPath: string): string {
  const clean = decodeURIComponent(urlPath).replace(/^\/+/, '');
  if (clean === '') return 'index.html';
  return /\.[a-z0-9]+$/i.test(clean) ? clean : `${clean}/index.html`;
}
