/**
 * /search-index.json: the compact product index the header search downloads on first focus.
 * Written at build time from the catalogue snapshot, so searching costs the backend nothing.
 */
import type { APIRoute } from 'astro';
import { getBuildCatalog } from '../lib/snapshot/catalog';
import { supabaseUrl } from '../data/supabase';
import { isListed, productImages } from '../domain/products';
import { buildSearchIndex } from '../islands/search/search';

export const prerender = true;

/** The index of every product a shopper can open. */
export const GET: APIRoute = async () => {
  const { products } = await getBuildCatalog();
  const index = buildSearchIndex(
    products
      .filter(isListed)
      .map((p) => ({ id: p.id, name: p.name, image: productImages(p)[0] ?? '' })),
    supabaseUrl(),
  );
  return new Response(JSON.stringify(index), {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
};
