/**
 * The catalogue snapshot the pages prebuild from: Supabase rows parsed and merged with the static
 * catalogue of src/domain/catalog.ts. Pure functions only, so the rules are unit-tested without a
 * backend; fetching and the disk copy live in ./fetch.ts and ./disk.ts.
 */
import { z } from 'zod';
import {
  collections as staticCollections,
  expansions as staticExpansions,
  franchises as staticFranchises,
  productTypes as staticProductTypes,
} from '~/domain/catalog.ts';
import { productSchema, type Product } from '~/domain/product-schema.ts';
import { runSteps, type Steps } from '~/domain/steps.ts';
import { API_SNAPSHOT_ROW_TEXT } from '~/i18n/api.ts';

/** A franchise as the pages use it. */
export interface SnapshotFranchise {
  id: string;
  name: string;
  logo: string;
}

/** A collection (block of releases) as the pages use it. */
export interface SnapshotCollection {
  id: string;
  name: string;
  franchiseId: string;
}

/** An expansion as the pages use it; `image` is a storage path or URL. */
export interface SnapshotExpansion {
  id: string;
  name: string;
  franchiseId: string;
  collectionId: string | null;
  image: string;
  releaseDate: string | null;
}

/** A product type as the pages use it. */
export interface SnapshotProductType {
  id: string;
  name: string;
  franchiseId: string;
  image: string;
}

/** Everything the catalogue pages are built from. */
export interface CatalogSnapshot {
  /** ISO time the rows were read from the backend; null when only the static catalogue is known. */
  fetchedAt: string | null;
  /**
   * ISO time a read of the whole catalogue from the backend started, when every row is from that
   * read; null when some rows are older (a build that read only the changed products) or unknown.
   * Every change since is either in the rows or after this time (the /explore live stock reads
   * from here, src/server/explore/catalog.ts).
   */
  wholeReadFrom: string | null;
  franchises: SnapshotFranchise[];
  collections: SnapshotCollection[];
  expansions: SnapshotExpansion[];
  productTypes: SnapshotProductType[];
  products: Product[];
}

/** Raw rows of the catalogue tables, as the REST API returns them. */
export interface CatalogRows {
  franchises: readonly unknown[];
  collections: readonly unknown[];
  expansions: readonly unknown[];
  productTypes: readonly unknown[];
  products: readonly unknown[];
}

/** A row left out of the snapshot, with why. */
export interface RejectedRow {
  table: string;
  id: string;
  reason: string;
}

const id = z.string().min(1);
const text = z
  .string()
  .nullish()
  .transform((value) => (value ?? '').trim());
const nullableText = z
  .string()
  .nullish()
  .transform((value) => (value && value.trim() !== '' ? value : null));

const franchiseRow = z.object({ id, name: text, logo: text });
const collectionRow = z.object({ id, name: text, franchise_id: id });
const expansionRow = z.object({
  id,
  name: text,
  franchise_id: id,
  collection_id: nullableText,
  image: text,
  release_date: nullableText,
});
const productTypeRow = z.object({ id, name: text, franchise_id: id, image: text });

function rowId(row: unknown): string {
  if (row && typeof row === 'object' && 'id' in row) {
    const value = (row as { id: unknown }).id;
    if (typeof value === 'string' || typeof value === 'number') return String(value);
  }
  return API_SNAPSHOT_ROW_TEXT.noId;
}

