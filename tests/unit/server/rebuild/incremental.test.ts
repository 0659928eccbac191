/**
 * A real `astro build` of the demo catalogue, then an incremental rebuild after one product's
 * name and price change: only the files that show it are rewritten (through a rename), every
 * other file keeps its inode and mtime.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoProductRows as rows, writeSnapshot } from '../../../support/demo-rows.ts';
import { stepped } from '../../../support/steps.ts';
import { formatMXN } from '~/domain/money.ts';
import { parseProduct } from '~/domain/product-schema.ts';
import { expansionListingPath, pagesShowing, productPath, typeListingPath, type RouteCatalog } from '~/domain/routes.ts';
import { createHash } from 'node:crypto';
import {
  contentFingerprint,
  exploreFingerprint,
  exploreFingerprintInSteps,
  fileForPath,
  manifestJsonInSteps,
  manifestSlicesMade,
  exploreSlicesMade,
  planBuild,
  productDigest,
  type FingerprintedFile,
  MANIFEST_VERSION,
  readManifest,
  type BuildManifest,
} from '~/server/rebuild/incremental.ts';
import { clientLink, currentBuild, manifestFile, prepareOutput } from '~/server/rebuild/served-folder.ts';
import { createBuilder, type PublishResult } from '~/server/rebuild/builder.ts';
import { runBuild } from '~/server/rebuild/build-process.ts';
import { mergeSnapshot } from '~/server/snapshot/model.ts';

const root = process.cwd();
// Inside the project (git-ignored dist-*), where the built server resolves node_modules.
const tmp = fs.mkdtempSync(path.join(root, 'dist-incremental-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Every file under dir with its inode and mtime. */
function snapshotFiles(dir: string): Map<string, { ino: number; mtimeMs: number }> {
  const out = new Map<string, { ino: number; mtimeMs: number }>();
  const walk = (sub: string) => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = path.posix.join(sub, entry.name);
      if (entry.isDirectory()) walk(rel);
      else {
        const stat = fs.statSync(path.join(dir, rel));
        out.set(rel, { ino: stat.ino, mtimeMs: stat.mtimeMs });
      }
    }
  };
  walk('');
  return out;
}

