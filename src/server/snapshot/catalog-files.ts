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
