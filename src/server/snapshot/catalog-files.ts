/**
 * The catalogue files made from the whole catalogue, the same for a build (catalog.ts) and for an
 * edit the running server publishes (../rebuild/fast-edit.ts): the header search's files and
 * /explore's catalogue. Pure: the Supabase project URL that image paths resolve against is given.
 */
import { buildSearchShards, type SearchShardFile } from '~/domain/header-search/shards.ts';
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

/** The header search's files (src/domain/header-search/) by URL path. */
export function catalogSearchFiles(catalog: FilesCatalog, storageUrl: string): Map<string, SearchShardFile> {
  const tagsOf = catalogTagger(catalog.franchises, catalog.expansions, catalog.productTypes);
  return buildSearchShards(
    catalog.products.map((product) => ({
      id: product.id,
      name: product.name,
      image: productImages(product)[0] ?? '',
      card: productCard(product),
      // Found by its franchise, expansion and type names too, as /explore finds it (parseExploreData).
      tags: tagsOf(product.name, product.franchise_id, product.expansion_id, product.product_type_id),
    })),
    storageUrl,
    undefined,
    [...catalog.franchises, ...catalog.expansions, ...catalog.productTypes].map((item) => item.name),
  );
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
 * `JSON.stringify(exploreDataWith(catalog, storageUrl))`, the same text, with each product's entry
 * made once and kept while its product object lives: the running server writes the file again
 * for each edit (src/server/rebuild/fast-edit.ts), where only the edited products are new objects.
 */
export function exploreJson(catalog: FilesCatalog, storageUrl: string): string {
  const { products: _products, readFrom: _readFrom, ...options } = exploreDataWith({ ...catalog, products: [], readFrom: null }, storageUrl);
  const entries = catalog.products.map((product) => {
    const known = exploreEntries.get(product);
    if (known && known.storageUrl === storageUrl) return known.json;
    const json = JSON.stringify(toExploreProduct(product, resolveImage(product.image || product.images[0], storageUrl)));
    exploreEntries.set(product, { storageUrl, json });
    return json;
  });
  const head = JSON.stringify(options).slice(0, -1);
  const tail = catalog.readFrom ? `,"readFrom":${JSON.stringify(catalog.readFrom)}` : '';
  return `${head},"products":[${entries.join(',')}]${tail}}`;
}
