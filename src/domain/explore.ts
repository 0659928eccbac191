/**
 * The explore page's data and filters, pure so they are unit-tested: the compact catalogue JSON
 * written at build time, and filtering and sorting (the reference ./explore-query.ts is held to);
 * the filter state and its query string are in ./explore-url.ts, re-exported here.
 */
import { type Centavos, savedPriceCentavos } from './money.ts';
import { formatCount } from './counts.ts';
import { discountPercent, isSoldOut, type Product } from './products.ts';
import { cardKeys, catalogTagger, entryRank, resolveQuery, searchKey, type CardKeys } from './name-matching/matching.ts';
import { hasFacetFilter, matchesFacets, type CardFacets } from './singles-facets.ts';
import { productCard, productFacets } from './header-search/cards.ts';
import type { ExploreFilters } from './explore-url.ts';

export * from './explore-url.ts';

/** One product in the compact explore JSON; prices in whole centavos. */
export interface ExploreProduct {
  id: string;
  name: string;
  priceCentavos: Centavos;
  originalPriceCentavos: Centavos | null;
  stock: number | null;
  preorder: boolean;
  sale: boolean;
  franchiseId: string | null;
  expansionId: string | null;
  typeId: string | null;
  image: string;
  /** Release date (YYYY-MM-DD) or '' when unknown; newest sorts by it. */
  released: string;
  /** A card's text for the search (search/matching.ts cardText): found by collector number and card names. Absent on sealed products. */
  card?: string;
  /** A single's rarity code and in-stock offer tokens (search/cards.ts productFacets). Absent on other products. */
  rarity?: string;
  offers?: string;
  /** A single whose copies in stock have different prices: its price reads 'Desde'. */
  from?: true;
  /** A timed drop's instant (ISO): its card holds the add button until then. Absent when on sale now. */
  onSaleAt?: string;
  /**
   * The franchise, expansion and type names its name lacks (search/matching.ts catalogTags), as
   * the header search's index has them; not in the JSON: parseExploreData adds them from the
   * options' names.
   */
  tags?: string;
}

/** A named option of a filter (franchise, expansion, type). */
export interface ExploreOption {
  id: string;
  name: string;
  franchiseId?: string;
}

/** The JSON the explore island loads. */
export interface ExploreData {
  franchises: ExploreOption[];
  expansions: ExploreOption[];
  types: ExploreOption[];
  products: ExploreProduct[];
  /** ISO time the build started reading the whole catalogue from the database, when it did. */
  readFrom?: string;
}

/** The compact form of a snapshot product. */
export function toExploreProduct(product: Product, image: string): ExploreProduct {
  const base: ExploreProduct = {
    id: product.id,
    name: product.name,
    priceCentavos: product.priceCentavos,
    originalPriceCentavos: product.originalPriceCentavos,
    stock: product.stock,
    preorder: product.preorder,
    sale: product.discount || discountPercent(product) !== null,
    franchiseId: product.franchise_id,
    expansionId: product.expansion_id,
    typeId: product.product_type_id,
    image,
    released: product.release_date ?? '',
    ...(product.on_sale_at ? { onSaleAt: product.on_sale_at } : {}),
  };
  const card = productCard(product);
  const facets = productFacets(product);
  if (facets) {
    const prices = new Set(product.offers.filter((offer) => offer.stock > 0).map((offer) => offer.priceCentavos));
    return { ...base, card, rarity: facets.rarity, offers: facets.offers, ...(prices.size > 1 ? { from: true as const } : {}) };
  }
  return card ? { ...base, card } : base;
}

/** A product's singles facets from the explore JSON; null for a sealed product. */
export function exploreFacets(product: ExploreProduct): CardFacets | null {
  return product.offers === undefined ? null : { rarity: product.rarity ?? '', offers: product.offers };
}

type Fields = Record<string, unknown>;
const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const textOr = <T>(value: unknown, fallback: T): string | T => (typeof value === 'string' ? value : fallback);

function exploreProductOf(entry: unknown): ExploreProduct | null {
  if (!isFields(entry) || typeof entry.id !== 'string' || typeof entry.name !== 'string') return null;
  const priceCentavos = savedPriceCentavos(entry.priceCentavos, entry.price);
  if (priceCentavos === null) return null;
  const hasOriginal = (entry.originalPriceCentavos ?? entry.originalPrice ?? null) !== null;
  const originalPriceCentavos = hasOriginal ? savedPriceCentavos(entry.originalPriceCentavos, entry.originalPrice) : null;
  if (hasOriginal && originalPriceCentavos === null) return null;
  const stock = entry.stock;
  if (stock !== null && !(typeof stock === 'number' && Number.isInteger(stock))) return null;
  return {
    id: entry.id,
    name: entry.name,
    priceCentavos,
    originalPriceCentavos,
    stock,
    preorder: entry.preorder === true,
    sale: entry.sale === true,
    franchiseId: textOr(entry.franchiseId, null),
    expansionId: textOr(entry.expansionId, null),
    typeId: textOr(entry.typeId, null),
    image: textOr(entry.image, ''),
    released: textOr(entry.released, ''),
    ...(typeof entry.card === 'string' ? { card: entry.card } : {}),
    ...(typeof entry.offers === 'string' ? { rarity: textOr(entry.rarity, ''), offers: entry.offers } : {}),
    ...(entry.from === true ? { from: true as const } : {}),
    ...(typeof entry.onSaleAt === 'string' && entry.onSaleAt !== '' ? { onSaleAt: entry.onSaleAt } : {}),
  };
}

