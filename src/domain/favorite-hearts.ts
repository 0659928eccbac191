/**
 * The hearts' rules, without the browser: which favorite a heart stands for, the copy of the
 * shopper's favorites the browser keeps so every heart shows its state before anything loads, and
 * who is signed in according to the session supabase-js keeps (read without loading supabase-js).
 * src/scripts/favorite-hearts.ts applies them to the page; src/stores/favorites.ts writes the copy.
 */

/** localStorage key of the copy of the signed-in shopper's favorites. */
export const FAVORITES_CACHE_KEY = 'favorites';

/** A heart: a button with the product it keeps (`data-favorite-offer` too for one offer of a single). */
export { HEART } from './favorite-heart-selector.ts';

/** What a heart saves: a product, or one offer of a single card. */
export interface HeartTarget {
  productId: string;
  offerId: string | null;
}

/** The key of a favorite in the set of hearts: the product's id, or `<product>#<offer>` for one offer. */
export function favoriteKey(productId: string, offerId?: string | null): string {
  return offerId ? `${productId}#${offerId}` : productId;
}

/** The favorite a heart button stands for, from its `data-favorite-product` and `data-favorite-offer`; null when none. */
export function heartTarget(data: { favoriteProduct?: string | undefined; favoriteOffer?: string | undefined }): HeartTarget | null {
  const productId = data.favoriteProduct?.trim() ?? '';
  if (productId === '') return null;
  const offerId = data.favoriteOffer?.trim() || null;
  return { productId, offerId };
}

/** The copy of a shopper's favorites as localStorage keeps it. */
export function favoritesCacheValue(userId: string, keys: Iterable<string>): string {
  return JSON.stringify({ userId, keys: [...keys] });
}

/** The favorites kept for `userId` in the copy; null when there is none for that shopper or it is unreadable. */
export function cachedFavoriteKeys(raw: string | null, userId: string | null): string[] | null {
  if (!raw || !userId) return null;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const { userId: owner, keys } = data as Record<string, unknown>;
  if (owner !== userId || !Array.isArray(keys)) return null;
  return keys.filter((key): key is string => typeof key === 'string' && key !== '');
}

/** supabase-js keeps the session in localStorage as `sb-<project>-auth-token`. */
const SESSION_KEY = /^sb-.+-auth-token$/;

/**
 * The id of the user whose session supabase-js keeps, from localStorage's entries; null when
 * nobody is signed in. A hint only: the database decides what the shopper may read and save.
 */
export function storedSessionUserId(entries: Iterable<readonly [string, string | null]>): string | null {
  for (const [key, value] of entries) {
    if (!SESSION_KEY.test(key) || !value) continue;
    try {
      const session = JSON.parse(value) as { user?: { id?: unknown } } | null;
      const id = session?.user?.id;
      if (typeof id === 'string' && id !== '') return id;
    } catch {
      // Not a session: keep looking.
    }
  }
  return null;
}

/** What the header's badge shows for `count` favorites ('99+' past 99); empty when there are none. */
export function favoritesBadge(count: number): string {
  if (count <= 0) return '';
  return count > 99 ? '99+' : String(count);
}
