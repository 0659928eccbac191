/**
 * /explore's catalogue as the running server writes it after an edit (exploreJson, each product's
 * entry kept) is the same text as the build's JSON.stringify of exploreDataWith.
 */
import { describe, expect, it } from 'vitest';
import { demoProductRows } from '../../../support/demo-rows.ts';
import { stepped } from '../../../support/steps.ts';
import { runSteps } from '~/domain/steps.ts';
import {
  catalogSearchFiles,
  catalogSearchUpdate,
  exploreDataWith,
  exploreJsonInSteps,
  prepareCatalogSearchUpdate,
  type FilesCatalog,
} from '~/server/snapshot/catalog-files.ts';
import type { ServedShards } from '~/domain/header-search/shard-update.ts';
import type { SearchNodeFile, SearchShardFile } from '~/domain/header-search/shards.ts';
import { mergeSnapshot } from '~/server/snapshot/model.ts';
import { centavos } from '~/domain/money.ts';

const STORAGE = 'https://proyecto.test';

/** /explore's catalogue as the running server writes it: its parts one after the other. */
const exploreJson = (catalog: FilesCatalog, storageUrl: string) => runSteps(exploreJsonInSteps(catalog, storageUrl)).join('');

describe("/explore's catalogue text", () => {
  it('is JSON.stringify of the catalogue, with and without readFrom, before and after a product changes', () => {
    const snapshot = mergeSnapshot({ franchises: [], collections: [], expansions: [], productTypes: [], products: demoProductRows() }, null).snapshot;
    const catalog = { ...snapshot, readFrom: null };
    expect(exploreJson(catalog, STORAGE)).toBe(JSON.stringify(exploreDataWith(catalog, STORAGE)));
    const read = { ...catalog, readFrom: '2026-11-30T07:00:00.000Z' };
    expect(exploreJson(read, STORAGE)).toBe(JSON.stringify(exploreDataWith(read, STORAGE)));
    // An edit replaces one product object; the others' kept entries are reused.
    const [first, ...rest] = catalog.products;
    const edited = { ...catalog, products: [{ ...first!, name: 'Nombre nuevo', priceCentavos: centavos(12_345) }, ...rest] };
    const text = exploreJson(edited, STORAGE);
    expect(text).toBe(JSON.stringify(exploreDataWith(edited, STORAGE)));
    expect(text).toContain('Nombre nuevo');
    // Another storage URL is not served from the kept entries.
    expect(exploreJson(edited, 'https://otro.test')).toBe(JSON.stringify(exploreDataWith(edited, 'https://otro.test')));
  });
});

describe('the work the running server does over every product', () => {
  // The demo catalogue's rows again and again under other ids: thousands of products.
  const many = mergeSnapshot(
    {
      franchises: [],
      collections: [],
      expansions: [],
      productTypes: [],
      products: Array.from({ length: 25 }, (_, k) =>
        demoProductRows().map((row) => ({ ...row, id: `${String(row.id)}-${k}`, name: `${String(row.name)} ${k}` })),
      ).flat(),
    },
    null,
  ).snapshot;
  const catalog = { ...many, readFrom: null };

  it("makes /explore's catalogue in steps that pause between slices, the same text in parts", () => {
    expect(catalog.products.length).toBeGreaterThan(2000);
    const { pauses, value } = stepped(exploreJsonInSteps(catalog, STORAGE));
    // In parts, written one after the other: no string of the whole text is made.
    expect(value.length).toBeGreaterThan(3);
    expect(value.join('')).toBe(JSON.stringify(exploreDataWith(catalog, STORAGE)));
    expect(pauses).toBeGreaterThanOrEqual(2);
  });

  it("readies the header search's update in steps that pause between slices, and an edit after it makes a whole build's files", () => {
    const { pauses } = stepped(prepareCatalogSearchUpdate(catalog, STORAGE));
    expect(pauses).toBeGreaterThanOrEqual(4);
    const files = catalogSearchFiles(catalog, STORAGE);
    const [first, ...rest] = catalog.products;
    const edited = { ...catalog, products: [{ ...first!, name: 'Otro nombre del producto' }, ...rest] };
    const update = runSteps(catalogSearchUpdate(edited, [first!], STORAGE, served(files)))!;
    for (const [urlPath, file] of catalogSearchFiles(edited, STORAGE))
      if (update.files.has(urlPath)) expect(JSON.stringify(update.files.get(urlPath))).toBe(JSON.stringify(file));
    expect(JSON.stringify([...update.files.values()])).toContain('Otro nombre del producto');
  });
});

/** Served files as a reader of the served folder gives them. */
function served(files: Map<string, SearchShardFile>): ServedShards {
  return {
    kind: (urlPath) => (({ 1: 'leaf', 2: 'node' }) as const)[files.get(urlPath)?.v as 1 | 2] ?? null,
    node: (urlPath) => (files.get(urlPath)?.v === 2 ? (files.get(urlPath) as SearchNodeFile) : null),
  };
}

describe("the header search's files after an edit", () => {
  const snapshot = mergeSnapshot({ franchises: [], collections: [], expansions: [], productTypes: [], products: demoProductRows() }, null).snapshot;
  const catalog = { ...snapshot, readFrom: null };

  it('are the files of the edited catalogue, made from the kept rows and the edited product alone', () => {
    runSteps(prepareCatalogSearchUpdate(catalog, STORAGE));
    const files = catalogSearchFiles(catalog, STORAGE);
    const [first, ...rest] = catalog.products;
    const edited = { ...catalog, products: [{ ...first!, name: 'Nombre nuevo del producto' }, ...rest] };
    const update = runSteps(catalogSearchUpdate(edited, [first!], STORAGE, served(files)))!;
    const whole = catalogSearchFiles(edited, STORAGE);
    expect([...update.files.keys()]).toEqual([...whole.keys()]);
    for (const [urlPath, file] of whole) expect(JSON.stringify(update.files.get(urlPath))).toBe(JSON.stringify(file));
    expect(JSON.stringify(update.files.get('/search-index.json'))).toContain('Nombre nuevo del producto');
  });

  it('index the products again for another taxonomy: kept rows are by the taxonomy their tags came from', () => {
    const named = (name: string) => ({ ...catalog, franchises: [{ id: 'pokemon', name, logo: '' }] });
    const before = named('Pokémon');
    const files = catalogSearchFiles(before, STORAGE);
    expect(JSON.stringify(files.get('/search-index.json'))).toContain('pokemon');
    runSteps(prepareCatalogSearchUpdate(before, STORAGE));
    const [first, ...rest] = catalog.products;
    const after = { ...named('Monstruos de bolsillo'), products: [{ ...first!, name: `${first!.name} nuevo` }, ...rest] };
    const update = runSteps(catalogSearchUpdate(after, [first!], STORAGE, served(files)))!;
    const text = JSON.stringify(update.files.get('/search-index.json'));
    expect(text).toBe(JSON.stringify(catalogSearchFiles(after, STORAGE).get('/search-index.json')));
    expect(text).toContain('monstruos de bolsillo');
  });

  it('are left to a build when an edited product is not in the catalogue after the edit', () => {
    const files = catalogSearchFiles(catalog, STORAGE);
    const [first, ...rest] = catalog.products;
    expect(runSteps(catalogSearchUpdate({ ...catalog, products: rest }, [first!], STORAGE, served(files)))).toBeNull();
  });
});
