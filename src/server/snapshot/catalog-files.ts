/**
 * The catalogue files made from the whole catalogue, the same for a build (catalog.ts) and for an
 * edit the running server publishes (../rebuild/fast-edit.ts): the header search's files and
 * /explore's catalogue. Pure: the Supabase project URL that image paths resolve against is given.
 */
import { buildSearchShards, type SearchShardFile } from '~/domain/header-search/shards.ts';
import { prepareSearchUpdate, updateSearchShards, type ServedShards, type ShardEdit, type ShardUpdate } from '~/domain/header-search/shard-update.ts';
import type { Steps } from '~/domain/steps.ts';
import type { IndexedProduct } from '~/domain/header-search/format.ts';
import { productCard } from '~/domain/header-search/cards.ts';
import { catalogTagger } from '~/domain/name-matching/matching.ts';
import { toExploreProduct, type ExploreData } from '~/domain/explore.ts';
import { resolveImage } from '~/domain/images.ts';
import { productImages, type Product } from '~/domain/products.ts';
import type { SnapshotExpansion, SnapshotFranchise, SnapshotProductType } from './model.ts';

/** What these files read of a catalogue. */
export interface FilesCatalog {
  products: readonly Product[];
  franchises: readonly SnapshotFranchise[];
  expansions: readonly SnapshotExpansion[];
  productTypes: readonly SnapshotProductType[];
  /** When the read of the whole catalogue these products come from started, if they all do. */
  readFrom?: string | null;
}

/** Each product as the header search indexed it, with the taxonomy its tags came from (kept by the running server). */
const indexedRows = new WeakMap<Product, { taxonomy: readonly unknown[]; row: IndexedProduct }>();

/**
 * The catalogue's products as the header search indexes them. `keep`: each product's row is kept
 * while the product object lives (products are never changed in place), so the running server
 * indexes only the edited products again; a build indexes each product once and keeps nothing.
 */
function indexedProducts(catalog: FilesCatalog, keep = false): (product: Product) => IndexedProduct {
  const tagsOf = catalogTagger(catalog.franchises, catalog.expansions, catalog.productTypes);
  const taxonomy = [catalog.franchises, catalog.expansions, catalog.productTypes];
  const index = (product: Product): IndexedProduct => ({
    id: product.id,
    name: product.name,
    image: productImages(product)[0] ?? '',
    card: productCard(product),
    // Found by its franchise, expansion and type names too, as /explore finds it (parseExploreData).
    tags: tagsOf(product.name, product.franchise_id, product.expansion_id, product.product_type_id),
  });
  if (!keep) return index;
  return (product) => {
    const known = indexedRows.get(product);
    if (known && known.taxonomy.every((list, i) => list === taxonomy[i])) return known.row;
    const row = index(product);
    indexedRows.set(product, { taxonomy, row });
    return row;
  };
}

/** The catalogue names that may get an answer file of their own (buildSearchShards' phrases). */
function phraseNames(catalog: FilesCatalog): string[] {
  return [...catalog.franchises, ...catalog.expansions, ...catalog.productTypes].map((item) => item.name);
}

/** The header search's files (src/domain/header-search/) by URL path. */
export function catalogSearchFiles(catalog: FilesCatalog, storageUrl: string): Map<string, SearchShardFile> {
  return buildSearchShards(catalog.products.map(indexedProducts(catalog)), storageUrl, undefined, phraseNames(catalog));
}

/**
 * The header search's files an edit changes (updateSearchShards): `catalog` is the catalogue after
 * the edit, `before` the edited products as the served files show them (the same ids, in the same
 * taxonomy). Null when a build must make the files. In steps, as updateSearchShards is.
 */
export function* catalogSearchUpdate(catalog: FilesCatalog, before: readonly Product[], storageUrl: string, served: ServedShards): Steps<ShardUpdate | null> {
  const index = indexedProducts(catalog, true);
  // Few products are edited at once: each is looked for among the catalogue's, not all put in a map.
  const now = before.length > FEW_EDITS ? new Map(catalog.products.map((product) => [product.id, product])) : null;
  const edits: ShardEdit[] = [];
  for (const product of before) {
    const after = now ? now.get(product.id) : catalog.products.find((item) => item.id === product.id);
    if (!after) return null;
    edits.push({ before: index(product), after: index(after) });
  }
  const rows = indexedRowsOf(catalog, index);
  yield;
  return yield* updateSearchShards(rows, edits, served, storageUrl, undefined, phraseNames(catalog));
}

/** Most edited products looked for one by one (catalogSearchUpdate). */
const FEW_EDITS = 16;

/** The last catalogue's products indexed (indexedRowsOf), the same objects in the same places. */
let lastIndexed: { products: readonly Product[]; taxonomy: readonly unknown[]; rows: IndexedProduct[] } | null = null;

