/**
 * The seed's demo products as the products table holds them (snake_case columns), and a catalogue
 * copy on disk made of them: what the catalogue tests build and edit.
 */
import fs from 'node:fs';
import { demoProducts } from '../../scripts/seed/products.ts';
import { editsFile } from '~/server/snapshot/disk.ts';

/** The seed's rows as the products table holds them. */
export function demoProductRows(): Array<Record<string, unknown>> {
  return demoProducts().map((p) => ({
    id: p.id,
    name: p.name,
    description: p.description,
    price: p.price,
    original_price: p.originalPrice,
    discount: p.discount,
    preorder: p.preorder,
    stock: p.stock,
    limit_per_customer: p.limitPerCustomer,
    available: p.available,
    release_date: p.releaseDate,
    image: p.image,
    images: p.images,
    tags: p.tags,
    type: p.type,
    franchise_id: p.franchiseId,
    collection_id: p.collectionId,
    expansion_id: p.expansionId,
    product_type_id: p.productTypeId,
  }));
}

/** Writes `products` as the catalogue copy a build reads (src/server/snapshot/disk.ts), with no taxonomy rows (the static catalogue's) and no edits since. */
export function writeSnapshot(file: string, products: Array<Record<string, unknown>>): void {
  fs.rmSync(editsFile(file), { force: true });
  fs.writeFileSync(
    file,
    JSON.stringify({ fetchedAt: new Date().toISOString(), rows: { franchises: [], collections: [], expansions: [], productTypes: [], products } }),
  );
}
