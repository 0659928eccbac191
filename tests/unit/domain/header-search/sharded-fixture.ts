/** The sharded index of a made-up catalogue, and a ShardedSearch over built files that records what it loads. */
import { buildSearchIndex, parseSearchIndex } from '~/domain/header-search/format.ts';
import { ShardedSearch } from '~/domain/header-search/loader.ts';
import { prepareIndex } from '~/domain/name-matching/matching.ts';
import { parseShard, type SearchShardFile } from '~/domain/header-search/shards.ts';
import { fakeCatalog } from '../name-matching/fake-catalog';

/** A ShardedSearch over built files, recording every path it loads. */
export function searcher(files: Map<string, SearchShardFile>) {
  const loaded: string[] = [];
  const search = new ShardedSearch(async (path) => {
    loaded.push(path);
    const file = files.get(path);
    if (!file) throw new Error(`404 ${path}`);
    // Through JSON, as the browser receives it.
    const shard = parseShard(JSON.parse(JSON.stringify(file)));
    if (!shard) throw new Error(`bad shard ${path}`);
    return shard;
  });
  return { search, loaded };
}

export const products = fakeCatalog(3000, 7).map((p) => ({ id: p.id, name: p.name, image: p.image }));
const whole = parseSearchIndex(JSON.parse(JSON.stringify(buildSearchIndex(products, 'https://x.supabase.co'))))!;
export const wholeIndex = prepareIndex(whole.entries);
