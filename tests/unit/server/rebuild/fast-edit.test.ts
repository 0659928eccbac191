/**
 * The running server's publishing of an edit (src/server/rebuild/fast-edit.ts), with the demo
 * catalogue, a served folder and its manifest as a full build leaves them, a fake database that
 * records which rows are read, and a fake render route: what is read, rendered and written, and
 * what is left to a build. Then for real: an `astro build` of the demo catalogue served by its own
 * server bundle, an edit published by that server through its render routes, and a full build of
 * the edited catalogue, whose files are byte for byte the edit's.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { demoProductRows, writeSnapshot } from '../../../support/demo-rows.ts';
import { expansionListingPath, pageHref, pagesShowing, productPath, typeListingPath } from '~/domain/routes.ts';
import { adoptServedManifest, forgetServedCatalog, pageCatalog, publishEdit, type FastEditIO } from '~/server/rebuild/fast-edit.ts';
import { renderJobs } from '~/server/rebuild/render-jobs.ts';
import {
  contentFingerprint,
  exploreFingerprint,
  fileForPath,
  manifestSlicesMade,
  pageFingerprints,
  productDigest,
  readManifest,
  writeManifest,
} from '~/server/rebuild/incremental.ts';
import { currentBuild, manifestFile, prepareOutput } from '~/server/rebuild/served-folder.ts';
import { manifestEditsFile } from '~/server/rebuild/manifest-edits.ts';
import { runBuild } from '~/server/rebuild/build-process.ts';
import { renderThrough } from '~/server/rebuild/fast-edit-endpoint.ts';
import { projectUrl } from '~/server/supabase.ts';
import type { RenderJob } from '~/server/rebuild/render-jobs.ts';
import { catalogSearchFiles, exploreDataWith } from '~/server/snapshot/catalog-files.ts';
import { mergeSnapshot } from '~/server/snapshot/model.ts';
import { editsFile, readSnapshotFile } from '~/server/snapshot/disk.ts';
import { readCatalogFile, readCatalogWithEdits } from '~/server/explore/catalog-file.ts';
import { EDITS_MOST, fileIdentity, parseExploreEdits } from '~/server/explore/catalog-edits.ts';

const STORAGE = 'https://proyecto.test';
let dir = '';
let client = '';
let snapshotFile = '';
let rows: Array<Record<string, unknown>> = [];

/** The catalogue of `products` rows as the pages read it. */
const catalogOf = (products: Array<Record<string, unknown>>) =>
  pageCatalog(mergeSnapshot({ franchises: [], collections: [], expansions: [], productTypes: [], products }, null).snapshot);

beforeEach(() => {
  forgetServedCatalog();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-edit-'));
  client = path.join(dir, 'builds', 'b1', 'client');
  snapshotFile = path.join(dir, 'catalog-snapshot.json');
  rows = demoProductRows();
  writeSnapshot(snapshotFile, rows);
  // The served build: a file for every catalogue page and search file, and its manifest.
  const catalog = catalogOf(rows);
  const digests = new Map(catalog.products.map((product) => [product.id, productDigest(product)]));
  const files: Record<string, string> = {};
  for (const page of pageFingerprints(catalog, digests)) files[page.path] = page.fingerprint;
  files['/explore/catalog.json'] = exploreFingerprint(catalog.products, digests);
  for (const [urlPath, file] of catalogSearchFiles(catalog, STORAGE)) files[urlPath] = contentFingerprint(JSON.stringify(file));
  for (const urlPath of Object.keys(files)) {
    fs.mkdirSync(path.dirname(path.join(client, fileForPath(urlPath))), { recursive: true });
    fs.writeFileSync(path.join(client, fileForPath(urlPath)), `servido ${urlPath}`);
  }
  writeManifest(manifestFile(client), { v: 1, mode: 'full', reason: null, files, products: Object.fromEntries(digests), render: [], removed: [] });
});

