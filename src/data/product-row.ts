/**
 * One whole product row for server routes (the on-demand product page), parsed with the domain
 * row schema. A bad row counts as missing.
 */
import { PRODUCT_SELECT, parseProduct, type Product } from '~/domain/product-schema.ts';
import { getSupabase } from './supabase.ts';

/** One whole product row, parsed; null when there is none (or it is not a valid product). */
export async function fetchProduct(id: string): Promise<Product | null> {
  const { data, error } = await getSupabase().from('products').select(PRODUCT_SELECT).eq('id', id).maybeSingle();
  if (error) throw new Error(error.message);
  return data ? parseProduct(data) : null;
}