describe('incremental catalogue rebuild (real astro build of the demo catalogue)', () => {
  it('re-renders only the pages, shard and feeds that show the edited product, each replaced by a rename', { timeout: 900_000 }, async () => {
    const snapshotFile = path.join(tmp, 'snapshot.json');
    const products = rows();
    writeSnapshot(snapshotFile, products);
    const outDir = path.join(tmp, 'dist');
    fs.mkdirSync(path.join(outDir, 'client'), { recursive: true });
    fs.writeFileSync(path.join(outDir, 'client', 'index.html'), 'antes de la primera compilación');
    prepareOutput(outDir);

    const env: NodeJS.ProcessEnv = { ...process.env, CATALOG_SNAPSHOT_FILE: snapshotFile, SITE_URL: 'http://tienda.test' };
    // No backend: the build reads the catalogue from the snapshot file alone.
    delete env.PUBLIC_SUPABASE_URL;
    delete env.PUBLIC_SUPABASE_ANON_KEY;
    const results: PublishResult[] = [];
    const build = createBuilder({ root, outDir, env, keepOldMs: 0, codeKey: () => 'misma-version' }, (result) => results.push(result));

    // First start: a full build, which leaves a manifest next to the client folder.
    await build(undefined, { productIds: ['pk-etb-destined-rivals'] });
    expect(results[0]!.mode).toBe('full');
    const client = currentBuild(outDir)!;
    expect(readManifest(manifestFile(client))?.mode).toBe('full');
    const before = snapshotFiles(clientLink(outDir));
    expect(before.size).toBeGreaterThan(200);

    // The admin edits one product's name and price.
    const edited = products.find((p) => p.expansion_id === 'destined-rivals' && p.product_type_id === 'elite-trainer-box')!;
    const id = String(edited.id);
    const untouched = products.find((p) => p.franchise_id === 'one-piece')!;
    edited.name = 'Elite Trainer Box Rivales Renombrada';
    edited.price = 4321.5;
    writeSnapshot(snapshotFile, products);
    await new Promise((resolve) => setTimeout(resolve, 20)); // mtimes of a rewrite must differ

    await build(undefined, { productIds: [id] });
    const result = results[1]!;
    expect(result.mode).toBe('incremental');
    // Published into the same build folder: no swap.
    expect(currentBuild(outDir)).toBe(client);

    const after = snapshotFiles(clientLink(outDir));
    const rewritten = [...after]
      .filter(([file, stat]) => {
        const old = before.get(file);
        return !old || old.ino !== stat.ino || old.mtimeMs !== stat.mtimeMs;
      })
      .map(([file]) => file);

    // Exactly the files the build says it wrote changed; each got a new inode (rename, not an
    // in-place write), and no temporary file is left behind.
    expect(new Set(rewritten)).toEqual(new Set(result.written));
    for (const file of rewritten) if (before.has(file)) expect(after.get(file)!.ino).not.toBe(before.get(file)!.ino);
    expect([...after.keys()].filter((file) => file.endsWith('.tmp'))).toEqual([]);

    // The pages that show the product, as src/domain/routes.ts computes them, are among them.
    const catalog = mergeSnapshot({ franchises: [], collections: [], expansions: [], productTypes: [], products }, null).snapshot;
    const routeCatalog: RouteCatalog = { ...catalog, products: catalog.products.filter((p) => parseProduct(p)?.available !== false) };
    const showing = pagesShowing(routeCatalog, [id]).map(fileForPath);
    expect(showing).toContain(fileForPath(productPath(id)));
    expect(showing).toContain(fileForPath(expansionListingPath('pokemon', 'destined-rivals')));
    expect(showing).toContain(fileForPath(typeListingPath('pokemon', 'elite-trainer-box')));
    for (const file of showing) expect(rewritten).toContain(file);
    expect(rewritten).toContain('search-index.json');
    // Little else: the feeds that list every product, the pickers that count them, the sitemap is untouched.
    expect(rewritten.length).toBeLessThan(showing.length + 6);
    expect(rewritten).not.toContain('sitemap-0.xml');

    // The edited page shows the new price and name; the search index has the new name.
    const page = fs.readFileSync(path.join(clientLink(outDir), fileForPath(productPath(id))), 'utf8');
    expect(page).toContain(formatMXN(4321.5));
    expect(page).toContain('Elite Trainer Box Rivales Renombrada');
    expect(fs.readFileSync(path.join(clientLink(outDir), 'search-index.json'), 'utf8')).toContain('Elite Trainer Box Rivales Renombrada');

    // A product of another franchise, its listings and the help pages keep their old files.
    for (const file of [
      fileForPath(productPath(String(untouched.id))),
      fileForPath(expansionListingPath('one-piece', String(untouched.expansion_id))),
      fileForPath('/envios'),
      '404.html',
    ]) {
      expect(before.get(file), file).toBeDefined();
      expect(after.get(file), file).toEqual(before.get(file));
    }
  });

  it('a full build in two parts writes the same files as one build, with every page in the sitemap', { timeout: 900_000 }, async () => {
    const snapshotFile = path.join(tmp, 'snapshot-parts.json');
    writeSnapshot(snapshotFile, rows());
    const env: NodeJS.ProcessEnv = { ...process.env, CATALOG_SNAPSHOT_FILE: snapshotFile, SITE_URL: 'http://tienda.test' };
    delete env.PUBLIC_SUPABASE_URL;
    delete env.PUBLIC_SUPABASE_ANON_KEY;
    const whole = path.join(tmp, 'whole');
    const parted = path.join(tmp, 'parted');
    await runBuild({ root, outDir: whole, env: { ...env, CATALOG_BUILD_MANIFEST: path.join(whole, 'manifest.json') } });
    await runBuild({ root, outDir: parted, env: { ...env, CATALOG_BUILD_MANIFEST: path.join(parted, 'manifest.json') }, parts: 2 });
    expect(fs.existsSync(`${parted}-part1`)).toBe(false);
    // The search files waited in a spool folder beside the output, gone once each build ended.
    for (const dir of [whole, parted]) expect(fs.existsSync(path.join(dir, '.search-spool'))).toBe(false);

    const files = (dir: string) => [...snapshotFiles(path.join(dir, 'client')).keys()].sort();
    const wholeFiles = files(whole);
    expect(files(parted)).toEqual(wholeFiles);
    const products = wholeFiles.filter((file) => file.startsWith('product/'));
    expect(products.length).toBeGreaterThan(100);
    // Every page and feed is the same, byte for byte (the sitemap is compared by its URLs).
    for (const file of wholeFiles.filter((f) => !f.startsWith('sitemap'))) {
      expect(fs.readFileSync(path.join(parted, 'client', file), 'utf8'), file).toBe(fs.readFileSync(path.join(whole, 'client', file), 'utf8'));
    }
    const locs = (dir: string) =>
      wholeFiles
        .filter((f) => /^sitemap-\d+\.xml$/.test(f))
        .flatMap((f) => [...fs.readFileSync(path.join(dir, 'client', f), 'utf8').matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]))
        .sort();
    expect(locs(parted)).toEqual(locs(whole));
    expect(locs(parted)).toContain(`http://tienda.test/product/${path.basename(path.dirname(products[0]!))}/`);
    // Part 0 plans the build: its manifest describes the whole catalogue as one build's does.
    expect(readManifest(path.join(parted, 'manifest.json'))?.files).toEqual(readManifest(path.join(whole, 'manifest.json'))?.files);
  });
});