/**
 * The catalogue's products indexed, in its order: the last catalogue's rows where its product is
 * the same object in the same place (an edit replaces its products where they are), so an edit
 * does not look up 100,000 rows again.
 */
function indexedRowsOf(catalog: FilesCatalog, index: (product: Product) => IndexedProduct): IndexedProduct[] {
  const taxonomy = [catalog.franchises, catalog.expansions, catalog.productTypes];
  const known =
    lastIndexed && lastIndexed.products.length === catalog.products.length && lastIndexed.taxonomy.every((list, i) => list === taxonomy[i])
      ? lastIndexed
      : null;
  const rows = catalog.products.map((product, i) => (known && known.products[i] === product ? known.rows[i]! : index(product)));
  lastIndexed = { products: catalog.products, taxonomy, rows };
  return rows;
}

/**
 * Indexes the catalogue ahead of its first edit (prepareSearchUpdate): the running server, after it
 * reads the catalogue. In steps: a pause may go after every slice of products.
 */
export function* prepareCatalogSearchUpdate(catalog: FilesCatalog, storageUrl: string): Steps<Array<[urlPath: string, file: SearchShardFile]>> {
  const index = indexedProducts(catalog, true);
  const rows: IndexedProduct[] = [];
  for (const product of catalog.products) {
    rows.push(index(product));
    if (rows.length % ENTRIES_PER_STEP === 0) yield;
  }
  lastIndexed = { products: catalog.products, taxonomy: [catalog.franchises, catalog.expansions, catalog.productTypes], rows };
  return yield* prepareSearchUpdate(rows, storageUrl);
}

/** /explore's catalogue: the options of its filters and every product as /explore lists it. */
export function exploreDataWith(catalog: FilesCatalog, storageUrl: string): ExploreData {
  return {
    franchises: catalog.franchises.map(({ id, name }) => ({ id, name })),
    expansions: catalog.expansions.map(({ id, name, franchiseId }) => ({ id, name, franchiseId })),
    types: catalog.productTypes.map(({ id, name, franchiseId }) => ({ id, name, franchiseId })),
    products: catalog.products.map((product) => toExploreProduct(product, resolveImage(product.image || product.images[0], storageUrl))),
    ...(catalog.readFrom ? { readFrom: catalog.readFrom } : {}),
  };
}

/** Each product's entry in /explore's catalogue as JSON, by product object (products are never changed in place). */
const exploreEntries = new WeakMap<Product, { storageUrl: string; json: string }>();

/**
 * A product's entry in /explore's catalogue as JSON, as the catalogue has it: made once and kept
 * while its product object lives. Also the entry an edit writes beside the catalogue
 * (src/server/explore/catalog-edits.ts).
 */
export function exploreEntryJson(product: Product, storageUrl: string): string {
  const known = exploreEntries.get(product);
  if (known && known.storageUrl === storageUrl) return known.json;
  const json = JSON.stringify(toExploreProduct(product, resolveImage(product.image || product.images[0], storageUrl)));
  exploreEntries.set(product, { storageUrl, json });
  return json;
}

/** Entries made between two pauses of exploreJsonInSteps, and joined into one part of its text. */
const ENTRIES_PER_STEP = 500;

/**
 * The parts of `JSON.stringify(exploreDataWith(catalog, storageUrl))`, the same text once joined,
 * with each product's entry made once and kept while its product object lives: the running server
 * writes the file again for each edit (src/server/rebuild/fast-edit.ts), where only the edited
 * products are new objects. In steps (Steps), a pause possible after every ENTRIES_PER_STEP
 * products; in parts, because joining 100,000 entries into one string of 47 MB held the server
 * 380 ms (a script, 2026-12-01), and the parts are written one after another as they are.
 */
export function* exploreJsonInSteps(catalog: FilesCatalog, storageUrl: string): Steps<string[]> {
  const { products: _products, readFrom: _readFrom, ...options } = exploreDataWith({ ...catalog, products: [], readFrom: null }, storageUrl);
  const parts = [`${JSON.stringify(options).slice(0, -1)},"products":[`];
  let entries: string[] = [];
  const flush = () => {
    parts.push(`${parts.length > 1 ? ',' : ''}${entries.join(',')}`);
    entries = [];
  };
  for (const product of catalog.products) {
    entries.push(exploreEntryJson(product, storageUrl));
    if (entries.length === ENTRIES_PER_STEP) {
      flush();
      yield;
    }
  }
  if (entries.length > 0) flush();
  parts.push(`]${catalog.readFrom ? `,"readFrom":${JSON.stringify(catalog.readFrom)}` : ''}}`);
  return parts;
}
