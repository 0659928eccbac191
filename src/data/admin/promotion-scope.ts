/**
 * What a promotion's scope is picked from in the back office, read from the catalogue tables as the
 * admin: franchises, product types and expansions by name (a few dozen rows each), products found
 * by part of their name, id or collector number (a bounded search, never the whole catalogue), and
 * the names of the products a promotion already names.
 */
import { getSupabase } from '../supabase.ts';
import { productSearchOr } from './products.ts';

/** A franchise, product type or expansion as the scope's lists show it. */
export interface ScopeOption {
  id: string;
  name: string;
  /** The franchise it belongs to ('' for a franchise itself). */
  franchiseId: string;
}

export interface ScopeOptions {
  franchises: ScopeOption[];
  productTypes: ScopeOption[];
  expansions: ScopeOption[];
}

/** A product the search found, or one a promotion names. */
export interface ScopeProduct {
  id: string;
  name: string;
}

/** How many products one search shows. */
const SEARCH_LIMIT = 10;

/** The franchises, product types and expansions by name; null when they could not be read. */
export async function loadScopeOptions(): Promise<ScopeOptions | null> {
  const supabase = getSupabase();
  const [franchises, types, expansions] = await Promise.all([
    supabase.from('franchises').select('id, name').order('name'),
    supabase.from('product_types').select('id, name, franchise_id').order('name'),
    supabase.from('expansions').select('id, name, franchise_id').order('name'),
  ]);
  if (franchises.error || types.error || expansions.error) return null;
  return {
    franchises: (franchises.data ?? []).map((row) => ({ id: row.id, name: row.name, franchiseId: '' })),
    productTypes: (types.data ?? []).map((row) => ({ id: row.id, name: row.name, franchiseId: row.franchise_id })),
    expansions: (expansions.data ?? []).map((row) => ({ id: row.id, name: row.name, franchiseId: row.franchise_id })),
  };
}

/** The first products whose name or id holds the text (a collector number too); [] for no text, null on failure. */
export async function searchScopeProducts(text: string): Promise<ScopeProduct[] | null> {
  const filter = productSearchOr(text);
  if (!filter) return [];
  const { data, error } = await getSupabase().from('products').select('id, name').or(filter).order('name').limit(SEARCH_LIMIT);
  return error ? null : (data ?? []).map((row) => ({ id: row.id, name: row.name }));
}

/** The names of these products (ids not found are left out); null on failure. */
export async function loadScopeProducts(ids: readonly string[]): Promise<ScopeProduct[] | null> {
  if (ids.length === 0) return [];
  const { data, error } = await getSupabase()
    .from('products')
    .select('id, name')
    .in('id', [...ids]);
  return error ? null : (data ?? []).map((row) => ({ id: row.id, name: row.name }));
}
