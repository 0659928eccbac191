/**
 * An edit published by the running server, without a build: the changed products' rows are read
 * (those alone), patched into the catalogue the served build was made from (kept in memory after
 * the first edit), planned (src/domain/edit-plan.ts), and the pages the plan names are rendered by
 * the server's own render routes (src/pages/catalog-render/, the same page components as the
 * prebuilt routes, so the same bytes) and written into the served folder one file at a time
 * through a rename, with /explore's catalogue (its edited entries beside it:
 * src/server/explore/catalog-edits.ts), the build manifest and the catalogue copy on disk.
 * The header search's files the edit changes are made again alone (catalogSearchUpdate), the
 * same bytes a build writes; when they cannot be (the served ones are not a tree the build wrote,
 * or lag behind an edit before), they are left to an incremental build that follows
 * (searchFollows). An edit it cannot publish this way (a product that
 * appears, disappears or moves to another franchise, expansion or type; a new taxonomy entry; a
 * listing that loses a page) answers `fallback`, and the builder makes an incremental build.
 * Nothing is written before every page has rendered, so a failed render leaves the served files as
 * they were; the pages and /explore's files are then written before the header search's are made,
 * and the manifest last (a build after a failure renders again what differs from it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { planEdit, prepareEditPlan } from '~/domain/edit-plan.ts';
import { isListed } from '~/domain/products.ts';
import { HOME_PATH } from '~/domain/routes.ts';
import { API_FAST_EDIT_FALLBACK_TEXT as FALLBACK, API_REBUILD_REASON_TEXT } from '~/i18n/api.ts';
import { appendSnapshotEdit, readSnapshotBytes, snapshotInSteps } from '../snapshot/disk.ts';
import { EXPLORE_CATALOG_PATH, EXPLORE_EDITS_PATH, exploreEditOutput } from '../explore/catalog-edits.ts';
import { catalogSearchUpdate, exploreEntryJson, exploreJsonInSteps, prepareCatalogSearchUpdate } from '../snapshot/catalog-files.ts';
import { mergeSnapshotInSteps, parseProductRows, type CatalogRows, type CatalogSnapshot } from '../snapshot/model.ts';
import {
  exploreFingerprintInSteps,
  fileForPath,
  manifestJsonInSteps,
  pageFingerprint,
  productDigest,
  readManifest,
  type BuildManifest,
  type Digests,
} from './incremental.ts';
import { manifestSignature, writeManifestEdit } from './manifest-edits.ts';
import { inBatches, renderJobs, type PageCatalog, type RenderJob } from './render-jobs.ts';
import { manifestFile, replaceFileAsync } from './served-folder.ts';
import { searchFileText, servedShards } from './served-search.ts';
import { nextTurn, Turns } from './turns.ts';

/** What an edit needs from its surroundings. */
export interface FastEditIO {
  /** The served build's client folder (resolved, not the symlink). */
  servedClient: string;
  /** The catalogue copy the builds read and write (src/server/snapshot/disk.ts). */
  snapshotFile: string;
  /** The products' rows as the REST API returns them, for these ids only. */
  readRows(ids: readonly string[]): Promise<unknown[]>;
  /** A page's HTML from its render route. */
  render(job: RenderJob): Promise<string>;
  /** The Supabase project URL stored image paths resolve against (/explore's catalogue). */
  storageUrl: string;
  /** Pages rendered at once (default 4). */
  concurrency?: number;
  /** Told the files written so far once the pages and /explore's are; the header search's are made once what it returns has settled. */
  published?(written: readonly string[]): void | Promise<void>;
}

/** What the edit did: published by the server (with the milliseconds of each step), or left to a build with the reason. */
export type FastEditResult =
  | {
      mode: 'fast';
      written: string[];
      removed: string[];
      ms: number;
      steps: Record<string, number>;
      /** The header search's files change too (a name, a picture) and could not be made here: an incremental build follows. */
      searchFollows: boolean;
    }
  | { mode: 'fallback'; reason: string };