describe("a file's fingerprint", () => {
  it("is the SHA-1 of its text's UTF-8 bytes, the same given the text or the bytes (fingerprints already served stay valid)", () => {
    for (const text of ['', '{"ids":["a"]}', 'Caja de sobres Pokémon · Escarlata y Púrpura ✓', 'x'.repeat(200_000) + 'ñ']) {
      const expected = createHash('sha1').update(text, 'utf8').digest('base64url').slice(0, 20);
      expect(contentFingerprint(text)).toBe(expected);
      expect(contentFingerprint(Buffer.from(text))).toBe(expected);
    }
    // Not the same as its Latin-1 bytes: a text with an accent is hashed as UTF-8.
    expect(contentFingerprint('Pokémon')).not.toBe(contentFingerprint(Buffer.from('Pokémon', 'latin1')));
  });
});

describe('the work an edit does over every product, in steps', () => {
  const products = Array.from({ length: 5000 }, (_, k) => ({ ...parseProduct(rows()[k % rows().length]!)!, id: `p-${k}`, stock: k % 3 === 0 ? null : k }));
  const digests = new Map(products.map((product, k) => [product.id, `d${k}`]));

  it("fingerprints /explore's catalogue a slice at a time, as the hash of its slices' hashes", () => {
    const { pauses, value } = stepped(exploreFingerprintInSteps(products, digests));
    const sha1 = (text: string) => createHash('sha1').update(text).digest('base64url').slice(0, 20);
    const slices: string[] = [];
    for (let start = 0; start < products.length; start += 2000) {
      const text = products
        .slice(start, start + 2000)
        .map((product) => `${product.id}:${digests.get(product.id)}:${product.stock ?? ''}`)
        .join(',');
      slices.push(`${sha1(text)},`);
    }
    expect(value).toBe(createHash('sha1').update(slices.join('')).digest('base64url').slice(0, 20));
    expect(exploreFingerprint(products, digests)).toBe(value);
    expect(pauses).toBeGreaterThanOrEqual(2);
  });

  it("fingerprints /explore's catalogue after an edit hashing again only the slices it changed", () => {
    const before = exploreFingerprint(products, digests);
    const made = exploreSlicesMade();
    expect(exploreFingerprint(products, digests)).toBe(before);
    expect(exploreSlicesMade()).toBe(made);
    // A digest changed in the first slice: one slice hashed again, another fingerprint.
    const edited = new Map(digests).set('p-10', 'edited');
    const afterEdit = exploreFingerprint(products, edited);
    expect(afterEdit).not.toBe(before);
    expect(exploreSlicesMade()).toBe(made + 1);
    // A stock changed in the last slice (a new product object): that slice again.
    const restocked = products.slice();
    restocked[4999] = { ...products[4999]!, stock: 77 };
    const afterStock = exploreFingerprint(restocked, edited);
    expect(afterStock).not.toBe(afterEdit);
    expect(exploreSlicesMade()).toBe(made + 2);
    // Back to the catalogue as it was: the same fingerprint as at first.
    expect(exploreFingerprint(products, digests)).toBe(before);
  });

  it("told an edit's places, compares only their slices with the last fingerprint's products", () => {
    const first = exploreFingerprint(products, digests);
    // Two products edited, in the first and the third slice (new objects, as an edit makes them).
    const after = products.slice();
    after[10] = { ...products[10]!, stock: 5 };
    after[4500] = { ...products[4500]!, name: 'Renombrado' };
    const edited = new Map(digests).set('p-4500', 'renamed');
    const made = exploreSlicesMade();
    const told = stepped(exploreFingerprintInSteps(after, edited, { from: products, places: [10, 4500] })).value;
    expect(exploreSlicesMade()).toBe(made + 2);
    // As the fingerprint made comparing every product.
    expect(exploreFingerprint(products, digests)).toBe(first);
    expect(exploreFingerprint(after, edited)).toBe(told);
    // It trusts the places: another change is not looked for, so a caller names every place it changed.
    const restocked = after.slice();
    restocked[2500] = { ...after[2500]!, stock: 999 };
    expect(stepped(exploreFingerprintInSteps(restocked, edited, { from: after, places: [] })).value).toBe(told);
    // Made from other products than the last fingerprint's: every product is compared.
    expect(stepped(exploreFingerprintInSteps(restocked, edited, { from: products, places: [] })).value).not.toBe(told);
    expect(exploreFingerprint(after, edited)).toBe(told);
  });

  it('writes the manifest in parts that parse to the same manifest, pausing between slices', () => {
    const manifest: BuildManifest = {
      v: MANIFEST_VERSION,
      mode: 'incremental',
      reason: null,
      files: Object.fromEntries(products.map((product, k) => [productPath(product.id), `f"${k}\\`])),
      products: Object.fromEntries(digests),
      render: ['/', '/product/p-1'],
      removed: [],
      searchBehind: true,
    };
    const { pauses, value } = stepped(manifestJsonInSteps(manifest));
    expect(value.length).toBeGreaterThan(3);
    expect(JSON.parse(Buffer.concat(value).toString())).toEqual(manifest);
    expect(pauses).toBeGreaterThanOrEqual(4);
    const empty: BuildManifest = { ...manifest, files: {}, products: {} };
    expect(manifestOf(manifestJsonInSteps(empty))).toEqual(empty);
  });

  /** A full build's manifest of the 5,000 products: a page and a digest each. */
  const fullManifest = (): BuildManifest => ({
    v: MANIFEST_VERSION,
    mode: 'full',
    reason: null,
    files: Object.fromEntries(products.map((product, k) => [productPath(product.id), `f${k}`])),
    products: Object.fromEntries(digests),
    render: [],
    removed: [],
  });

  it('writes the manifest again after an edit changed its records in place, making again only the slices that changed', () => {
    const manifest = fullManifest();
    const made = manifestSlicesMade();
    expect(manifestOf(manifestJsonInSteps(manifest))).toEqual(manifest);
    const whole = manifestSlicesMade() - made;
    expect(whole).toBeGreaterThanOrEqual(4);
    // Written again unchanged: no slice made.
    expect(manifestOf(manifestJsonInSteps(manifest))).toEqual(manifest);
    expect(manifestSlicesMade() - made).toBe(whole);
    // An edit: a digest and a fingerprint changed in the first slice, a page added at the end.
    manifest.products['p-3'] = 'changed';
    manifest.files[productPath('p-3')] = 'changed too';
    manifest.files['/nueva'] = 'new';
    manifest.mode = 'incremental';
    manifest.render = [productPath('p-3'), '/nueva'];
    expect(manifestOf(manifestJsonInSteps(manifest))).toEqual(manifest);
    expect(manifestSlicesMade() - made).toBe(whole + 3);
    // A page removed from the middle: the slices from it to the end are made again.
    delete manifest.files[productPath('p-2500')];
    expect(manifestOf(manifestJsonInSteps(manifest))).toEqual(manifest);
    expect(manifestOf(manifestJsonInSteps({ ...manifest, files: { ...manifest.files } }))).toEqual(manifest);
  });
});