function optionsOf(value: unknown): ExploreOption[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry): ExploreOption[] => {
    if (!isFields(entry) || typeof entry.id !== 'string' || typeof entry.name !== 'string') return [];
    return [typeof entry.franchiseId === 'string' ? { id: entry.id, name: entry.name, franchiseId: entry.franchiseId } : { id: entry.id, name: entry.name }];
  });
}

/**
 * The explore JSON as the island loads it (no schema library: this runs in the browser). Null
 * when it is not the catalogue; products that are not usable are left out, so one bad entry never
 * empties the page. A file cached from before prices were centavos (`price` in pesos) still reads.
 */
export function parseExploreData(value: unknown): ExploreData | null {
  if (!isFields(value) || !Array.isArray(value.products)) return null;
  const franchises = optionsOf(value.franchises);
  const expansions = optionsOf(value.expansions);
  const types = optionsOf(value.types);
  const read = exploreProductReader({ franchises, expansions, types });
  const products = value.products.flatMap((entry) => read(entry) ?? []);
  const readFrom = typeof value.readFrom === 'string' && Number.isFinite(Date.parse(value.readFrom)) ? value.readFrom : undefined;
  return { franchises, expansions, types, products, ...(readFrom ? { readFrom } : {}) };
}

/**
 * One product entry of the explore JSON as parseExploreData reads it (tags from the options'
 * names), or null when it is not usable: for a reader of the file one entry at a time.
 */
export function exploreProductReader(options: Pick<ExploreData, 'franchises' | 'expansions' | 'types'>): (entry: unknown) => ExploreProduct | null {
  const tagsOf = catalogTagger(options.franchises, options.expansions, options.types);
  return (entry) => {
    const product = exploreProductOf(entry);
    if (!product) return null;
    const tags = tagsOf(product.name, product.franchiseId, product.expansionId, product.typeId);
    return tags ? { ...product, tags } : product;
  };
}

const collator = new Intl.Collator('es-MX', { sensitivity: 'base', numeric: true });

/** Each product list's search keys and card keys, as the header search's index makes them, made once. */
const searchKeys = new WeakMap<readonly ExploreProduct[], { keys: string[]; cards: Array<CardKeys | null> }>();

function keysOf(products: readonly ExploreProduct[]) {
  let found = searchKeys.get(products);
  if (!found) {
    found = {
      keys: products.map((product) => searchKey(product.name, product.card, product.tags)),
      cards: products.map((product) => cardKeys(product.name, product.card)),
    };
    searchKeys.set(products, found);
  }
  return found;
}

/**
 * Products that pass every filter, in the chosen order. Relevance is the catalogue order, or with
 * words to find the header search's ranking (search/matching.ts entryRank: a collector number
 * first, then singles, then sealed products, then matches through a corrected typo): both find
 * the same products, through the same names, aliases and typo corrections, the typos read
 * against every product of `products`. The singles filters follow search/facets.ts
 * matchesFacets (an in-stock offer with every chosen value).
 * @internal The reference the tests hold the search to; the shop itself searches with searchExplore.
 */
export function applyFilters(products: readonly ExploreProduct[], filters: ExploreFilters): ExploreProduct[] {
  const { keys, cards } = filters.q.trim() ? keysOf(products) : { keys: [], cards: [] };
  const query = filters.q.trim() ? resolveQuery(keys, filters.q) : null;
  const ranks = new Map<ExploreProduct, number>();
  const facets = hasFacetFilter(filters);
  const result = products.filter((product, i) => {
    if (query) {
      const rank = entryRank(keys[i]!, cards[i], query);
      if (rank < 0) return false;
      ranks.set(product, rank);
    }
    if (filters.franchise && product.franchiseId !== filters.franchise) return false;
    if (filters.type && product.typeId !== filters.type) return false;
    if (filters.expansion && product.expansionId !== filters.expansion) return false;
    if (filters.inStock && isSoldOut(product)) return false;
    if (filters.preorder && !product.preorder) return false;
    if (filters.sale && !product.sale) return false;
    if (filters.priceMin !== null && product.priceCentavos < filters.priceMin) return false;
    if (filters.priceMax !== null && product.priceCentavos > filters.priceMax) return false;
    if (facets && !matchesFacets(exploreFacets(product), filters)) return false;
    return true;
  });
  switch (filters.sort) {
    case 'precio-asc':
      return result.sort((a, b) => a.priceCentavos - b.priceCentavos || collator.compare(a.name, b.name));
    case 'precio-desc':
      return result.sort((a, b) => b.priceCentavos - a.priceCentavos || collator.compare(a.name, b.name));
    case 'nuevos':
      return result.sort((a, b) => (a.released === b.released ? collator.compare(a.name, b.name) : a.released < b.released ? 1 : -1));
    case 'nombre':
      return result.sort((a, b) => collator.compare(a.name, b.name));
    default:
      return query ? result.sort((a, b) => ranks.get(a)! - ranks.get(b)! || collator.compare(a.name, b.name)) : result;
  }
}

/** Options narrowed to the chosen franchise (all of them when none is chosen). */
export function optionsFor(options: readonly ExploreOption[], franchise: string): ExploreOption[] {
  return franchise ? options.filter((option) => option.franchiseId === franchise) : [...options];
}

/** How many results the explore page shows at first, and how many more each 'Ver más' adds. */
export const EXPLORE_PAGE = 24;

/** The count of results as the page announces it: '1 resultado', '24 resultados'. */
export function resultsLabel(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'resultado' : 'resultados'}`;
}