function describe(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || 'fila'}: ${issue.message}`)
    .join('; ');
}

function parseRows<T>(table: string, rows: readonly unknown[], schema: z.ZodType<T>, rejected: RejectedRow[]): T[] {
  return runSteps(parseRowsInSteps(table, rows, schema, rejected));
}

/**
 * Rows checked between two pauses of parseRowsInSteps: 12–15 ms of products on the project's
 * machine (100,000 products in 6–7 s of one core, 2026-12-01).
 */
const ROWS_PER_STEP = 200;

/** parseRows in steps (a pause may go after every ROWS_PER_STEP rows): the running server reads 100,000 products so. */
function* parseRowsInSteps<T>(table: string, rows: readonly unknown[], schema: z.ZodType<T>, rejected: RejectedRow[]): Steps<T[]> {
  const parsed: T[] = [];
  const seen = new Set<string>();
  let count = 0;
  for (const row of rows) {
    if (++count % ROWS_PER_STEP === 0) yield;
    const result = schema.safeParse(row);
    if (!result.success) {
      rejected.push({ table, id: rowId(row), reason: describe(result.error) });
      continue;
    }
    const key = rowId(row);
    // A repeated id would make two pages claim one URL; the first row wins.
    if (seen.has(key)) {
      rejected.push({ table, id: key, reason: 'id repetido' });
      continue;
    }
    seen.add(key);
    parsed.push(result.data);
  }
  return parsed;
}

/** Parses product rows; bad rows are returned in `rejected` with their id instead of thrown. */
export function parseProductRows(rows: readonly unknown[]): { products: Product[]; rejected: RejectedRow[] } {
  const rejected: RejectedRow[] = [];
  const products = parseRows('products', rows, productSchema, rejected);
  return { products, rejected };
}

// Static entries first, in catalogue order, then rows only the database knows, by name.
function mergeById<T extends { id: string; name: string }>(staticItems: readonly T[], dbItems: readonly T[], pick: (s: T | undefined, d: T) => T): T[] {
  const dbById = new Map(dbItems.map((item) => [item.id, item]));
  const merged = staticItems.map((item) => {
    const fromDb = dbById.get(item.id);
    return fromDb ? pick(item, fromDb) : item;
  });
  const staticIds = new Set(staticItems.map((item) => item.id));
  const extra = dbItems
    .filter((item) => !staticIds.has(item.id))
    .map((item) => pick(undefined, item))
    .filter((item) => item.name !== '')
    .sort((a, b) => a.name.localeCompare(b.name, 'es-MX'));
  return [...merged, ...extra];
}

// The database value unless it is blank, then the static one.
function prefer(db: string | null | undefined, fallback: string | null | undefined): string {
  return db && db.trim() !== '' ? db : (fallback ?? '');
}

/** The static catalogue alone (no products): what a build knows with no backend and no snapshot. */
export function staticSnapshot(): CatalogSnapshot {
  return mergeSnapshot({ franchises: [], collections: [], expansions: [], productTypes: [], products: [] }, null).snapshot;
}

/**
 * Parses the rows of every catalogue table and merges them with the static catalogue: database
 * values win, the static catalogue fills names, logos and images the database lacks, and entries
 * of either side are kept. Bad rows are left out and listed in `rejected`.
 */
export function mergeSnapshot(
  rows: CatalogRows,
  fetchedAt: string | null,
  wholeReadFrom: string | null = null,
): { snapshot: CatalogSnapshot; rejected: RejectedRow[] } {
  return runSteps(mergeSnapshotInSteps(rows, fetchedAt, wholeReadFrom));
}

/** mergeSnapshot in steps (Steps): a pause may go between two slices of the products' rows. */
export function* mergeSnapshotInSteps(
  rows: CatalogRows,
  fetchedAt: string | null,
  wholeReadFrom: string | null = null,
): Steps<{ snapshot: CatalogSnapshot; rejected: RejectedRow[] }> {
  const rejected: RejectedRow[] = [];

  const franchises = mergeById<SnapshotFranchise>(
    staticFranchises,
    parseRows('franchises', rows.franchises, franchiseRow, rejected).map((row) => ({ id: row.id, name: row.name, logo: row.logo })),
    (s, d) => ({ id: d.id, name: prefer(d.name, s?.name), logo: prefer(d.logo, s?.logo) }),
  );

  const collections = mergeById<SnapshotCollection>(
    staticCollections,
    parseRows('collections', rows.collections, collectionRow, rejected).map((row) => ({
      id: row.id,
      name: row.name,
      franchiseId: row.franchise_id,
    })),
    (s, d) => ({ id: d.id, name: prefer(d.name, s?.name), franchiseId: d.franchiseId }),
  );

  const expansions = mergeById<SnapshotExpansion>(
    staticExpansions.map((item) => ({
      id: item.id,
      name: item.name,
      franchiseId: item.franchiseId,
      collectionId: item.collectionId,
      image: item.image,
      releaseDate: item.releaseDate ?? null,
    })),
    parseRows('expansions', rows.expansions, expansionRow, rejected).map((row) => ({
      id: row.id,
      name: row.name,
      franchiseId: row.franchise_id,
      collectionId: row.collection_id,
      image: row.image,
      releaseDate: row.release_date,
    })),
    (s, d) => ({
      id: d.id,
      name: prefer(d.name, s?.name),
      franchiseId: d.franchiseId,
      collectionId: d.collectionId ?? s?.collectionId ?? null,
      image: prefer(d.image, s?.image),
      releaseDate: d.releaseDate ?? s?.releaseDate ?? null,
    }),
  );

  const productTypes = mergeById<SnapshotProductType>(
    staticProductTypes,
    parseRows('product_types', rows.productTypes, productTypeRow, rejected).map((row) => ({
      id: row.id,
      name: row.name,
      franchiseId: row.franchise_id,
      image: row.image,
    })),
    (s, d) => ({ id: d.id, name: prefer(d.name, s?.name), franchiseId: d.franchiseId, image: prefer(d.image, s?.image) }),
  );

  const products = yield* parseRowsInSteps('products', rows.products, productSchema, rejected);

  return {
    snapshot: { fetchedAt, wholeReadFrom, franchises, collections, expansions, productTypes, products },
    rejected,
  };
}

/**
 * Parses a snapshot read back from disk; null when the file is not a snapshot. `keepProduct`, when
 * given, keeps only the product rows whose id it accepts (one part of a build in parts).
 */
export function parseStoredSnapshot(value: unknown, keepProduct?: (id: string) => boolean): { snapshot: CatalogSnapshot; rejected: RejectedRow[] } | null {
  const stored = z
    .object({
      fetchedAt: z.string().nullable(),
      // Copies saved before it was recorded have none.
      wholeReadFrom: z.string().nullable().optional(),
      rows: z.object({
        franchises: z.array(z.unknown()),
        collections: z.array(z.unknown()),
        expansions: z.array(z.unknown()),
        productTypes: z.array(z.unknown()),
        products: z.array(z.unknown()),
      }),
    })
    .safeParse(value);
  if (!stored.success) return null;
  const rows = stored.data.rows;
  // Left out before parsing, so the products a build does not need never become objects.
  const products = keepProduct ? rows.products.filter((row) => keepProduct(rowId(row))) : rows.products;
  return mergeSnapshot({ ...rows, products }, stored.data.fetchedAt, stored.data.wholeReadFrom ?? null);
}
