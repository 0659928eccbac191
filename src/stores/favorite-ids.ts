/**
 * Which favorites carry a filled heart, as a small store of its own: the page's hearts and the
 * header's count follow it from the first paint (src/scripts/favorite-hearts.ts), long before the
 * favorites store and supabase-js load (src/stores/favorites.ts, which writes it and keeps a copy
 * in localStorage for the next page).
 */
import { atom } from 'nanostores';
import { FAVORITES_CACHE_KEY, favoritesCacheValue } from '~/domain/favorite-hearts.ts';

/** The keys (src/domain/favorite-hearts.ts: a product's id, or `<product>#<offer>`) of the signed-in shopper's favorites. */
export const $favoriteIds = atom<ReadonlySet<string>>(new Set());

/** Shows these favorites on every heart and keeps their copy for the shopper's next page. */
export function showFavoriteIds(userId: string, ids: ReadonlySet<string>): void {
  $favoriteIds.set(ids);
  try {
    localStorage.setItem(FAVORITES_CACHE_KEY, favoritesCacheValue(userId, ids));
  } catch {
    // Without storage the hearts show their state once the favorites are read.
  }
}
