/**
 * What a catalogue edit changes on the static site, planned from the catalogue before and after
 * it: the catalogue pages to render again (its product page, the listing pages and the home page
 * that show it, and any listing page whose products or counts move), whether /explore's catalogue
 * and the header search's files change, or that the edit needs a whole build (a new expansion,
 * type or franchise adds routes and pickers). Stock is not a change: pages read live stock.
 * Pure, and linear in the catalogue; a product object kept from `before` is not compared again.
 */
import {
  HOME_HERO_IMAGES,
  HOME_PATH,
  homeHeroes,
  homeLists,
  listings,
  pageHref,
  productPath,
  relistAfterEdit,
  type CatalogPage,
  type Listing,
  type RouteCatalog,
} from './routes.ts';
import { productImages, type Product } from './products.ts';

/** What an edit makes the site do. */
export interface EditPlan {
  /** Why the edit needs a whole build, or null when the listed files are all it changes. */
  fallback: 'new-franchise' | 'new-expansion' | 'new-type' | null;
  /** Ids of the products whose shown fields changed, or that were added or hidden. */
  changed: string[];
  /** Catalogue pages (URL paths) to render again: the changed products' own pages, then the pages that list them. */
  render: string[];
  /** The same pages with the products each shows, as catalogPages (routes.ts) lists them. */
  pages: CatalogPage[];
  /** Catalogue pages that no longer exist (a listing that lost its last page). */
  removed: string[];
  /** Whether /explore's catalogue shows something that changed. */
  explore: boolean;
  /** Whether the header search's files show something that changed (names, pictures, card text). */
  search: boolean;
}

/** A product as its pages show it: every field but stock and timestamps. */
function shown(product: Product): string {
  const { stock: _stock, ...rest } = product as Product & { updated_at?: unknown };
  delete (rest as { updated_at?: unknown }).updated_at;
  return JSON.stringify(rest);
}

/** What the header search keeps of a product: its name, pictures, card text and what tags it. */
function searched(product: Product): string {
  const { name, franchise_id, expansion_id, product_type_id, printing, offers } = product;
  return JSON.stringify([name, productImages(product)[0] ?? '', franchise_id, expansion_id, product_type_id, printing ?? null, offers.length > 0]);
}

/** The first id `after` names that `before` does not have, by kind, or null. */
function newTaxonomy(before: RouteCatalog, after: RouteCatalog, replaced: readonly number[] | undefined): EditPlan['fallback'] {
  const sameTables = before.franchises === after.franchises && before.expansions === after.expansions && before.productTypes === after.productTypes;
  // The same tables and the products of `before` with some replaced in their places: only the
  // replaced ones can name something new, when every product of `before` names known entries.
  if (sameTables && replaced && namesKnown(before)) {
    const [expansions, types] = [known(after.expansions), known(after.productTypes)];
    for (const i of replaced) {
      const fallback = unknownOf(after.products[i]!, expansions, types);
      if (fallback) return fallback;
    }
    knownNames.add(after.products);
    return null;
  }
  const [franchises, expansions, types] = [known(before.franchises), known(before.expansions), known(before.productTypes)];
  if (after.franchises.some((item) => !franchises.has(item.id))) return 'new-franchise';
  if (after.expansions.some((item) => !expansions.has(item.id))) return 'new-expansion';
  if (after.productTypes.some((item) => !types.has(item.id))) return 'new-type';
  for (const product of after.products) {
    const fallback = unknownOf(product, expansions, types);
    if (fallback) return fallback;
  }
  return null;
}

const known = (items: ReadonlyArray<{ id: string }>) => new Set(items.map((item) => item.id));

function unknownOf(product: Product, expansions: ReadonlySet<string>, types: ReadonlySet<string>): EditPlan['fallback'] {
  if (product.expansion_id && !expansions.has(product.expansion_id)) return 'new-expansion';
  if (product.product_type_id && !types.has(product.product_type_id)) return 'new-type';
  return null;
}

/** Products lists whose every product names an expansion and a type its catalogue has (checked once per list). */
const knownNames = new WeakSet<readonly Product[]>();

