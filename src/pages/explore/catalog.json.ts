/**
 * The compact catalogue the explore page filters in the browser, written once at build time.
 */
import type { APIRoute } from 'astro';
import type { ExploreData } from '~/domain/explore';
import { exploreProduct, getBuildCatalog } from '~/server/snapshot/catalog';

export const prerender = true;

export const GET: APIRoute = async () => {
  const catalog = await getBuildCatalog();
  const data: ExploreData = {
    franchises: catalog.franchises.map(({ id, name }) => ({ id, name })),
    expansions: catalog.expansions.map(({ id, name, franchiseId }) => ({ id, name, franchiseId })),
    types: catalog.productTypes.map(({ id, name, franchiseId }) => ({ id, name, franchiseId })),
    products: catalog.products.map(exploreProduct),
  };
  return new Response(JSON.stringify(data), { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
};
