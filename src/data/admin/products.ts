/**
 * The back office's products: the list with its filters, new products and the edit dialog's save
 * (admin_save_product), with the admin's own session.
 */
import * as z from 'zod/mini';
import { getSupabase } from '../supabase.ts';
import type { Tables, TablesInsert } from '../database.types.ts';
import { type Centavos, toCentavos, toPesos } from '~/domain/money.ts';
import { isSinglesType } from '~/domain/catalog.ts';
import { summarizeOffers, type OffersSummary } from '../singles-admin.ts';

/** The product columns the back office reads. */
type AdminProductRow = Pick<
  Tables<'products'>,
  | 'id'
  | 'name'
  | 'description'
  | 'price'
  | 'original_price'
  | 'discount'
  | 'preorder'
  | 'stock'
  | 'limit_per_customer'
  | 'available'
  | 'release_date'
  | 'on_sale_at'
  | 'image'
  | 'images'
  | 'franchise_id'
  | 'expansion_id'
  | 'product_type_id'
> &
  // SAT's ClaveProdServ and ClaveUnidad, for facturas (absent from an answer that predates them).
  Partial<Pick<Tables<'products'>, 'sat_product_key' | 'sat_unit_key'>>;

/** A product as the back office shows and edits it: the row, its prices as Centavos. */
export type AdminProduct = Omit<AdminProductRow, 'price' | 'original_price'> & {
  priceCentavos: Centavos;
  originalPriceCentavos: Centavos | null;
};

/** The back office's product from its row: numeric prices become Centavos here. */
export function adminProductOf({ price, original_price, ...row }: AdminProductRow): AdminProduct {
  return { ...row, priceCentavos: toCentavos(price), originalPriceCentavos: original_price === null ? null : toCentavos(original_price) };
}

export const PRODUCT_COLUMNS =
  'id, name, description, price, original_price, discount, preorder, stock, limit_per_customer, available, release_date, on_sale_at, image, images, franchise_id, expansion_id, product_type_id, sat_product_key, sat_unit_key';

/** Filters of the product table. */
export interface ProductFilter {
  search: string;
  franchise: string;
  type: string;
  expansion: string;
  /** '', 'sin-stock', 'preventa', 'no-disponible', 'poco-stock'. */
  flag: string;
  page: number;
}

export const PRODUCTS_PAGE_SIZE = 25;

/** A product of the back office's list: for a single card, the summary of its offers too (null for sealed products). */
export type AdminListProduct = AdminProduct & { offers: OffersSummary | null };

/**
 * The back office's product search as a PostgREST `or` filter: the text anywhere in the name or
 * the id, ignoring case; and, when it has spaces, dashes, slashes or dots, its pieces in that order
 * with anything between them, so a single is found by its collector number typed any way ('op05
 * 119', 'OP05/119' find 'Monkey.D.Luffy (OP05-119)') and 'charizard 199' finds 'Charizard ex
 * 199/165'. Null for an empty search. The filter's own syntax characters are dropped.
 */
export function productSearchOr(text: string): string | null {
  const search = text
    .trim()
    .replace(/[,()*%\\]/g, ' ')
    .trim();
  if (!search) return null;
  const clauses = [`name.ilike.*${search}*`, `id.ilike.*${search}*`];
  const loose = search.replace(/[\s\-/.·]+/g, '*');
  if (loose !== search) clauses.push(`name.ilike.*${loose}*`);
  return clauses.join(',');
}

/** One page of products and how many match. */
export async function loadProducts(filter: ProductFilter): Promise<{ products: AdminListProduct[]; total: number } | null> {
  let query = getSupabase().from('products').select(`${PRODUCT_COLUMNS}, card_offers(price, stock)`, { count: 'exact' });
  const search = productSearchOr(filter.search);
  if (search) query = query.or(search);
  if (filter.franchise) query = query.eq('franchise_id', filter.franchise);
  if (filter.type) query = query.eq('product_type_id', filter.type);
  if (filter.expansion) query = query.eq('expansion_id', filter.expansion);
  if (filter.flag === 'sin-stock') query = query.eq('stock', 0);
  if (filter.flag === 'poco-stock') query = query.lte('stock', 3);
  if (filter.flag === 'preventa') query = query.eq('preorder', true);
  if (filter.flag === 'no-disponible') query = query.eq('available', false);
  const from = (Math.max(1, filter.page) - 1) * PRODUCTS_PAGE_SIZE;
  const { data, error, count } = await query
    .order('name')
    .order('id')
    .range(from, from + PRODUCTS_PAGE_SIZE - 1);
  if (error) return null;
  const products = (data ?? []).map(({ card_offers, ...row }) => ({
    ...adminProductOf(row),
    offers: isSinglesType(row.product_type_id) ? summarizeOffers(card_offers ?? []) : null,
  }));
  return { products, total: count ?? 0 };
}

