/**
 * What the prebuilt pages read: the snapshot collections as plain, ordered arrays plus lookups,
 * loaded once per build.
 */
import { getCollection } from 'astro:content';
import { isListed, type Product } from '../../domain/products.ts';
import { resolveImage } from '../../domain/images.ts';
import { supabaseUrl } from '../../data/supabase.ts';
import type { SnapshotCollection, SnapshotExpansion, SnapshotFranchise, SnapshotProductType } from './model.ts';

/** The whole catalogue for page building. */
export interface BuildCatalog {
  /**
   * The products shoppers may see. Unavailable ones are left out here, once, so every list,
   * picker, product page, /explore, the search index and the sitemap hide them alike.
   */
  products: Product[];
  franchises: SnapshotFranchise[];
  collections: SnapshotCollection[];
  expansions: SnapshotExpansion[];
  productTypes: SnapshotProductType[];
  productById: Map<string, Product>;
  franchiseById: Map<string, SnapshotFranchise>;
  expansionById: Map<string, SnapshotExpansion>;
  productTypeById: Map<string, SnapshotProductType>;
}

function ordered<T extends { position: number }>(entries: Array<{ data: T }>): Array<Omit<T, 'position'>> {
  return entries
    .map((entry) => entry.data)
    .sort((a, b) => a.position - b.position)
    .map(({ position: _position, ...rest }) => rest);
}

let cached: Promise<BuildCatalog> | null = null;

/** The build's catalogue (snapshot merged with the static catalogue). */
export function getBuildCatalog(): Promise<BuildCatalog> {
  cached ??= (async () => {
    const [products, franchises, collections, expansions, productTypes] = await Promise.all([
      getCollection('products'),
      getCollection('franchises'),
      getCollection('collections'),
      getCollection('expansions'),
      getCollection('productTypes'),
    ]);
    const catalog = {
      products: (ordered(products) as Product[]).filter(isListed),
      franchises: ordered(franchises),
      collections: ordered(collections),
      expansions: ordered(expansions),
      productTypes: ordered(productTypes),
    };
    return {
      ...catalog,
      productById: new Map(catalog.products.map((item) => [item.id, item])),
      franchiseById: new Map(catalog.franchises.map((item) => [item.id, item])),
      expansionById: new Map(catalog.expansions.map((item) => [item.id, item])),
      productTypeById: new Map(catalog.productTypes.map((item) => [item.id, item])),
    };
  })();
  return cached;
}

/** The URL of a stored image path (storage paths resolve against the Supabase project). */
export function imageUrl(src: string | null | undefined): string {
  return resolveImage(src, supabaseUrl());
}
