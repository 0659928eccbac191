/**
 * /search/<shard>.json: the header search's shards and the parts of its whole index, written only
 * when the catalogue is larger than one shard (src/domain/header-search/shards.ts). An incremental build writes
 * just the shards whose content changed.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getBuildCatalog, searchShardPaths, takeSearchShard } from '~/server/snapshot/catalog';

export const prerender = true;

export const getStaticPaths: GetStaticPaths = async () => {
  const catalog = await getBuildCatalog();
  return (await searchShardPaths())
    .filter((path) => path.startsWith('/search/') && catalog.renders(path))
    .map((path) => ({ params: { shard: path.slice('/search/'.length, -'.json'.length) } }));
};

export const GET: APIRoute = async ({ params }) => {
  const text = await takeSearchShard(`/search/${params.shard}.json`);
  if (text === null) return new Response('{}', { status: 404 });
  return new Response(text, { headers: { 'content-type': 'application/json; charset=utf-8' } });
};