afterEach(() => {
  forgetServedCatalog();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A fake database and render route; `read` and `rendered` record what the edit asked of them. */
function io(overrides: Partial<FastEditIO> = {}) {
  const read: string[][] = [];
  const rendered: RenderJob[] = [];
  const value: FastEditIO = {
    servedClient: client,
    snapshotFile,
    storageUrl: STORAGE,
    readRows: async (ids) => {
      read.push([...ids]);
      return rows.filter((row) => ids.includes(String(row.id))).map((row) => ({ ...row }));
    },
    render: async (job) => {
      rendered.push(job);
      const price = job.kind === 'product' ? job.props.product.priceCentavos : '';
      return `<html>${job.kind} ${job.path} ${price}</html>`;
    },
    ...overrides,
  };
  return { io: value, read, rendered };
}

const served = (urlPath: string) => fs.readFileSync(path.join(client, fileForPath(urlPath)), 'utf8');
const inode = (urlPath: string) => fs.statSync(path.join(client, fileForPath(urlPath))).ino;
const edited = () => rows.find((row) => row.expansion_id === 'destined-rivals' && row.product_type_id === 'elite-trainer-box')!;

describe('an edit published by the running server', () => {
  it('a price: reads that row only, renders the pages that show the product and writes them with /explore, not the search files', async () => {
    const row = edited();
    const id = String(row.id);
    row.price = 4321.5;
    const fake = io();
    const searchBefore = served('/search-index.json');
    const untouched = productPath(String(rows.find((r) => r.franchise_id === 'one-piece')!.id));
    const inodeBefore = inode(productPath(id));
    const before = readManifest(manifestFile(client))!;
    const manifestText = fs.readFileSync(manifestFile(client), 'utf8');

    const result = await publishEdit([id], fake.io);

    expect(result).toMatchObject({ mode: 'fast', searchFollows: false });
    expect(fake.read).toEqual([[id]]);
    // Exactly the pages that show it, each rendered at the path the build prerenders it at.
    const showing = pagesShowing(catalogOf(rows), [id]);
    expect(new Set(fake.rendered.map((job) => job.path.replace(/(.)\/$/, '$1')))).toEqual(new Set(showing));
    expect(showing).toEqual(
      expect.arrayContaining([productPath(id), expansionListingPath('pokemon', 'destined-rivals'), typeListingPath('pokemon', 'elite-trainer-box')]),
    );
    const product = fake.rendered.find((job) => job.kind === 'product')!;
    expect(product).toMatchObject({
      path: `${productPath(id)}/`,
      props: { product: { id, priceCentavos: 432150 }, franchise: { id: 'pokemon' }, expansion: { id: 'destined-rivals' } },
    });
    expect(served(productPath(id))).toBe(`<html>product ${productPath(id)}/ 432150</html>`);
    // Through a rename: a new file, not the old one rewritten.
    expect(inode(productPath(id))).not.toBe(inodeBefore);
    expect(result.mode === 'fast' && result.written).toEqual(expect.arrayContaining([fileForPath(productPath(id)), 'explore/catalog-edits.json']));
    // /explore's catalogue is not written again: the edited entry goes beside it, and the
    // catalogue read with it has the new price; the search files and other pages are untouched.
    expect(result.mode === 'fast' && result.written).not.toContain('explore/catalog.json');
    expect(served('/explore/catalog.json')).toBe('servido /explore/catalog.json');
    const edits = parseExploreEdits(served('/explore/catalog-edits.json'))!;
    expect(edits.base).toBe(fileIdentity(fs.statSync(path.join(client, 'explore', 'catalog.json'))));
    expect([...edits.entries.keys()]).toEqual([id]);
    expect(JSON.parse(edits.entries.get(id)!)).toMatchObject({ id, priceCentavos: 432150 });
    expect(served('/search-index.json')).toBe(searchBefore);
    expect(served(untouched)).toBe(`servido ${untouched}`);
    expect(fs.readdirSync(path.dirname(path.join(client, fileForPath(productPath(id)))))).toEqual(['index.html']);

    // The manifest and the catalogue copy know the edit, so the next build starts from it: the
    // copy itself is not written again, the edit's row is appended beside it.
    const manifest = readManifest(manifestFile(client))!;
    expect(manifest.products[id]).toBe(productDigest(catalogOf(rows).products.find((p) => p.id === id)!));
    // The manifest file itself is not written again: the edit's entries are one line beside it.
    expect(fs.readFileSync(manifestFile(client), 'utf8')).toBe(manifestText);
    expect(
      fs
        .readFileSync(manifestEditsFile(manifestFile(client)), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(1);
    // Every page's fingerprint is the one a build of the edited catalogue records; the edited pages' changed.
    const after = catalogOf(rows);
    const digests = new Map(after.products.map((p) => [p.id, productDigest(p)]));
    const fingerprints = pageFingerprints(after, digests);
    for (const page of fingerprints) expect(manifest.files[page.path], page.path).toBe(page.fingerprint);
    expect(fingerprints.filter((page) => showing.includes(page.path)).every((page) => page.fingerprint !== before.files[page.path])).toBe(true);
    expect(manifest.files['/explore/catalog.json']).toBe(exploreFingerprint(after.products, digests));
    const copy = (await readSnapshotFile(snapshotFile)) as { rows: { products: Array<{ id: string; price: number }> } };
    expect(copy.rows.products.find((p) => p.id === id)!.price).toBe(4321.5);
    expect(fs.readFileSync(editsFile(snapshotFile), 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('a rename publishes the pages and the search files it changes, as a build of the edited catalogue makes them', async () => {
    // The served search files as the build wrote them.
    for (const [urlPath, file] of catalogSearchFiles(catalogOf(rows), STORAGE)) fs.writeFileSync(path.join(client, fileForPath(urlPath)), JSON.stringify(file));
    const row = edited();
    row.name = 'Elite Trainer Box Rivales Renombrada';
    const searchBefore = served('/search-index.json');
    // The pages and /explore's edit are on the site before the search files are made: what was
    // on disk when the edit said so.
    const early: Array<{ written: readonly string[]; page: string; explore: string; search: string }> = [];
    // What it is told returns a promise (this server's /explore reading the edit): the search
    // files wait for it.
    let release = () => {};
    const reading = new Promise<void>((resolve) => (release = resolve));
    const published = (written: readonly string[]) => {
      early.push({ written, page: served(productPath(String(row.id))), explore: served('/explore/catalog-edits.json'), search: served('/search-index.json') });
      return reading;
    };
    const publishing = publishEdit([String(row.id)], io({ published }).io);
    await vi.waitFor(() => expect(early).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(served('/search-index.json')).toBe(searchBefore);
    release();
    const result = await publishing;
    expect(result).toMatchObject({ mode: 'fast', searchFollows: false });
    expect(early).toHaveLength(1);
    expect(early[0]!.written).toEqual(expect.arrayContaining([fileForPath(productPath(String(row.id))), 'explore/catalog-edits.json']));
    expect(early[0]!.written).not.toContain('search-index.json');
    expect(early[0]!.page).toContain(`product ${productPath(String(row.id))}/`);
    expect(JSON.parse(parseExploreEdits(early[0]!.explore)!.entries.get(String(row.id))!)).toMatchObject({ name: row.name });
    expect(early[0]!.search).toBe(searchBefore);
    expect(result.mode === 'fast' && result.written).toContain('search-index.json');
    expect(result.mode === 'fast' && result.written.slice(0, early[0]!.written.length)).toEqual(early[0]!.written);
    expect(result.mode === 'fast' && Object.keys(result.steps)).toContain('search');
    const expected = JSON.stringify(catalogSearchFiles(catalogOf(rows), STORAGE).get('/search-index.json'));
    expect(served('/search-index.json')).toBe(expected);
    const manifest = readManifest(manifestFile(client))!;
    expect(manifest.files['/search-index.json']).toBe(contentFingerprint(expected));
    expect(manifest.searchBehind).toBeUndefined();
  });

  it('a rename whose served search files are not what a build writes leaves them to the build that follows, and so does the next one', async () => {
    const row = edited();
    row.name = 'Elite Trainer Box Rivales Renombrada';
    const searchBefore = served('/search-index.json');
    const result = await publishEdit([String(row.id)], io().io);
    expect(result).toMatchObject({ mode: 'fast', searchFollows: true });
    expect(served(productPath(String(row.id)))).toContain(`product ${productPath(String(row.id))}/`);
    expect(served('/search-index.json')).toBe(searchBefore);
    expect(result.mode === 'fast' && result.written).not.toContain('search-index.json');
    expect(readManifest(manifestFile(client))!.searchBehind).toBe(true);
    // The search files lag behind now: even written as the build writes them, the next rename leaves them to the build.
    for (const [urlPath, file] of catalogSearchFiles(catalogOf(rows), STORAGE)) fs.writeFileSync(path.join(client, fileForPath(urlPath)), JSON.stringify(file));
    row.name = 'Elite Trainer Box Rivales Otra Vez';
    expect(await publishEdit([String(row.id)], io().io)).toMatchObject({ mode: 'fast', searchFollows: true });
    // A price alone keeps the mark for the build that follows.
    row.price = 1234;
    expect(await publishEdit([String(row.id)], io().io)).toMatchObject({ mode: 'fast', searchFollows: false });
    expect(readManifest(manifestFile(client))!.searchBehind).toBe(true);
  });

  it('a second edit uses the catalogue it kept; a manifest another build wrote makes it read the copy again', async () => {
    const first = edited();
    first.price = 999;
    expect((await publishEdit([String(first.id)], io().io)).mode).toBe('fast');
    // The copy on disk is unreadable now: the kept catalogue is used.
    fs.writeFileSync(snapshotFile, 'no es JSON');
    const second = rows.find((row) => row.franchise_id === 'one-piece')!;
    second.price = 555;
    const result = await publishEdit([String(second.id)], io().io);
    expect(result.mode).toBe('fast');
    expect(served(productPath(String(second.id)))).toContain('55500');
    // The manifest, written again from the kept one, has both edits' digests and every entry it had.
    const digestOf = (id: unknown) => productDigest(catalogOf(rows).products.find((p) => p.id === String(id))!);
    const both = readManifest(manifestFile(client))!;
    expect([both.products[String(first.id)], both.products[String(second.id)]]).toEqual([digestOf(first.id), digestOf(second.id)]);
    expect(Object.keys(both.products)).toHaveLength(catalogOf(rows).products.length);
    // The build that wrote this server's edit (its search files) wrote a new manifest: the kept catalogue is adopted.
    const manifest = readManifest(manifestFile(client))!;
    writeManifest(manifestFile(client), { ...manifest, mode: 'incremental' });
    expect(await adoptServedManifest({ servedClient: client })).toBe(true);
    second.price = 557;
    expect((await publishEdit([String(second.id)], io().io)).mode).toBe('fast');
    // Any other build's manifest: the kept catalogue is no longer the served one, the copy is read again.
    writeManifest(manifestFile(client), { ...readManifest(manifestFile(client))!, mode: 'full' });
    second.price = 556;
    expect(await publishEdit([String(second.id)], io().io)).toEqual({ mode: 'fallback', reason: 'no hay copia del catálogo de la compilación servida' });
    expect(await adoptServedManifest({ servedClient: client })).toBe(false);
  });

  it("keeps /explore's edited entries beside its catalogue across edits, until the catalogue is written again; past the most it writes the catalogue whole", async () => {
    const catalogPath = path.join(client, 'explore', 'catalog.json');
    const editsPath = path.join(client, 'explore', 'catalog-edits.json');
    const entriesOf = () => parseExploreEdits(fs.readFileSync(editsPath, 'utf8'))!;
    const first = edited();
    first.price = 999;
    expect((await publishEdit([String(first.id)], io().io)).mode).toBe('fast');
    const second = rows.find((row) => row.franchise_id === 'one-piece')!;
    second.price = 555;
    expect((await publishEdit([String(second.id)], io().io)).mode).toBe('fast');
    // Both edits' entries, for the catalogue served; the first as the first edit wrote it.
    expect(entriesOf().base).toBe(fileIdentity(fs.statSync(catalogPath)));
    expect([...entriesOf().entries.keys()]).toEqual([String(first.id), String(second.id)]);
    expect(JSON.parse(entriesOf().entries.get(String(first.id))!)).toMatchObject({ priceCentavos: 99900 });
    second.price = 556;
    expect((await publishEdit([String(second.id)], io().io)).mode).toBe('fast');
    expect(JSON.parse(entriesOf().entries.get(String(second.id))!)).toMatchObject({ priceCentavos: 55600 });
    expect(entriesOf().entries.size).toBe(2);

    // A build wrote the catalogue again: the entries written for the old one are not kept.
    fs.rmSync(catalogPath);
    fs.writeFileSync(catalogPath, 'servido otra vez');
    second.price = 557;
    expect((await publishEdit([String(second.id)], io().io)).mode).toBe('fast');
    expect([...entriesOf().entries.keys()]).toEqual([String(second.id)]);
    expect(fs.readFileSync(catalogPath, 'utf8')).toBe('servido otra vez');

    // As many entries as the file holds: the next edit writes the catalogue whole, and the entries go.
    const base = fileIdentity(fs.statSync(catalogPath));
    const many = Array.from({ length: EDITS_MOST }, (_, k) => JSON.stringify({ id: `relleno-${k}` }));
    fs.writeFileSync(editsPath, `{"base":${JSON.stringify(base)},"products":[${many.join(',')}]}`);
    first.price = 1001;
    const result = await publishEdit([String(first.id)], io().io);
    expect(result.mode === 'fast' && result.written).toContain('explore/catalog.json');
    expect(result.mode === 'fast' && result.written).not.toContain('explore/catalog-edits.json');
    expect(fs.existsSync(editsPath)).toBe(false);
    const whole = readCatalogFile(fs.readFileSync(catalogPath))!.data;
    expect(whole.products.map((p) => p.id)).toEqual(exploreDataWith(catalogOf(rows), STORAGE).products.map((p) => p.id));
    expect(whole.products.find((p) => p.id === String(first.id))).toMatchObject({ priceCentavos: 100100 });
    expect(whole.products.find((p) => p.id === String(second.id))).toMatchObject({ priceCentavos: 55700 });
  });

  it('with no ids it only reads the served catalogue, which the next edit then uses', async () => {
    const manifest = fs.readFileSync(manifestFile(client), 'utf8');
    const manifestSlices = manifestSlicesMade();
    const warmed = await publishEdit([], io().io);
    expect(warmed).toMatchObject({ mode: 'fast', written: [], removed: [] });
    expect(fs.readFileSync(manifestFile(client), 'utf8')).toBe(manifest);
    expect(fs.existsSync(manifestEditsFile(manifestFile(client)))).toBe(false);
    // The manifest's text is made ahead, by slices the edit reuses (the manifest read is new).
    expect(manifestSlicesMade()).toBeGreaterThan(manifestSlices);
    fs.writeFileSync(snapshotFile, 'no es JSON');
    const row = edited();
    row.price = 321;
    expect((await publishEdit([String(row.id)], io().io)).mode).toBe('fast');
  });

  it('leaves to a build a product that appears, disappears or moves, and writes nothing', async () => {
    const before = fs.readFileSync(manifestFile(client), 'utf8');
    const row = edited();
    const id = String(row.id);
    row.available = false;
    expect(await publishEdit([id], io().io)).toEqual({ mode: 'fallback', reason: 'un producto aparece o deja de mostrarse' });
    row.available = true;
    row.expansion_id = 'journey-together';
    expect(await publishEdit([id], io().io)).toEqual({ mode: 'fallback', reason: 'un producto cambió de franquicia, expansión o tipo' });
    row.expansion_id = 'destined-rivals';
    rows.push({ ...row, id: 'pk-nuevo', name: 'Producto nuevo' });
    expect(await publishEdit(['pk-nuevo'], io().io)).toEqual({ mode: 'fallback', reason: 'un producto aparece o deja de mostrarse' });
    expect(fs.readFileSync(manifestFile(client), 'utf8')).toBe(before);
    expect(fs.existsSync(manifestEditsFile(manifestFile(client)))).toBe(false);
    expect(served(productPath(id))).toBe(`servido ${productPath(id)}`);
  });

  it('without a manifest it leaves the edit to a build', async () => {
    fs.rmSync(manifestFile(client));
    expect(await publishEdit([String(edited().id)], io().io)).toEqual({ mode: 'fallback', reason: 'no hay manifiesto de la compilación servida' });
  });

  it('a page that fails to render leaves every served file, the manifest and the copy as they were', async () => {
    const row = edited();
    const id = String(row.id);
    row.price = 1;
    const manifest = fs.readFileSync(manifestFile(client), 'utf8');
    const copy = fs.readFileSync(snapshotFile, 'utf8');
    expect(fs.existsSync(editsFile(snapshotFile))).toBe(false);
    const fake = io({
      render: async (job) => {
        if (job.kind !== 'product') throw new Error('La página no se pudo generar (HTTP 500).');
        return 'nueva';
      },
    });
    await expect(publishEdit([id], fake.io)).rejects.toThrow('HTTP 500');
    expect(served(productPath(id))).toBe(`servido ${productPath(id)}`);
    expect(served('/explore/catalog.json')).toBe('servido /explore/catalog.json');
    expect(fs.readFileSync(manifestFile(client), 'utf8')).toBe(manifest);
    expect(fs.existsSync(manifestEditsFile(manifestFile(client)))).toBe(false);
    expect(fs.readFileSync(snapshotFile, 'utf8')).toBe(copy);
    expect(fs.existsSync(editsFile(snapshotFile))).toBe(false);
  });

  it('an edit that fails after another leaves nothing of its own in the manifest the next edit writes', async () => {
    const first = edited();
    first.price = 999;
    expect((await publishEdit([String(first.id)], io().io)).mode).toBe('fast');
    const failing = rows.find((row) => row.franchise_id === 'one-piece')!;
    const digest = readManifest(manifestFile(client))!.products[String(failing.id)];
    failing.price = 111;
    const broken = io({
      render: async () => {
        throw new Error('La página no se pudo generar (HTTP 500).');
      },
    });
    await expect(publishEdit([String(failing.id)], broken.io)).rejects.toThrow('HTTP 500');
    // The next edit (another product) starts again from the files: the failed one's page was
    // never written, so its digest stays the one its served page was made from.
    const next = rows.find((row) => row.franchise_id === 'pokemon' && row.id !== first.id)!;
    next.price = 777;
    expect((await publishEdit([String(next.id)], io().io)).mode).toBe('fast');
    const manifest = readManifest(manifestFile(client))!;
    expect(manifest.products[String(failing.id)]).toBe(digest);
    expect(manifest.products[String(next.id)]).not.toBe(digest);
    expect(served(productPath(String(failing.id)))).toBe(`servido ${productPath(String(failing.id))}`);
  });
});

describe('render jobs of a plan', () => {
  it('gives each planned path its route and props, and names a path no route renders', () => {
    const catalog = catalogOf(demoProductRows());
    const listing = expansionListingPath('pokemon', 'destined-rivals');
    const planned = renderJobs(['/', listing], catalog);
    expect('jobs' in planned && planned.jobs.map((job) => [job.kind, job.path])).toEqual([
      ['home', '/'],
      ['expansion-listing', `${listing}/`],
    ]);
    expect(renderJobs([pageHref(listing, 99)], catalog)).toEqual({ missing: pageHref(listing, 99) });
    expect(renderJobs(['/franquicias'], catalog)).toEqual({ missing: '/franquicias' });
  });

  it("finds a product page's product through `find` as through the catalogue, and names one `find` does not know", () => {
    const catalog = catalogOf(demoProductRows());
    const [first, second] = catalog.products;
    const paths = [productPath(second!.id), productPath(first!.id)];
    const looked: string[] = [];
    const find = (id: string) => {
      looked.push(id);
      return catalog.products.find((p) => p.id === id);
    };
    const through = renderJobs(paths, catalog);
    const found = renderJobs(paths, catalog, find);
    expect('jobs' in found && found.jobs.map((job) => job.path).sort()).toEqual('jobs' in through && through.jobs.map((job) => job.path).sort());
    expect('jobs' in found && found.jobs.find((job) => job.path === `${productPath(first!.id)}/`)?.props).toEqual(
      'jobs' in through && through.jobs.find((job) => job.path === `${productPath(first!.id)}/`)?.props,
    );
    expect(looked.sort()).toEqual([first!.id, second!.id].sort());
    expect(renderJobs([productPath('pk-no-existe')], catalog, () => undefined)).toEqual({ missing: productPath('pk-no-existe') });
  });
});

const root = process.cwd();
// Inside the project (git-ignored dist-*), where the built server resolves node_modules.
let tmp = '';
let server: http.Server | null = null;
afterAll(() => {
  server?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** `astro build` of the catalogue copy `snapshotFile` into `outDir`, leaving its manifest in `manifest`. */
async function build(outDir: string, snapshotFile: string, manifest: string): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, CATALOG_SNAPSHOT_FILE: snapshotFile, SITE_URL: 'http://tienda.test', CATALOG_BUILD_MANIFEST: manifest };
  // No backend: the build reads the catalogue from the copy alone.
  delete env.PUBLIC_SUPABASE_URL;
  delete env.PUBLIC_SUPABASE_ANON_KEY;
  delete env.CATALOG_PREVIOUS_MANIFEST;
  delete env.CATALOG_CHANGED_IDS;
  await runBuild({ root, outDir, env });
}

describe('an edit the server publishes equals a full build (a real `astro build` of the demo catalogue, served by its own server bundle)', () => {
  it('writes the product page, its listings, the home page and /explore as a full build of the edited catalogue does', { timeout: 600_000 }, async () => {
    tmp = fs.mkdtempSync(path.join(root, 'dist-fast-edit-'));
    const rows = demoProductRows();
    const snapshotFile = path.join(tmp, 'snapshot.json');
    writeSnapshot(snapshotFile, rows);
    const outDir = path.join(tmp, 'served');
    const builtManifest = path.join(tmp, 'served-manifest.json');
    await build(outDir, snapshotFile, builtManifest);
    const client = prepareOutput(outDir);
    fs.copyFileSync(builtManifest, manifestFile(client));

    // The served build's own server bundle, as scripts/serve.mjs runs it.
    process.env.ASTRO_NODE_AUTOSTART = 'disabled';
    const { handler } = (await import(/* @vite-ignore */ pathToFileURL(path.join(outDir, 'server', 'entry.mjs')).href)) as {
      handler: (req: http.IncomingMessage, res: http.ServerResponse) => void;
    };
    server = http.createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

    // A product on the home page's sliders, renamed and repriced.
    const edited = rows.find((row) => row.expansion_id === 'destined-rivals' && row.product_type_id === 'elite-trainer-box')!;
    const id = String(edited.id);
    edited.name = 'Elite Trainer Box Rivales Renombrada';
    edited.price = 4321.5;
    const result = await publishEdit([id], {
      servedClient: client,
      snapshotFile,
      readRows: async (ids) => rows.filter((row) => ids.includes(String(row.id))),
      render: (job) => renderThrough(origin, job),
      storageUrl: projectUrl(undefined),
    });
    expect(result.mode).toBe('fast');
    const written = result.mode === 'fast' ? result.written : [];
    // The renamed product's search file (the demo catalogue's is one, the whole index) is written with its pages.
    expect(written).toEqual(expect.arrayContaining([fileForPath(`/product/${id}`), 'index.html', 'explore/catalog-edits.json', 'search-index.json']));
    expect(result).toMatchObject({ searchFollows: false });
    expect(written.some((file) => file.startsWith('franchise/pokemon/expansions/destined-rivals/products/'))).toBe(true);
    expect(written.some((file) => file.startsWith('franchise/pokemon/product-types/elite-trainer-box/products/'))).toBe(true);
    expect(fs.readFileSync(path.join(client, fileForPath(`/product/${id}`)), 'utf8')).toContain('Elite Trainer Box Rivales Renombrada');

    // The render routes show nothing to anyone else.
    for (const kind of ['product', 'home', 'expansion-listing', 'type-listing']) {
      const response = await fetch(`${origin}/catalog-render/${kind}`, { headers: { 'x-catalog-render': 'adivinado' } });
      expect(response.status, kind).toBe(404);
    }

    // A full build of the same catalogue (the copy the edit saved) writes the same bytes.
    const fullDir = path.join(tmp, 'full');
    await build(fullDir, snapshotFile, path.join(tmp, 'full-manifest.json'));
    for (const file of written.filter((name) => name !== 'explore/catalog-edits.json')) {
      expect(fs.readFileSync(path.join(client, file), 'utf8'), file).toBe(fs.readFileSync(path.join(fullDir, 'client', file), 'utf8'));
    }
    // /explore's catalogue with the edit's entries beside it reads as the full build's catalogue.
    const explore = await readCatalogWithEdits(path.join(client, 'explore', 'catalog.json'));
    expect(explore!.data).toEqual(readCatalogFile(fs.readFileSync(path.join(fullDir, 'client', 'explore', 'catalog.json')))!.data);
    expect(explore!.data.products.find((p) => p.id === id)!.name).toBe('Elite Trainer Box Rivales Renombrada');
    expect(currentBuild(outDir)).toBe(client);
  });
});
