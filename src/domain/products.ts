/**
 * Product rows as the shop uses them. Rows come from Postgres through the REST API or from the
 * build-time snapshot: `numeric` may arrive as a string, `original_price` may be spelled
 * `originalPrice`, and optional columns may be null. `productSchema` turns all of that into one
 * `Product` shape.
 */
import { z } from 'zod';
import { getPseudoType, type ProductType, typesOf } from './catalog.ts';
import { tryToCentavos } from './money.ts';

export const PRODUCT_MESSAGES = {
  soldOut: 'Agotado',
  soldOutDetail: 'Producto agotado',
  preorder: 'Preventa',
  maxStock: 'Máximo disponible en stock.',
  addedToCart: 'Agregado al carrito',
  viewCart: 'Ver carrito',
  notFound: 'Producto no encontrado',
  unavailableLine: 'Producto no disponible',
} as const;

// Pesos as a number with at most two decimals, from a JSON number or a numeric string.
const pesos = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const cents = tryToCentavos(value);
  if (cents === null || cents < 0) {
    ctx.addIssue({ code: 'custom', message: 'Precio no válido.' });
    return z.NEVER;
  }
  return cents / 100;
});

const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

const wholeNumber = z.union([z.number(), z.string().regex(/^\s*-?\d+\s*$/)]).transform(Number).pipe(z.number().int());

/** A product row, normalised. Unknown columns are dropped. */
export const productSchema = z
  .object({
    id: z.string().min(1),
    name: z.string(),
    price: pesos,
    original_price: pesos.nullish(),
    originalPrice: pesos.nullish(),
    discount: z.boolean().nullish(),
    preorder: z.boolean().nullish(),
    // Null means "not tracked": no upper bound on the quantity.
    stock: wholeNumber.nullish(),
    image: optionalText,
    images: z.array(z.string()).nullish(),
    franchise_id: optionalText,
    collection_id: optionalText,
    expansion_id: optionalText,
    product_type_id: optionalText,
    type: optionalText,
    description: optionalText,
    limit_per_customer: wholeNumber.nullish(),
    available: z.boolean().nullish(),
    release_date: optionalText,
    tags: z.array(z.string()).nullish(),
  })
  .transform((row) => ({
    id: row.id,
    name: row.name,
    price: row.price,
    original_price: row.original_price ?? row.originalPrice ?? null,
    discount: row.discount ?? false,
    preorder: row.preorder ?? false,
    stock: row.stock ?? null,
    image: row.image ?? '',
    images: row.images ?? [],
    franchise_id: row.franchise_id,
    collection_id: row.collection_id,
    expansion_id: row.expansion_id,
    product_type_id: row.product_type_id,
    type: row.type,
    description: row.description ?? '',
    limit_per_customer: row.limit_per_customer ?? null,
    available: row.available ?? true,
    release_date: row.release_date,
    tags: row.tags ?? [],
  }));
export type Product = z.infer<typeof productSchema>;

/** Parses one row; null when it is not a usable product. */
export function parseProduct(row: unknown): Product | null {
  const result = productSchema.safeParse(row);
  return result.success ? result.data : null;
}

/** Parses rows and drops those that are not usable products, so one bad row never breaks a page. */
export function parseProducts(rows: readonly unknown[]): Product[] {
  const products: Product[] = [];
  for (const row of rows) {
    const product = parseProduct(row);
    if (product) products.push(product);
  }
  return products;
}

/** What the stock rules need of a product. */
export interface StockInfo {
  stock?: number | null;
}

/** Whether a product is sold out (stock 0; an untracked stock is never sold out). */
export function isSoldOut(product: StockInfo): boolean {
  return typeof product.stock === 'number' && product.stock <= 0;
}

/** Whether the 'Preventa' badge shows: a preorder product that is in stock. */
export function showPreorderBadge(product: StockInfo & { preorder?: boolean | null }): boolean {
  return product.preorder === true && !isSoldOut(product);
}

/** Rounded percent off from the original price, or null when there is no real discount. */
export function discountPercent(product: {
  price: number | string;
  original_price?: number | string | null;
  originalPrice?: number | string | null;
}): number | null {
  const original = tryToCentavos(product.original_price ?? product.originalPrice ?? null);
  const price = tryToCentavos(product.price);
  if (original === null || price === null || original <= 0 || price < 0 || price >= original) return null;
  const percent = Math.round(((original - price) * 100) / original);
  return percent > 0 ? percent : null;
}

/** Allowed quantity range for a product: at least 1, at most its stock when stock is a number. */
export function quantityBounds(stock: number | null | undefined): { min: number; max: number | null } {
  return { min: 1, max: typeof stock === 'number' && Number.isFinite(stock) ? Math.max(1, Math.floor(stock)) : null };
}

/** A quantity forced into the allowed range (whole, ≥ 1, ≤ stock when known); junk becomes 1. */
export function clampQuantity(quantity: number, stock: number | null | undefined): number {
  const { min, max } = quantityBounds(stock);
  const whole = Number.isFinite(quantity) ? Math.floor(quantity) : min;
  const bounded = Math.max(min, whole);
  return max === null ? bounded : Math.min(max, bounded);
}

/** Whether the '+' button may add one more ('Máximo disponible en stock.' otherwise). */
export function canIncrease(quantity: number, stock: number | null | undefined): boolean {
  const { max } = quantityBounds(stock);
  return !isSoldOut({ stock }) && (max === null || quantity < max);
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
  price: number;
  preorder?: boolean | null;
  discount?: boolean | null;
  original_price?: number | null;
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

/** Product types of a franchise that have at least one product (the type picker shows only these). */
export function typesWithProducts(franchiseId: string, products: readonly ListedProduct[]): ProductType[] {
  const used = new Set(
    products.filter((product) => product.franchise_id === franchiseId).map((product) => product.product_type_id),
  );
  return typesOf(franchiseId).filter((type) => used.has(type.id));
}

function fold(value: string): string {
  return value.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().trim();
}

/** Items whose name contains the query, ignoring case and accents; all items for a blank query. */
export function matchByName<T extends { name: string }>(items: readonly T[], query: string): T[] {
  const needle = fold(query);
  if (needle === '') return [...items];
  return items.filter((item) => fold(item.name).includes(needle));
}

/** Heading of a product listing: 'Resultados (n) – FRANCHISE'. */
export function resultsHeading(count: number, franchiseName: string): string {
  return `Resultados (${count}) – ${franchiseName.toUpperCase()}`;
}
