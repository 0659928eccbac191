/**
 * Reads the catalogue tables from Supabase at build time, page by page, with the anon key (the
 * same rows any visitor may read under row-level security).
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/data/database.types.ts';
import { PRODUCT_SELECT } from '~/domain/product-schema.ts';
import type { CatalogRows } from './model.ts';

type CatalogClient = SupabaseClient<Database>;
/** The catalogue tables the build reads (rows are checked by model.ts, so they stay unknown here). */
export type CatalogTable = 'franchises' | 'collections' | 'expansions' | 'product_types' | 'products';

/** Rows per request; PostgREST's default maximum. */
export const PAGE_SIZE = 1000;
// A build must not hang on a backend that accepts connections but never answers.
const REQUEST_TIMEOUT_MS = 15_000;

/** Where the build reads the catalogue from. */
export interface BackendConfig {
  url: string;
  anonKey: string;
}

/** A Supabase client for build-time reads: no session, every request bounded in time. */
export function buildTimeClient(config: BackendConfig): CatalogClient {
  return createClient<Database>(config.url, config.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: {
      fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
    },
  });
}

/**
 * Every row of a table (a product with its printing and offers), read in pages of PAGE_SIZE ordered
 * by id, each page starting after the last id of the one before (keyset paging), so no row is
 * skipped or repeated; `retry` lets supabase-js retry transient failures. An offset would make
 * the database compute every skipped row's embedded printing and offers again: at 100,000 products
 * the last pages took longer than a request may.
 */
export async function fetchAllRows(client: CatalogClient, table: CatalogTable, pageSize = PAGE_SIZE, retry = true): Promise<unknown[]> {
  const rows: unknown[] = [];
  let after: string | null = null;
  for (;;) {
    const query = client
      .from(table)
      .select(table === 'products' ? PRODUCT_SELECT : '*')
      .order('id', { ascending: true });
    const { data, error } = await (after === null ? query : query.gt('id', after)).limit(pageSize).retry(retry);
    if (error) throw new Error(`${table}: ${error.message}`);
    const page: unknown[] = data ?? [];
    rows.push(...page);
    if (page.length < pageSize) return rows;
    after = (page[page.length - 1] as { id: string }).id;
  }
}

/** The rows of the products with these ids (those that still exist), read in groups of 100. */
export async function fetchProductRows(client: CatalogClient, ids: readonly string[], retry = true): Promise<unknown[]> {
  const rows: unknown[] = [];
  for (let at = 0; at < ids.length; at += 100) {
    const { data, error } = await client
      .from('products')
      .select(PRODUCT_SELECT)
      .in('id', ids.slice(at, at + 100))
      .retry(retry);
    if (error) throw new Error(`products: ${error.message}`);
    rows.push(...(data ?? []));
  }
  return rows;
}

/** The raw rows of every catalogue table. */
export async function fetchCatalogRows(client: CatalogClient, retry = true): Promise<CatalogRows> {
  // One table at a time: the local stack runs on an embedded database that serialises anyway.
  const franchises = await fetchAllRows(client, 'franchises', PAGE_SIZE, retry);
  const collections = await fetchAllRows(client, 'collections', PAGE_SIZE, retry);
  const expansions = await fetchAllRows(client, 'expansions', PAGE_SIZE, retry);
  const productTypes = await fetchAllRows(client, 'product_types', PAGE_SIZE, retry);
  const products = await fetchAllRows(client, 'products', PAGE_SIZE, retry);
  return { franchises, collections, expansions, productTypes, products };
}