/** The served build's catalogue, kept between edits while the served manifest is the one it was read with. */
interface Kept {
  signature: string;
  snapshot: CatalogSnapshot;
  catalog: PageCatalog;
  /** The manifest with that signature, when this process read or wrote it (not parsed again: 15 MB at 100,000 products). */
  manifest?: BuildManifest;
  /** Each product's index in `snapshot.products` and in `catalog.products` (placesOf). */
  places?: Places;
}

interface Places {
  snapshot: Map<string, number>;
  catalog: Map<string, number>;
}

const KEPT = Symbol.for('tienda-cartas.fast-edit-catalog');

function kept(): Kept | null {
  return (globalThis as Record<symbol, Kept | undefined>)[KEPT] ?? null;
}

function keep(value: Kept | null): void {
  (globalThis as Record<symbol, Kept | undefined>)[KEPT] = value ?? undefined;
}

/** The catalogue copy on disk as read back. */
type Stored = { fetchedAt?: string | null; wholeReadFrom?: string | null; rows?: CatalogRows };

/** The pages' catalogue of a snapshot: the listed products and the taxonomy in its order. */
export function pageCatalog(snapshot: CatalogSnapshot): PageCatalog {
  return {
    products: snapshot.products.filter(isListed),
    franchises: snapshot.franchises,
    expansions: snapshot.expansions,
    productTypes: snapshot.productTypes,
    readFrom: snapshot.wholeReadFrom,
  };
}

/** The served manifest: the one kept with the catalogue while it has this signature, or read from disk. */
function servedManifest(file: string, signature: string): BuildManifest | null {
  const known = kept();
  return known?.signature === signature && known.manifest ? known.manifest : readManifest(file);
}

/** The served build's rows and catalogue: kept from the last edit, or read from the copy on disk. */
async function servedCatalog(io: FastEditIO, signature: string): Promise<Kept | null> {
  const known = kept();
  if (known && known.signature === signature) return known;
  keep(null);
  // In slices (179 MB of rows at 100,000 products): shoppers are answered meanwhile.
  const turns = new Turns();
  const stored = (await turns.finish(snapshotInSteps(await readSnapshotBytes(io.snapshotFile)))) as Stored | null;
  const rows = stored?.rows;
  if (!rows || !(['franchises', 'collections', 'expansions', 'productTypes', 'products'] as const).every((key) => Array.isArray(rows[key]))) return null;
  const { snapshot } = await turns.finish(mergeSnapshotInSteps(rows, stored.fetchedAt ?? null, stored.wholeReadFrom ?? null));
  return { signature, snapshot, catalog: pageCatalog(snapshot) };
}

/** Where each product is in the served snapshot and in its pages' catalogue, made once per catalogue read (an edit keeps every place). */
function placesOf(served: Kept): Places {
  if (!served.places) {
    const snapshot = new Map<string, number>();
    served.snapshot.products.forEach((product, i) => snapshot.set(product.id, i));
    const catalog = new Map<string, number>();
    served.catalog.products.forEach((product, i) => catalog.set(product.id, i));
    served.places = { snapshot, catalog };
  }
  return served.places;
}

/**
 * The snapshot and the pages' catalogue with the changed products' fresh rows parsed in their
 * places (the rest are the same objects: no pass over the catalogue), or why a build must do the
 * edit: a changed product that is new, deleted or refused, that starts or stops being listed, or
 * that moves to another franchise, expansion or type (the build decides what that does to the pages).
 */
