/**
 * /search-index.json: the root of the header search's index, downloaded on the first focus of the
 * search box. While the catalogue is small it is the whole index; past WHOLE_INDEX_LIMIT products it
 * names the shards under /search/ that later keystrokes load (src/domain/header-search/shards.ts). Written at
 * build time from the catalogue snapshot, so searching costs the backend nothing.
 */
import type { APIRoute } from 'astro';
import { takeSearchShard } from '~/server/snapshot/catalog';

export const prerender = true;

export const GET: APIRoute = async () => {
  const text = await takeSearchShard('/search-index.json');
  return new Response(text ?? '{}', { headers: { 'content-type': 'application/json; charset=utf-8' } });
};
