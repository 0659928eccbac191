/**
 * What the prebuilt pages read: the snapshot collections as plain, ordered arrays plus lookups,
 * loaded once per build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { getCollection } from 'astro:content';
import { sharedCatalogSnapshot } from './loader.ts';
import { PUBLIC_SUPABASE_URL } from 'astro:env/client';
import { isListed, type Product } from '~/domain/products.ts';
import type { ExploreData } from '~/domain/explore.ts';
import { resolveImage } from '~/domain/images.ts';
import { franchiseTypesPath } from '~/domain/routes.ts';
import { projectUrl } from '../supabase.ts';
import { catalogSearchFiles, exploreDataWith } from './catalog-files.ts';
import { EXPLORE_CATALOG_PATH } from '../explore/catalog-edits.ts';
import {
  contentFingerprint,
  exploreFingerprint,
  pageFingerprints,
  planBuild,
  productDigest,
  requestFromEnv,
  writeManifest,
  type BuildPlan,
  type FingerprintedFile,
} from '../rebuild/incremental.ts';
import { PART_ENV, parsePart, partRenders } from '../rebuild/parts.ts';
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
  /** When the read of the whole catalogue these products come from started (CatalogSnapshot.wholeReadFrom). */
  readFrom?: string | null;
  productById: Map<string, Product>;
  franchiseById: Map<string, SnapshotFranchise>;
  expansionById: Map<string, SnapshotExpansion>;
  productTypeById: Map<string, SnapshotProductType>;
  /**
   * Whether this build renders the catalogue file at `path` (a URL path such as '/product/x' or
   * '/search/ab.json'): always in a full build, only changed files in an incremental one, and
   * only its share in one part of a build in parts.
   */
  renders(path: string): boolean;
}

function ordered<T extends { position: number }>(entries: Array<{ data: T }>): Array<Omit<T, 'position'>> {
  return entries
    .map((entry) => entry.data)
    .sort((a, b) => a.position - b.position)
    .map(({ position: _position, ...rest }) => rest);
}

/** Franchises, expansions and product types by id: what an on-demand product page needs. */
export interface CatalogLookups {
  franchises: SnapshotFranchise[];
  collections: SnapshotCollection[];
  expansions: SnapshotExpansion[];
  productTypes: SnapshotProductType[];
  franchiseById: Map<string, SnapshotFranchise>;
  expansionById: Map<string, SnapshotExpansion>;
  productTypeById: Map<string, SnapshotProductType>;
}

let lookups: Promise<CatalogLookups> | null = null;

/** The catalogue's small tables from the content store (also on the server, at request time). */
export function getCatalogLookups(): Promise<CatalogLookups> {
  lookups ??= (async () => {
    const [franchises, collections, expansions, productTypes] = await Promise.all([
      getCollection('franchises'),
      getCollection('collections'),
      getCollection('expansions'),
      getCollection('productTypes'),
    ]);
    const tables = {
      franchises: ordered(franchises),
      collections: ordered(collections),
      expansions: ordered(expansions),
      productTypes: ordered(productTypes),
    };
    return {
      ...tables,
      franchiseById: new Map(tables.franchises.map((item) => [item.id, item])),
      expansionById: new Map(tables.expansions.map((item) => [item.id, item])),
      productTypeById: new Map(tables.productTypes.map((item) => [item.id, item])),
    };
  })();
  return lookups;
}

let cached: Promise<BuildCatalog> | null = null;

/**
 * The build's catalogue (snapshot merged with the static catalogue). Build time only: products
 * come straight from the build's snapshot.
 */
export function getBuildCatalog(): Promise<BuildCatalog> {
  cached ??= (async () => {
    const [snapshot, tables] = await Promise.all([sharedCatalogSnapshot(console), getCatalogLookups()]);
    const catalog = {
      products: snapshot.products.filter(isListed),
      franchises: tables.franchises,
      collections: tables.collections,
      expansions: tables.expansions,
      productTypes: tables.productTypes,
    };
    // Planned on first use: only getStaticPaths asks, never an on-demand (server-rendered) page.
    let render: Set<string> | null | undefined;
    // A full build in parts (../rebuild/parts.ts) renders only its share of the files; part 0
    // plans the build and writes its manifest, the others render product pages only.
    const part = buildPart();
    const renders = (path: string) => {
      if (render === undefined) render = part && part.index > 0 ? null : planCatalogBuild(catalog).render;
      return (render === null || render.has(path)) && partRenders(part, path);
    };
    return {
      ...catalog,
      readFrom: snapshot.wholeReadFrom,
      productById: new Map(catalog.products.map((item) => [item.id, item])),
      franchiseById: tables.franchiseById,
      expansionById: tables.expansionById,
      productTypeById: tables.productTypeById,
      renders,
    };
  })();
  return cached;
}

/** Which part of a build in parts this build is, or null for a whole build. */
function buildPart(): { index: number; count: number } | null {
  return parsePart(process.env[PART_ENV]);
}

/** A part past the first: search files are part 0's (the others' copies would be dropped when the parts merge). */
function isLaterPart(): boolean {
  return (buildPart()?.index ?? 0) > 0;
}

type PlanCatalog = Pick<BuildCatalog, 'products' | 'franchises' | 'expansions' | 'productTypes'>;

/** A search file waiting on disk for its page to be rendered: its fingerprint and where its text is. */
interface SpooledShard {
  fingerprint: string;
  file: string;
}

