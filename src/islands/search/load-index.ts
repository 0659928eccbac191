/**
 * Downloads the search index once per page and keeps it ready for every keystroke.
 */
import { parseSearchIndex, prepareIndex, type PreparedIndex } from './search';

/** Where the build writes the index (src/pages/search-index.json.ts). */
export const SEARCH_INDEX_URL = '/search-index.json';

/** A searchable index plus the base its relative image paths resolve against. */
export interface LoadedIndex {
  storage: string;
  index: PreparedIndex;
}

let pending: Promise<LoadedIndex> | null = null;

/**
 * The index, fetched on the first call and shared by later ones. A failed download is forgotten,
 * so the next focus of the search box tries again.
 */
export function loadSearchIndex(url: string = SEARCH_INDEX_URL): Promise<LoadedIndex> {
  pending ??= fetch(url, { headers: { accept: 'application/json' } })
    .then(async (response) => {
      if (!response.ok) throw new Error(`search index: HTTP ${response.status}`);
      const parsed = parseSearchIndex(await response.json());
      if (!parsed) throw new Error('search index: unknown format');
      return { storage: parsed.storage, index: prepareIndex(parsed.entries) };
    })
    .catch((error: unknown) => {
      pending = null;
      throw error;
    });
  return pending;
}