function patchServed(
  served: Kept,
  ids: readonly string[],
  fresh: readonly unknown[],
  fetchedAt: string,
): { snapshot: CatalogSnapshot; catalog: PageCatalog } | { fallback: string } {
  const parsed = parseProductRows(fresh);
  const byId = new Map(parsed.products.map((product) => [product.id, product]));
  const changed = new Set(ids);
  if (parsed.products.length !== fresh.length || byId.size !== changed.size || [...byId.keys()].some((id) => !changed.has(id)))
    return { fallback: FALLBACK.listedChanged };
  const places = placesOf(served);
  const products = served.snapshot.products.slice();
  const listed = served.catalog.products.slice();
  for (const id of changed) {
    const [i, next] = [places.snapshot.get(id), byId.get(id)!];
    if (i === undefined) return { fallback: FALLBACK.listedChanged };
    products[i] = next;
  }
  for (const id of changed) {
    const [j, next] = [places.catalog.get(id), byId.get(id)!];
    if ((j !== undefined) !== isListed(next)) return { fallback: FALLBACK.listedChanged };
    if (j === undefined) continue;
    const was = listed[j]!;
    if (was.franchise_id !== next.franchise_id || was.expansion_id !== next.expansion_id || was.product_type_id !== next.product_type_id)
      return { fallback: FALLBACK.movedProduct };
    listed[j] = next;
  }
  const snapshot: CatalogSnapshot = { ...served.snapshot, fetchedAt, wholeReadFrom: null, products };
  return { snapshot, catalog: { ...served.catalog, products: listed, readFrom: null } };
}

const QUEUE = Symbol.for('tienda-cartas.fast-edit-queue');

/**
 * Publishes the edit of the products `ids` (names, prices, pictures, offers: anything but stock,
 * which pages read live) into the served folder, or answers why a build must do it. One edit at a
 * time in a process: each starts from the catalogue and manifest the one before left.
 */
export function publishEdit(ids: readonly string[], io: FastEditIO): Promise<FastEditResult> {
  const store = globalThis as Record<symbol, Promise<unknown> | undefined>;
  const run = (store[QUEUE] ?? Promise.resolve())
    .catch(() => undefined)
    .then(() => publishNow(ids, io))
    .catch((error: unknown) => {
      keep(null);
      throw error;
    });
  store[QUEUE] = run;
  return run;
}

/**
 * Takes the manifest an incremental build just wrote as the one the kept catalogue was read with,
 * without reading the catalogue again: for the build that follows an edit of this server to write
 * the search files, which made its pages from the same catalogue (the copy with this server's
 * edits, and the same products read again). False when nothing is kept.
 */
export function adoptServedManifest(io: Pick<FastEditIO, 'servedClient'>): Promise<boolean> {
  const store = globalThis as Record<symbol, Promise<unknown> | undefined>;
  const run = (store[QUEUE] ?? Promise.resolve())
    .catch(() => undefined)
    .then(() => {
      const known = kept();
      const signature = manifestSignature(manifestFile(io.servedClient));
      if (!known || !signature) return false;
      // The manifest is the build's, not the one kept: read again by the next edit.
      keep({ ...known, signature, manifest: undefined });
      return true;
    });
  store[QUEUE] = run;
  return run;
}