function namesKnown(catalog: RouteCatalog): boolean {
  if (knownNames.has(catalog.products)) return true;
  const [expansions, types] = [known(catalog.expansions), known(catalog.productTypes)];
  if (catalog.products.some((product) => unknownOf(product, expansions, types))) return false;
  knownNames.add(catalog.products);
  return true;
}

/** The products whose shown fields differ, were added or were removed; and whether search shows the difference. */
function changedProducts(before: RouteCatalog, after: RouteCatalog): { changed: Set<string>; search: boolean; replaced?: number[] } {
  // An edit of some products leaves the others as the same objects in the same places: compared
  // side by side, only the replaced ones are looked at (no map of the whole catalogue).
  if (before.products.length === after.products.length) {
    const changed = new Set<string>();
    const replaced: number[] = [];
    let search = false;
    let aligned = true;
    // Two reads, not a pair taken apart: the loop runs once per edit, before V8 optimizes it, and
    // a pair made per product took ten times as long over 100,000 products (23–25 ms against 2–3 ms,
    // one cold call per process, docs/benchmarks.md).
    for (let i = 0; i < after.products.length && aligned; i++) {
      const was = before.products[i]!;
      const product = after.products[i]!;
      if (was === product) continue;
      if (was.id !== product.id) aligned = false;
      else {
        replaced.push(i);
        if (shown(was) !== shown(product)) changed.add(product.id);
        if (searched(was) !== searched(product)) search = true;
      }
    }
    if (aligned) return { changed, search, replaced };
  }
  const old = new Map(before.products.map((product) => [product.id, product]));
  const kept = new Set<string>();
  const changed = new Set<string>();
  let search = false;
  for (const product of after.products) {
    const was = old.get(product.id);
    kept.add(product.id);
    if (was === product) continue;
    if (!was || shown(was) !== shown(product)) changed.add(product.id);
    if (!was || searched(was) !== searched(product)) search = true;
  }
  for (const id of old.keys()) {
    if (kept.has(id)) continue;
    changed.add(id);
    search = true;
  }
  return { changed, search };
}

/**
 * The catalogue pages that show several products, as catalogPages (routes.ts) lists them: the home
 * page and every listing page. Product pages are left out: each shows its own product only, so
 * the changed products name theirs, and the whole catalogue's product pages need not be listed.
 */
function sharedPages(catalog: RouteCatalog): CatalogPage[] {
  const known = shared.get(catalog);
  if (known) return known;
  const pages = sharedPagesOf(catalog);
  shared.set(catalog, pages);
  return pages;
}

/**
 * The shared pages of each catalogue planned: the server plans each edit against the catalogue
 * the edit before left (src/server/rebuild/fast-edit.ts), whose pages it has already listed.
 * Catalogues are never changed in place (an edit makes a new one).
 */
const shared = new WeakMap<RouteCatalog, CatalogPage[]>();

function sharedPagesOf(catalog: RouteCatalog): CatalogPage[] {
  const lists = homeLists(catalog.products);
  const home = [...lists.specialOffers, ...lists.destinedRivals, ...lists.journeyTogether, ...lists.newArrivals].map((product) => product.id);
  const pages: CatalogPage[] = [{ path: HOME_PATH, productIds: [...home, ...heroIdsOf(catalog)], extra: '' }];
  for (const listing of listings(catalog)) pages.push(...listingPagesOf(listing));
  return pages;
}

/** The shared pages of a listing, made once per listing: an edit's listings keep every listing it does not change (routes.ts, relistAfterEdit). */
const listingPages = new WeakMap<Listing, CatalogPage[]>();

function listingPagesOf(listing: Listing): CatalogPage[] {
  const known = listingPages.get(listing);
  if (known) return known;
  const pages = listing.pages.map((page) => ({
    path: pageHref(listing.base, page.pageNumber),
    productIds: page.products.map((product) => product.id),
    extra: `${page.pageNumber}/${page.pageCount}/${page.total}`,
  }));
  listingPages.set(listing, pages);
  return pages;
}

/** The home carousel's products a catalogue has, in HOME_HERO_IMAGES' order (kept for the catalogue of an edit that keeps every product in its place). */
const heroIds = new WeakMap<RouteCatalog, string[]>();

