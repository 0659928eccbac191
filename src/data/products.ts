/**
 * The buy box's live read of a product over supabase-js. Parsed with the light rules of
 * domain/products.ts (no zod: this runs in the browser); the whole row for server routes is read
 * by ./product-row.ts.
 */
import { parseLiveProduct, type LiveProductRow } from '~/domain/products.ts';
import { getSupabase } from './supabase.ts';

/** Price and stock as the database has them right now. */
export type LiveProduct = LiveProductRow;

/** The current price and stock of one product; null when it no longer exists. Throws on network errors. */
export async function fetchLiveProduct(id: string): Promise<LiveProduct | null> {
  const { data, error } = await getSupabase()
    .from('products')
    .select('id, name, price, original_price, discount, preorder, stock, available')
    .eq('id', id)
    .maybeSingle();
  if (error) throw new Error(error.message);
  return data ? parseLiveProduct(data) : null;
}
