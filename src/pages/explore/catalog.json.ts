/**
 * The compact catalogue the explore page filters in the browser, written once at build time.
 */
import type { APIRoute } from 'astro';
import { exploreDataOf, getBuildCatalog } from '~/server/snapshot/catalog';

export const prerender = true;

export const GET: APIRoute = async () => {
  const data = exploreDataOf(await getBuildCatalog());
  return new Response(JSON.stringify(data), { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
};
