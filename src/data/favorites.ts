/**
 * The `favorites` table: the products a shopper keeps with the heart, saved to their account so
 * every device shows them. Row-level security lets each shopper read, add and remove only their
 * own; a second heart on the same product is the same favorite (a unique index), so adding twice
 * is not an error.
 */
import { parseLiveProduct, type LiveProductRow } from '~/domain/products.ts';
import { getSupabase } from './supabase.ts';
import type { DataResult } from './profiles.ts';

/** A favorite as the Favoritos tab shows it: the product with its live price and stock. */
export interface Favorite {
  id: string;
  productId: string;
  name: string;
  image: string;
  /** Price, stock and availability as the database has them now; null when the row is unusable. */
  live: LiveProductRow | null;
  createdAt: string;
}

const COLUMNS = 'id, product_id, created_at, products(id, name, image, price, original_price, discount, preorder, stock, available)';
/** Postgres' unique violation: the favorite is already there. */
const ALREADY_THERE = '23505';

function toFavorite(row: Record<string, unknown>): Favorite | null {
  const product = row.products as Record<string, unknown> | null;
  if (typeof row.id !== 'string' || typeof row.product_id !== 'string' || !product) return null;
  return {
    id: row.id,
    productId: row.product_id,
    name: typeof product.name === 'string' ? product.name : row.product_id,
    image: typeof product.image === 'string' ? product.image : '',
    live: parseLiveProduct(product),
    createdAt: typeof row.created_at === 'string' ? row.created_at : '',
  };
}

/** The shopper's favorite products (not single offers), newest first. */
export async function listFavorites(userId: string): Promise<DataResult<Favorite[]>> {
  const { data, error } = await getSupabase()
    .from('favorites')
    .select(COLUMNS)
    .eq('user_id', userId)
    .is('offer_id', null)
    .order('created_at', { ascending: false });
  if (error) return { data: null, error };
  const rows = (data ?? []) as unknown as Record<string, unknown>[];
  return { data: rows.map(toFavorite).filter((favorite): favorite is Favorite => favorite !== null), error: null };
}

/** Keeps a product as a favorite of the signed-in shopper; already kept is fine. */
export async function addFavorite(productId: string): Promise<DataResult<true>> {
  const { error } = await getSupabase().from('favorites').insert({ product_id: productId });
  if (error && error.code !== ALREADY_THERE) return { data: null, error };
  return { data: true, error: null };
}

/** Removes a product from the shopper's favorites (row-level security keeps it to their own). */
export async function removeFavorite(userId: string, productId: string): Promise<DataResult<true>> {
  const { error } = await getSupabase().from('favorites').delete().eq('user_id', userId).eq('product_id', productId).is('offer_id', null);
  if (error) return { data: null, error };
  return { data: true, error: null };
}
