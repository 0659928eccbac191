/**
 * The header search's index, loaded in shards on demand and kept for the page's life: the root
 * (/search-index.json) on the first focus, then at most one shard per keystroke while the
 * catalogue is larger than one shard (src/domain/header-search/shards.ts, src/domain/header-search/loader.ts).
 */
import { ShardedSearch } from '~/domain/header-search/loader.ts';
import { parseShard, type LoadedShard } from '~/domain/header-search/shards.ts';

async function fetchShard(path: string): Promise<LoadedShard> {
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`search index: HTTP ${response.status}`);
  const shard = parseShard(await response.json());
  if (!shard) throw new Error('search index: unknown format');
  return shard;
}

let search: ShardedSearch | null = null;

/**
 * The page's search, created on first use. Shards are cached; one that fails to load is
 * forgotten, so the next keystroke or focus tries again.
 */
export function pageSearch(): ShardedSearch {
  search ??= new ShardedSearch(fetchShard);
  return search;
}