/** The manifest manifestJsonInSteps' parts make, parsed. */
function manifestOf(steps: ReturnType<typeof manifestJsonInSteps>): BuildManifest {
  return JSON.parse(Buffer.concat(stepped(steps).value).toString()) as BuildManifest;
}

// planBuild's manifest from digests the caller made already (the build makes every product's
// digest once, for the pages' fingerprints and the manifest), and the plan it makes with them.
describe('planBuild with the digests made', () => {
  const catalog = mergeSnapshot({ franchises: [], collections: [], expansions: [], productTypes: [], products: rows() }, null).snapshot;
  const files: FingerprintedFile[] = [{ path: '/', fingerprint: 'home' }];
  const digests = new Map(catalog.products.map((product) => [product.id, productDigest(product)]));

  it('writes the digests it is given into the manifest, and makes the same ones itself without them', () => {
    expect(catalog.products.length).toBeGreaterThan(10);
    const made = planBuild(catalog, files, null);
    const given = planBuild(catalog, files, null, digests);
    expect(given).toEqual(made);
    expect(Object.keys(given.manifest.products)).toHaveLength(catalog.products.length);

    // The digests given are the ones written, not made again.
    const marked = new Map([...digests].map(([id, digest]) => [id, `given-${digest}`]));
    const plan = planBuild(catalog, files, null, marked);
    for (const product of catalog.products) expect(plan.manifest.products[product.id]).toBe(`given-${digests.get(product.id)}`);
  });

  it('plans nothing to render when the digests given are the previous build’s, and the changed product’s pages when one differs', () => {
    const previous = planBuild(catalog, files, null, digests).manifest;
    const same = planBuild(catalog, files, { previous, changedIds: [], maxChanged: 50 }, digests);
    expect(same.manifest.mode).toBe('incremental');
    expect(same.render).toEqual(new Set());

    const edited = catalog.products[0]!;
    const one = new Map(digests).set(edited.id, 'another');
    const plan = planBuild(catalog, files, { previous, changedIds: [], maxChanged: 50 }, one);
    expect(plan.render).toContain(productPath(edited.id));
  });
});