/** Ids already used by products whose id starts like `base`, to keep a new id unique. */
export async function takenProductIds(base: string): Promise<string[]> {
  const pattern = `${base.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { data } = await getSupabase().from('products').select('id').like('id', pattern);
  return (data ?? []).map((row) => row.id);
}

/** A new product row as the back office writes it: its price as Centavos, written here as the numeric column's pesos. */
export type NewProductRow = Omit<TablesInsert<'products'>, 'price'> & { priceCentavos: Centavos };

/** Inserts a new product row; the database error when refused. */
export async function insertProduct({ priceCentavos, ...row }: NewProductRow): Promise<{ error: { message: string; code?: string } | null }> {
  const { error } = await getSupabase()
    .from('products')
    .insert({ ...row, price: toPesos(priceCentavos) });
  return { error };
}

/** Deletes a product row (its printing and offers go with it); used when a registration could not be completed. */
export async function deleteProduct(id: string): Promise<void> {
  await getSupabase().from('products').delete().eq('id', id);
}

/** What the product edit dialog writes: the stock wanted and the other fields, prices as Centavos. */
export interface ProductSave {
  stock: number;
  priceCentavos: Centavos;
  originalPriceCentavos: Centavos | null;
  limitPerCustomer: number;
  available: boolean;
  preorder: boolean;
  releaseDate: string | null;
  /** When a timed drop goes on sale (ISO instant); null: on sale now. */
  onSaleAt: string | null;
  description: string;
  images: string[];
  /** SAT's ClaveProdServ and ClaveUnidad: '' gives back the product type's default, absent keeps the product's. */
  satProductKey?: string;
  satUnitKey?: string;
}

/** How a product save ended: saved, refused because the stock moved meanwhile, or failed. */
export type ProductSaveResult = { status: 'saved'; product: AdminProduct } | { status: 'stock_changed'; stock: number } | { status: 'failed'; message: string };

// admin_save_product's jsonb (supabase/migrations/20261129008100_admin_save_product_sat_keys.sql).
const optionalText = z.nullable(z.string());
const count = z.number().check(z.int());
const savedProductRow = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  price: z.number(),
  original_price: z.nullable(z.number()),
  discount: z.boolean(),
  preorder: z.boolean(),
  stock: count,
  limit_per_customer: count,
  available: z.boolean(),
  release_date: optionalText,
  on_sale_at: optionalText,
  image: optionalText,
  images: z.array(z.string()),
  franchise_id: z.string(),
  expansion_id: optionalText,
  product_type_id: optionalText,
  sat_product_key: z.optional(z.string()),
  sat_unit_key: z.optional(z.string()),
});
const productSaveAnswer = z.union([
  z.object({ saved: z.literal(true), stock: count, product: savedProductRow }),
  z.object({ saved: z.literal(false), stock: count }),
]);

/**
 * Saves a product's fields and its stock only if its stock is still `stockRead`, the stock the
 * dialog showed (admin_save_product locks the row and compares): units shoppers reserved
 * meanwhile are never put on sale twice. When the stock moved, nothing is written and the answer
 * carries the current stock.
 */
export async function saveProductIfStockUnchanged(id: string, stockRead: number, fields: ProductSave): Promise<ProductSaveResult> {
  const { data, error } = await getSupabase().rpc('admin_save_product', {
    p_product_id: id,
    p_stock_read: stockRead,
    p_stock: fields.stock,
    p_price: toPesos(fields.priceCentavos),
    p_original_price: fields.originalPriceCentavos === null ? null : toPesos(fields.originalPriceCentavos),
    p_limit_per_customer: fields.limitPerCustomer,
    p_available: fields.available,
    p_preorder: fields.preorder,
    p_release_date: fields.releaseDate,
    p_on_sale_at: fields.onSaleAt,
    p_description: fields.description,
    p_images: fields.images,
    p_sat_product_key: fields.satProductKey ?? null,
    p_sat_unit_key: fields.satUnitKey ?? null,
  });
  if (error) return { status: 'failed', message: error.message };
  const parsed = productSaveAnswer.safeParse(data);
  if (!parsed.success) return { status: 'failed', message: '' };
  const answer = parsed.data;
  return answer.saved ? { status: 'saved', product: adminProductOf(answer.product) } : { status: 'stock_changed', stock: answer.stock };
}