function heroIdsOf(catalog: RouteCatalog): string[] {
  const known = heroIds.get(catalog);
  if (known) return known;
  const heroes = homeHeroes(catalog.products);
  const ids = HOME_HERO_IMAGES.filter((id) => heroes.has(id));
  heroIds.set(catalog, ids);
  return ids;
}

const samePage = (a: CatalogPage, b: CatalogPage) =>
  a.extra === b.extra && a.productIds.length === b.productIds.length && a.productIds.every((id, i) => id === b.productIds[i]);

/**
 * Lists a catalogue's shared pages ahead of its first edit (the running server, when it reads the
 * catalogue), and checks once that its products name known expansions and types (a pass over every
 * product: 23 ms of the first edit at 100,000 products otherwise).
 */
export function prepareEditPlan(catalog: RouteCatalog): void {
  sharedPages(catalog);
  namesKnown(catalog);
}

/**
 * The plan of an edit that turned `before` into `after` (docs/catalogue-rebuilds.md, 'Planning an
 * edit'); the running server publishes edits with it (src/server/rebuild/fast-edit.ts).
 */
export function planEdit(before: RouteCatalog, after: RouteCatalog): EditPlan {
  const { changed, search, replaced } = changedProducts(before, after);
  const fallback = newTaxonomy(before, after, replaced);
  if (fallback) return { fallback, changed: [], render: [], pages: [], removed: [], explore: false, search: false };
  if (replaced) {
    // The same products in the same places: `after`'s listings and home pictures are made from
    // `before`'s, also when nothing shown changed (the next edit plans against `after`).
    relistAfterEdit(before, after, replaced);
    const heroes = heroIds.get(before);
    if (heroes && !heroIds.has(after)) heroIds.set(after, heroes);
  }
  if (changed.size === 0) return { fallback: null, changed: [], render: [], pages: [], removed: [], explore: false, search: false };
  const pages: CatalogPage[] = [];
  const removed: string[] = [];
  const listed = new Set(
    (replaced ? replaced.map((i) => after.products[i]!) : after.products).filter((product) => changed.has(product.id)).map((product) => product.id),
  );
  for (const id of changed) {
    if (listed.has(id)) pages.push({ path: productPath(id), productIds: [id], extra: '' });
    else removed.push(productPath(id));
  }
  const shared = (replaced && sharedChanges(before, after, changed)) || changedPages(sharedPages(before), sharedPages(after), changed);
  pages.push(...shared.pages);
  removed.push(...shared.removed);
  const render = pages.map((page) => page.path);
  return { fallback: null, changed: [...changed], render, pages, removed, explore: true, search };
}

/** Of the pages `now`, those to render again (new, different from the page of the same path in `was`, or showing a changed product), and the paths `was` has that `now` lacks. */
function changedPages(was: readonly CatalogPage[], now: readonly CatalogPage[], changed: ReadonlySet<string>): { pages: CatalogPage[]; removed: string[] } {
  const old = new Map(was.map((page) => [page.path, page]));
  const pages: CatalogPage[] = [];
  for (const page of now) {
    const known = old.get(page.path);
    old.delete(page.path);
    if (!known || (known !== page && !samePage(known, page)) || page.productIds.some((id) => changed.has(id))) pages.push(page);
  }
  return { pages, removed: [...old.keys()] };
}

/**
 * changedPages over the shared pages, when `after`'s listings pair up with `before`'s, as the ones
 * relistAfterEdit (routes.ts) makes do: a listing it kept as it was shows no replaced product and
 * has the same pages, so only the home page and the listings made again are read (at 100,000
 * products, the shared pages list each product three or four times). Null when they do not pair up.
 */
function sharedChanges(before: RouteCatalog, after: RouteCatalog, changed: ReadonlySet<string>): { pages: CatalogPage[]; removed: string[] } | null {
  const [was, now] = [listings(before), listings(after)];
  if (was.length !== now.length || was.some((listing, k) => listing.base !== now[k]!.base)) return null;
  const out = changedPages(sharedPages(before).slice(0, 1), sharedPages(after).slice(0, 1), changed);
  for (const [k, listing] of now.entries()) {
    if (listing === was[k]) continue;
    const { pages, removed } = changedPages(listingPagesOf(was[k]!), listingPagesOf(listing), changed);
    out.pages.push(...pages);
    out.removed.push(...removed);
  }
  return out;
}
