/**
 * Product rows as the shop uses them: the stock, price and listing rules, free of any parsing
 * library so the browser code that needs them (cart, buy box, cards) stays small. The row schema
 * that turns raw rows into `Product` lives in ./product-schema.ts (build and server only).
 */
import { LISTING_TEXT } from '../i18n/catalog.ts';
import { getPseudoType } from './catalog.ts';
import { type Centavos, databasePriceCentavos } from './money.ts';
import { percent as percentOf } from './percent.ts';

export type { Product } from './product-schema.ts';
export { isSoldOut, showPreorderBadge, clampQuantity, canIncrease } from './cart-rules.ts';

/** Rounded percent off from the original price, or null when there is no real discount. */
export function discountPercent(product: { priceCentavos: Centavos | null; originalPriceCentavos?: Centavos | null }): number | null {
  const original = product.originalPriceCentavos ?? null;
  const price = product.priceCentavos;
  if (original === null || price === null || original <= 0 || price < 0 || price >= original) return null;
  const percent = Math.round(percentOf(original - price, original));
  return percent > 0 ? percent : null;
}

/** The main image followed by the gallery images, without blanks or repeats. */
export function productImages(product: { image?: string | null; images?: readonly string[] | null }): string[] {
  const all = [product.image ?? '', ...(product.images ?? [])].map((src) => src.trim()).filter((src) => src !== '');
  return [...new Set(all)];
}

/** An index wrapped into 0…length-1, so gallery previous/next go round at both ends. */
export function wrapIndex(index: number, length: number): number {
  if (length <= 0) return 0;
  return ((index % length) + length) % length;
}

/** What the listing filters need of a product. */
export interface ListedProduct {
  name: string;
  priceCentavos: Centavos;
  preorder?: boolean | null;
  discount?: boolean | null;
  originalPriceCentavos?: Centavos | null;
  franchise_id?: string | null;
  expansion_id?: string | null;
  product_type_id?: string | null;
}

/** Listing parameters of /franchise/{franchiseId}/…/products. */
export interface ListingFilter {
  franchiseId: string;
  expansionId?: string | null;
  /** A product type id, or the pseudo-types 'preorder' and 'sale'. */
  typeId?: string | null;
}

/** Products of a listing: same franchise, and the expansion and type (or pseudo-type) when given. */
export function productsForListing<T extends ListedProduct>(products: readonly T[], filter: ListingFilter): T[] {
  const pseudo = filter.typeId ? getPseudoType(filter.typeId) : undefined;
  return products.filter((product) => {
    if (product.franchise_id !== filter.franchiseId) return false;
    if (filter.expansionId && product.expansion_id !== filter.expansionId) return false;
    if (pseudo) return pseudo.matches(product);
    if (filter.typeId && product.product_type_id !== filter.typeId) return false;
    return true;
  });
}

function fold(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();
}

/** Items whose name contains the query, ignoring case and accents; all items for a blank query. */
export function matchByName<T extends { name: string }>(items: readonly T[], query: string): T[] {
  const needle = fold(query);
  if (needle === '') return [...items];
  return items.filter((item) => fold(item.name).includes(needle));
}

/** Heading of a product listing: 'Resultados (n) – FRANCHISE'. */
export function resultsHeading(count: number, franchiseName: string): string {
  return LISTING_TEXT.results(count, franchiseName.toUpperCase());
}

/**
 * Whether a product is offered to shoppers. The shop hides unavailable products everywhere a
 * shopper could find them (listings, pickers, home sliders, /explore, the search index, the
 * sitemap and product pages), so nothing is shown that checkout would then refuse.
 */
export function isListed(product: { available?: boolean | null }): boolean {
  return product.available !== false;
}

/** Live price and stock of a product, as the buy box needs them. */
export interface LiveProductRow {
  id: string;
  priceCentavos: Centavos;
  originalPriceCentavos: Centavos | null;
  discount: boolean;
  preorder: boolean;
  stock: number | null;
  available: boolean;
  /** A timed drop's instant (ISO); null: on sale now. */
  onSaleAt: string | null;
}

// A stored price as Centavos; null when absent, undefined when not a usable price.
function centavosOrNull(value: unknown): Centavos | null | undefined {
  if (value === null || value === undefined) return null;
  return databasePriceCentavos(value) ?? undefined;
}

/**
 * Reads the live columns of a product row (numeric as a number or a string, as PostgREST sends
 * them) with the same rules as the full row schema, prices as Centavos, without a parsing library: this runs in the
 * buy box. Null when the row is not a usable product.
 */
export function parseLiveProduct(row: unknown): LiveProductRow | null {
  if (typeof row !== 'object' || row === null) return null;
  const r = row as Record<string, unknown>;
  if (typeof r.id !== 'string' || r.id === '') return null;
  const price = centavosOrNull(r.price);
  const original = centavosOrNull(r.original_price ?? r.originalPrice);
  if (price === null || price === undefined || original === undefined) return null;
  let stock: number | null = null;
  if (r.stock !== null && r.stock !== undefined) {
    const n = typeof r.stock === 'string' && /^\s*-?\d+\s*$/.test(r.stock) ? Number(r.stock) : r.stock;
    if (typeof n !== 'number' || !Number.isInteger(n)) return null;
    stock = n;
  }
  const flag = (value: unknown, fallback: boolean): boolean | undefined =>
    value === null || value === undefined ? fallback : typeof value === 'boolean' ? value : undefined;
  const discount = flag(r.discount, false);
  const preorder = flag(r.preorder, false);
  const available = flag(r.available, true);
  if (discount === undefined || preorder === undefined || available === undefined) return null;
  const onSaleAt = typeof r.on_sale_at === 'string' && r.on_sale_at !== '' ? r.on_sale_at : null;
  return { id: r.id, priceCentavos: price, originalPriceCentavos: original, discount, preorder, stock, available, onSaleAt };
}

// Ids of new products (the back office's add form)

const FRANCHISE_ABBREVIATIONS: Readonly<Record<string, string>> = {
  pokemon: 'pk',
  'one-piece': 'op',
  riftbound: 'rb',
};

function slug(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * Product id 'franchise-type-expansion': franchise abbreviation (pk, op, rb), the type id without
 * its franchise prefix and without hyphens, and the expansion id.
 * @example productIdFor('pokemon', 'booster-box', 'journey-together') // 'pk-boosterbox-journey-together'
 */
export function productIdFor(franchiseId: string, typeId: string, expansionId: string): string {
  const franchise = FRANCHISE_ABBREVIATIONS[franchiseId] ?? slug(franchiseId).replace(/-/g, '');
  const typeWithoutPrefix = slug(typeId).replace(new RegExp(`^${franchise}-`), '');
  return [franchise, typeWithoutPrefix.replace(/-/g, ''), slug(expansionId)].filter((part) => part !== '').join('-');
}

/** `id` itself when free, else `id-2`, `id-3`, … — the first one not among `taken`. */
export function uniqueProductId(id: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(id)) return id;
  for (let suffix = 2; ; suffix += 1) {
    const candidate = `${id}-${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** What a product id may be: the products.id check constraint's rule. */
export const PRODUCT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,199}$/;
