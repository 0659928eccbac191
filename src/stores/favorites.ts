/**
 * The shopper's favorites, kept in their account (src/data/favorites.ts): which products and offers
 * carry a filled heart (`$favoriteIds`, src/stores/favorite-ids.ts, which the page's hearts and the
 * header's count follow) and the Favoritos tab's list with live price and stock (`$favorites`).
 * Every read and every heart tapped also updates the copy of the hearts the browser keeps, so the
 * next page shows them before this store loads. A heart tapped while signed out is remembered in
 * this tab's session storage and saved once the shopper signs in (`applyFavoriteIntent`), so the
 * sign-in it asks for is not lost.
 */
import { atom } from 'nanostores';
import type { User } from '@supabase/supabase-js';
import { addFavorite, listFavorites, removeFavorite, subscribeToFavoriteRemovals, type Favorite } from '~/data/favorites.ts';
import { subscribeToUserRows } from '~/data/realtime.ts';
import { favoriteKey, heartTarget, type HeartTarget } from '~/domain/favorite-hearts.ts';
import type { Loadable } from './account.ts';
import { $favoriteIds, showFavoriteIds } from './favorite-ids.ts';
import { $session } from './session.ts';

export type { Favorite } from '~/data/favorites.ts';
export { $favoriteIds } from './favorite-ids.ts';

/** The Favoritos tab's list, newest first. */
export const $favorites = atom<Loadable<Favorite[]>>({ loading: true, failed: false, value: null });

/** Session storage key of a heart tapped while signed out. */
export const FAVORITE_INTENT_KEY = 'favoriteIntent';

// Each read is numbered: when reads overlap (a live change during a toggle), only the latest writes.
let latestRead = 0;

/** Reads the favorites again; a failure keeps what was shown and marks it failed. */
export async function reloadFavorites(userId: string): Promise<void> {
  const read = ++latestRead;
  const current = $favorites.get();
  $favorites.set({ ...current, loading: current.value === null });
  let result: Awaited<ReturnType<typeof listFavorites>>;
  try {
    result = await listFavorites(userId);
  } catch (error) {
    result = { data: null, error: error instanceof Error ? error : new Error(String(error)) };
  }
  // Signed out (or as someone else) meanwhile: whoever follows the session shows that.
  if (read !== latestRead || !result) return;
  if (result.error) {
    $favorites.set({ ...$favorites.get(), loading: false, failed: true });
    return;
  }
  $favorites.set({ loading: false, failed: false, value: result.data });
  showFavoriteIds(userId, new Set(result.data.map((favorite) => favoriteKey(favorite.productId, favorite.offerId))));
}

/**
 * Reads the favorites again whenever the shopper's favorites change on another device or tab: one
 * added (their own rows' changes) or one of theirs removed. Returns the function that stops.
 */
export function followFavorites(userId: string): () => void {
  const reload = () => void reloadFavorites(userId);
  const stopRows = subscribeToUserRows('favorites', userId, reload);
  const stopRemovals = subscribeToFavoriteRemovals((id) => {
    if ($favorites.get().value?.some((favorite) => favorite.id === id)) reload();
  });
  return () => {
    stopRows();
    stopRemovals();
  };
}

/** What tapping a heart did. */
export type ToggleOutcome = 'added' | 'removed' | 'sign-in' | 'failed';

function setHeart(userId: string, key: string, on: boolean): void {
  const ids = new Set($favoriteIds.get());
  if (on) ids.add(key);
  else ids.delete(key);
  showFavoriteIds(userId, ids);
}

/**
 * Adds the product (or one offer of it) to the shopper's favorites, or removes it when it is
 * there. Signed out, the intent is kept for after the sign-in and the caller sends the shopper to
 * sign in.
 */
export async function toggleFavorite(productId: string, offerId: string | null = null): Promise<ToggleOutcome> {
  const user = await settledUser();
  if (!user) {
    rememberIntent({ productId, offerId });
    return 'sign-in';
  }
  const key = favoriteKey(productId, offerId);
  const wasFavorite = $favoriteIds.get().has(key);
  setHeart(user.id, key, !wasFavorite);
  const result = wasFavorite ? await removeFavorite(user.id, productId, offerId) : await addFavorite(productId, offerId);
  if (result.error) {
    setHeart(user.id, key, wasFavorite);
    return 'failed';
  }
  const list = $favorites.get();
  if (wasFavorite && list.value) {
    const kept = list.value.filter((favorite) => favoriteKey(favorite.productId, favorite.offerId) !== key);
    $favorites.set({ ...list, value: kept });
  } else if (!wasFavorite && list.value) void reloadFavorites(user.id);
  return wasFavorite ? 'removed' : 'added';
}

/** The signed-in user once the session has loaded (a heart tapped as the page hydrates waits for it). */
function settledUser(): Promise<User | null> {
  return new Promise((resolve) => {
    const unsubscribe = $session.subscribe((session) => {
      if (session.loading) return;
      queueMicrotask(() => unsubscribe());
      resolve(session.user);
    });
  });
}

/** Saves the heart tapped before signing in, once; true when one was saved. */
export async function applyFavoriteIntent(userId: string): Promise<boolean> {
  const target = takeIntent();
  if (!target) return false;
  const result = await addFavorite(target.productId, target.offerId);
  if (result.error) return false;
  setHeart(userId, favoriteKey(target.productId, target.offerId), true);
  if ($favorites.get().value) void reloadFavorites(userId);
  return true;
}

function rememberIntent(target: HeartTarget): void {
  try {
    sessionStorage.setItem(FAVORITE_INTENT_KEY, target.offerId ? JSON.stringify(target) : target.productId);
  } catch {
    // Without storage the heart is simply tapped again after signing in.
  }
}

/** The heart kept before signing in: a product's id, or `{"productId","offerId"}` for one offer. */
function takeIntent(): HeartTarget | null {
  let saved: string | null;
  try {
    saved = sessionStorage.getItem(FAVORITE_INTENT_KEY);
    sessionStorage.removeItem(FAVORITE_INTENT_KEY);
  } catch {
    return null;
  }
  if (!saved) return null;
  if (!saved.startsWith('{')) return heartTarget({ favoriteProduct: saved });
  try {
    const data = JSON.parse(saved) as { productId?: unknown; offerId?: unknown };
    return heartTarget({
      favoriteProduct: typeof data.productId === 'string' ? data.productId : undefined,
      favoriteOffer: typeof data.offerId === 'string' ? data.offerId : undefined,
    });
  } catch {
    return null;
  }
}