let spooled: Map<string, SpooledShard> | null = null;

/** The folder beside this build's output (not in what is published) where search files wait. */
const SEARCH_SPOOL_FOLDER = '.search-spool';

/**
 * An empty spool folder in this build's output folder: removed when the build process ends, and
 * otherwise with the folder itself (a stopped server rebuild's staging folder is removed before
 * the next one), so a build killed halfway leaves nothing in the system's temp folder.
 */
function spoolFolder(): string {
  const dir = path.join(path.resolve(process.env.ASTRO_OUT_DIR || 'dist'), SEARCH_SPOOL_FOLDER);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * The header search's files (src/domain/header-search/) by URL path, built once. Each file's text is
 * fingerprinted and written to a spool folder as soon as it is made, so the build never holds
 * them all: at 100,000 products they are about 200 MB of JSON, which would otherwise stay in
 * memory while every product page renders (the search routes come last).
 */
function searchShards(catalog: PlanCatalog): Map<string, SpooledShard> {
  if (!spooled) {
    const files = catalogSearchFiles(catalog, storageUrl());
    const dir = spoolFolder();
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    spooled = new Map();
    let n = 0;
    for (const [urlPath, file] of files) {
      // Encoded once, for the file and its fingerprint.
      const bytes = Buffer.from(JSON.stringify(file));
      const stored = path.join(dir, `${n++}.json`);
      fs.writeFileSync(stored, bytes);
      spooled.set(urlPath, { fingerprint: contentFingerprint(bytes), file: stored });
    }
  }
  return spooled;
}

/** URL paths of the search shards (the root is /search-index.json); none in a part past the first. */
export async function searchShardPaths(): Promise<string[]> {
  if (isLaterPart()) return [];
  return [...searchShards(await getBuildCatalog()).keys()];
}

/**
 * The JSON of one search shard; null when the build has no such shard. Each is handed out once
 * and then forgotten (its spool file removed).
 */
export async function takeSearchShard(urlPath: string): Promise<string | null> {
  if (isLaterPart()) return null;
  const catalog = await getBuildCatalog();
  // The plan fingerprints every shard: make it before any shard is handed out and forgotten.
  catalog.renders('/');
  const shards = searchShards(catalog);
  const shard = shards.get(urlPath);
  if (!shard) return null;
  const text = fs.readFileSync(shard.file, 'utf8');
  fs.rmSync(shard.file, { force: true });
  shards.delete(urlPath);
  return text;
}

/**
 * Every catalogue file whose content products decide, with its fingerprint: the pages that show
 * products (src/domain/routes.ts), the pickers that count them, /explore's catalogue (the server
 * searches it; /explore itself is rendered on request), and the feeds.
 */
function catalogFiles(catalog: PlanCatalog, digests: Map<string, string>): FingerprintedFile[] {
  const files = pageFingerprints(catalog, digests);
  const count = (key: (product: Product) => string | null | undefined, filter: (product: Product) => boolean = () => true) => {
    const counts = new Map<string, number>();
    for (const product of catalog.products) {
      const value = key(product);
      if (value && filter(product)) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    return JSON.stringify([...counts].sort());
  };
  files.push({ path: '/franquicias', fingerprint: contentFingerprint(count((product) => product.franchise_id)) });
  for (const franchise of catalog.franchises) {
    files.push({
      path: franchiseTypesPath(franchise.id),
      fingerprint: contentFingerprint(
        count(
          (product) => product.product_type_id,
          (product) => product.franchise_id === franchise.id,
        ),
      ),
    });
  }
  files.push({ path: EXPLORE_CATALOG_PATH, fingerprint: exploreFingerprint(catalog.products, digests) });
  for (const [urlPath, shard] of searchShards(catalog)) files.push({ path: urlPath, fingerprint: shard.fingerprint });
  return files;
}

function planCatalogBuild(catalog: PlanCatalog): BuildPlan {
  const digests = new Map(catalog.products.map((product) => [product.id, productDigest(product)]));
  const plan = planBuild(catalog, catalogFiles(catalog, digests), requestFromEnv(), digests);
  const out = process.env.CATALOG_BUILD_MANIFEST;
  if (out) writeManifest(out, plan.manifest);
  if (plan.manifest.mode === 'incremental') console.info(`[catalog-snapshot] Compilación parcial: ${plan.manifest.render.length} archivos del catálogo.`);
  else if (plan.manifest.reason) console.info(`[catalog-snapshot] Compilación completa: ${plan.manifest.reason}.`);
  return plan;
}

/** The Supabase project URL that stored image paths resolve against. */
export function storageUrl(): string {
  return projectUrl(PUBLIC_SUPABASE_URL);
}

/** The URL of a stored image path (storage paths resolve against the Supabase project). */
export function imageUrl(src: string | null | undefined): string {
  return resolveImage(src, storageUrl());
}

/**
 * The /explore catalogue of a build's catalogue: the options of its filters and every product as
 * /explore lists it. The build writes it as explore/catalog.json; the server's live catalogue
 * (src/server/explore/catalog.ts) builds it from here when there is no built file to read.
 */
export function exploreDataOf(catalog: Pick<BuildCatalog, 'franchises' | 'expansions' | 'productTypes' | 'products' | 'readFrom'>): ExploreData {
  return exploreDataWith(catalog, storageUrl());
}
