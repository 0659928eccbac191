/**
 * Product reads from the browser (and server routes) over supabase-js. Rows are parsed with the
 * domain product schema; a bad row counts as missing.
 */
import { parseProduct, type Product } from '../domain/products.ts';
import { getSupabase } from './supabase.ts';

/** Price and stock as the database has them right now. */
export type LiveProduct = Pick<Product, 'id' | 'price' | 'original_price' | 'discount' | 'preorder' | 'stock' | 'available'>;

/** The current price and stock of one product; null when it no longer exists. Throws on network errors. */
export async function fetchLiveProduct(id: string): Promise<LiveProduct | null> {
  const { data, error } = await getSupabase()
    .from('products')
    .select('id, name, price, original_price, discount, preorder, stock, available')
    .eq('id', id)
    .maybeSingle();
  if (error) throw new Error(error.message);
  if (!data) return null;
  const product = parseProduct(data);
  if (!product) return null;
  const { price, original_price, discount, preorder, stock, available } = product;
  return { id: product.id, price, original_price, discount, preorder, stock, available };
}

/** One whole product row, parsed; null when there is none (or it is not a valid product). */
export async function fetchProduct(id: string): Promise<Product | null> {
  const { data, error } = await getSupabase().from('products').select('*').eq('id', id).maybeSingle();
  if (error) throw new Error(error.message);
  return data ? parseProduct(data) : null;
}