async function publishNow(ids: readonly string[], io: FastEditIO): Promise<FastEditResult> {
  const started = performance.now();
  const steps: Record<string, number> = {};
  let last = started;
  const step = (name: string) => {
    const now = performance.now();
    steps[name] = Math.round(now - last);
    last = now;
  };
  const manifestPath = manifestFile(io.servedClient);
  const signature = manifestSignature(manifestPath);
  const previous = signature ? servedManifest(manifestPath, signature) : null;
  if (!signature || !previous) return { mode: 'fallback', reason: API_REBUILD_REASON_TEXT.noServedManifest };
  const served = await servedCatalog(io, signature);
  if (!served) return { mode: 'fallback', reason: FALLBACK.noSnapshot };
  step('catalogue');
  // No ids: only made ready for the next edit (after a build, and when the server starts).
  if (ids.length === 0) {
    // Where each product is, for the first edit to patch its places alone.
    placesOf(served);
    keep({ ...served, manifest: previous });
    // What every edit reads of every product, made now for the first edit to reuse: /explore's
    // entries (exploreJsonInSteps keeps them by product), the shared pages' plan and the header search's rows.
    const turns = new Turns();
    await turns.finish(exploreJsonInSteps(served.catalog, io.storageUrl));
    step('explore');
    prepareEditPlan(served.catalog);
    step('plan');
    const parts = await turns.finish(prepareCatalogSearchUpdate(served.catalog, io.storageUrl));
    // The whole index's parts as text (10 MB at 100,000 products): the first edit writes only those it changes.
    for (const [, file] of parts) {
      searchFileText(file);
      await turns.pause();
    }
    step('search');
    // /explore's fingerprint and the manifest's text, made by slices that are made again only
    // where they changed: made now, neither is made whole by the first edit (its fingerprint) nor
    // by the edit that writes the manifest whole again (writeManifestEdit).
    const products = previous.products;
    await turns.finish(exploreFingerprintInSteps(served.catalog.products, { get: (id) => (Object.hasOwn(products, id) ? products[id] : undefined) }));
    await turns.finish(manifestJsonInSteps(previous));
    step('write');
    return { mode: 'fast', written: [], removed: [], ms: Math.round(performance.now() - started), steps, searchFollows: false };
  }

  const fresh = await io.readRows(ids);
  step('rows');
  const fetchedAt = new Date().toISOString();
  const patched = patchServed(served, ids, fresh, fetchedAt);
  if ('fallback' in patched) return { mode: 'fallback', reason: patched.fallback };
  const { snapshot, catalog: after } = patched;
  const before = served.catalog;
  const plan = planEdit(before, after);
  if (plan.fallback) return { mode: 'fallback', reason: FALLBACK.newTaxonomy };
  if (plan.removed.length > 0) return { mode: 'fallback', reason: FALLBACK.removedPages };
  const places = placesOf(served).catalog;
  const planned = renderJobs(plan.render, after, (id) => (places.has(id) ? after.products[places.get(id)!] : undefined));
  if ('missing' in planned) return { mode: 'fallback', reason: FALLBACK.otherPage(planned.missing) };
  step('plan');

  // The manifest's digests (the changed ones made again) and fingerprints, changed in place: copies
  // of 100,000 of each took ~140 ms. An edit that fails forgets the kept manifest (publishEdit).
  const products = previous.products;
  const edited = new Set(ids);
  // The entries changed: what the edit appends beside the manifest (writeManifestEdit).
  const changes = { files: new Set<string>(), products: new Set<string>() };
  for (const product of after.products) {
    if (!edited.has(product.id)) continue;
    products[product.id] = productDigest(product);
    changes.products.add(product.id);
  }
  const digests: Digests = { get: (id) => (Object.hasOwn(products, id) ? products[id] : undefined) };
  const files = previous.files;

  // Made, then written in two turns: the pages and /explore's files, then the header search's.
  const output: Array<{ urlPath: string; data: string | string[] | Buffer }> = [];
  const written: string[] = [];
  // A few files at a time: each is five calls of the file system, in its threads (a rename's 100 search files).
  const writeMade = async () => {
    const made = output.slice(written.length).map(({ urlPath, data }) => ({ file: fileForPath(urlPath), data }));
    await inBatches(made, 4, ({ file, data }) => replaceFileAsync(path.join(io.servedClient, file), data));
    written.push(...made.map(({ file }) => file));
  };
  const pages = await inBatches(planned.jobs, io.concurrency ?? 4, async (job) => ({ urlPath: job.path, data: await io.render(job) }));
  for (const page of pages) output.push({ urlPath: page.urlPath === HOME_PATH ? HOME_PATH : page.urlPath.replace(/\/$/, ''), data: page.data });
  step('render');
  // The longer steps below run in slices (Turns): shoppers' requests are answered between them.
  if (plan.explore) {
    const turns = new Turns();
    // /explore's edited entries beside its catalogue (or, past EDITS_MOST of them, the catalogue whole).
    const entries = after.products.filter((product) => edited.has(product.id)).map((p): [string, string] => [p.id, exploreEntryJson(p, io.storageUrl)]);
    output.push(await exploreEditOutput(io.servedClient, entries, () => turns.finish(exploreJsonInSteps(after, io.storageUrl))));
    step('explore');
  }
  // The edit is on its pages and in /explore before the header search is updated (over a second
  // of a rename at 100,000 products). If what follows fails, the build the edit falls back to
  // renders these pages again: the manifest written last still holds their old fingerprints.
  await writeMade();
  // Edits written for a catalogue now written whole go (every reader leaves them out).
  if (output.some(({ urlPath }) => urlPath === EXPLORE_CATALOG_PATH)) fs.rmSync(path.join(io.servedClient, fileForPath(EXPLORE_EDITS_PATH)), { force: true });
  await io.published?.(written.slice());
  step('publish');
  // The fingerprints are the manifest's alone; /explore's goes over every product's digest.
  for (const page of plan.pages) {
    files[page.path] = pageFingerprint(page, digests);
    changes.files.add(page.path);
  }
  if (plan.explore) {
    const change = { from: before.products, places: ids.flatMap((id) => (places.has(id) ? [places.get(id)!] : [])) };
    files[EXPLORE_CATALOG_PATH] = await new Turns().finish(exploreFingerprintInSteps(after.products, digests, change));
    changes.files.add(EXPLORE_CATALOG_PATH);
  }
  step('fingerprints');
  await nextTurn();
  // The header search's files the edit changes, unless they already wait for a build.
  let searchFollows = false;
  const gone: string[] = [];
  if (plan.search) {
    const edited = before.products.filter((product) => ids.includes(product.id));
    // In slices: at 100,000 products a rename's update took 295–307 ms in runs CB and CD.
    const turns = new Turns();
    const update = previous.searchBehind ? null : await turns.finish(catalogSearchUpdate(after, edited, io.storageUrl, servedShards(io.servedClient)));
    searchFollows = update === null;
    for (const [urlPath, file] of update?.files ?? []) {
      await turns.pause();
      const { data, fingerprint } = searchFileText(file);
      if (files[urlPath] === fingerprint) continue;
      output.push({ urlPath, data });
      files[urlPath] = fingerprint;
      changes.files.add(urlPath);
    }
    for (const urlPath of update?.removed ?? []) {
      if (!(urlPath in files)) continue;
      delete files[urlPath];
      changes.files.add(urlPath);
      gone.push(urlPath);
    }
    step('search');
    await nextTurn();
  }
  await writeMade();
  const removed = gone.map(fileForPath);
  for (const file of removed) fs.rmSync(path.join(io.servedClient, file), { force: true });
  step('files');
  const manifest: BuildManifest = {
    ...previous,
    mode: 'incremental',
    reason: null,
    files,
    products,
    render: output.map((item) => item.urlPath).sort(),
    removed: gone,
  };
  if (searchFollows) manifest.searchBehind = true;
  // The edit's entries beside the manifest, or the whole manifest past a few hundred edits (manifest-edits.ts).
  await writeManifestEdit(manifestPath, manifest, changes, () => new Turns().finish(manifestJsonInSteps(manifest)));
  step('write');
  const ms = Math.round(performance.now() - started);
  // The next build (or edit) starts from this catalogue: the copy on disk and the edits since.
  await appendSnapshotEdit(io.snapshotFile, fresh, fetchedAt);
  step('copy');
  keep({ signature: manifestSignature(manifestPath) ?? '', snapshot, catalog: after, manifest, places: served.places });
  return { mode: 'fast', written, removed, ms, steps, searchFollows };
}

/** @internal Forgets the kept catalogue (tests). */
export function forgetServedCatalog(): void {
  keep(null);
}
