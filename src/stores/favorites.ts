/**
 * The shopper's favorites, kept in their account (src/data/favorites.ts): which products carry a
 * filled heart (`$favoriteIds`) and the Favoritos tab's list with live price and stock
 * (`$favorites`). A heart tapped while signed out is remembered in this tab's session storage and
 * saved once the shopper signs in (`applyFavoriteIntent`), so the sign-in it asks for is not lost.
 */
import { atom } from 'nanostores';
import type { User } from '@supabase/supabase-js';
import { addFavorite, listFavorites, removeFavorite, type Favorite } from '~/data/favorites.ts';
import type { Loadable } from './account.ts';
import { $session } from './session.ts';

export type { Favorite } from '~/data/favorites.ts';

/** The Favoritos tab's list, newest first. */
export const $favorites = atom<Loadable<Favorite[]>>({ loading: true, failed: false, value: null });
/** The products the signed-in shopper keeps as favorites (what the hearts show). */
export const $favoriteIds = atom<ReadonlySet<string>>(new Set());

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
  if (read !== latestRead) return;
  if (result.error) {
    $favorites.set({ ...$favorites.get(), loading: false, failed: true });
    return;
  }
  $favorites.set({ loading: false, failed: false, value: result.data });
  $favoriteIds.set(new Set(result.data.map((favorite) => favorite.productId)));
}

/** What tapping a heart did. */
export type ToggleOutcome = 'added' | 'removed' | 'sign-in' | 'failed';

function setHeart(productId: string, on: boolean): void {
  const ids = new Set($favoriteIds.get());
  if (on) ids.add(productId);
  else ids.delete(productId);
  $favoriteIds.set(ids);
}

/**
 * Adds the product to the shopper's favorites, or removes it when it is there. Signed out, the
 * intent is kept for after the sign-in and the caller sends the shopper to sign in.
 */
export async function toggleFavorite(productId: string): Promise<ToggleOutcome> {
  const user = await settledUser();
  if (!user) {
    rememberIntent(productId);
    return 'sign-in';
  }
  const wasFavorite = $favoriteIds.get().has(productId);
  setHeart(productId, !wasFavorite);
  const result = wasFavorite ? await removeFavorite(user.id, productId) : await addFavorite(productId);
  if (result.error) {
    setHeart(productId, wasFavorite);
    return 'failed';
  }
  const list = $favorites.get();
  if (wasFavorite && list.value) $favorites.set({ ...list, value: list.value.filter((favorite) => favorite.productId !== productId) });
  else if (!wasFavorite && list.value) void reloadFavorites(user.id);
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
  const productId = takeIntent();
  if (!productId) return false;
  const result = await addFavorite(productId);
  if (result.error) return false;
  setHeart(productId, true);
  if ($favorites.get().value) void reloadFavorites(userId);
  return true;
}

function rememberIntent(productId: string): void {
  try {
    sessionStorage.setItem(FAVORITE_INTENT_KEY, productId);
  } catch {
    // Without storage the heart is simply tapped again after signing in.
  }
}

function takeIntent(): string | null {
  try {
    const productId = sessionStorage.getItem(FAVORITE_INTENT_KEY);
    sessionStorage.removeItem(FAVORITE_INTENT_KEY);
    return productId;
  } catch {
    return null;
  }
}
