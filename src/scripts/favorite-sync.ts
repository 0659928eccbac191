/**
 * The part of the hearts that talks to the database, loaded only when needed (a tap, or a
 * signed-in page once idle; ./favorite-hearts.ts): the session, the favorites read from the
 * shopper's account and followed live (another device or tab adds or removes one), and a tap's
 * save. Signed out, a tap sends the shopper to sign in; the favorite is saved once they have.
 */
import { getSupabase } from '~/data/supabase.ts';
import type { HeartTarget } from '~/domain/favorite-hearts.ts';
import { PRODUCT_FAVORITE_TEXT } from '~/i18n/favorites.ts';
import { $favoriteIds, followFavorites, reloadFavorites, toggleFavorite } from '~/stores/favorites.ts';
import { initSession } from '~/stores/session.ts';
import { flashToast, notify } from '~/stores/toast.ts';

let started = false;

/**
 * Reads the signed-in shopper's favorites and follows them live; nobody signed in, no hearts. It
 * follows supabase-js's own session events and leaves the session store (src/stores/session.ts)
 * to the islands that start it, so an island hydrating later finds the state it was prebuilt with.
 * A new session is checked with the auth server first: one it refuses (a stale one kept in
 * storage) reads nothing.
 */
export function startFavoriteSync(): void {
  if (started) return;
  started = true;
  const supabase = getSupabase();
  let followed: string | null | undefined;
  let stopLive: (() => void) | null = null;
  const follow = (userId: string | null) => {
    if (userId === followed) return;
    stopLive?.();
    stopLive = null;
    followed = userId;
    if (!userId) {
      $favoriteIds.set(new Set());
      return;
    }
    void reloadFavorites(userId);
    stopLive = followFavorites(userId);
  };
  // Session events are numbered: a check answered after a later event (a sign-out meanwhile) is dropped.
  let latest = 0;
  supabase.auth.onAuthStateChange((_event, session) => {
    const event = ++latest;
    // supabase-js must not be called again inside this callback (it holds a lock), hence the defer.
    setTimeout(() => {
      if (!session) return follow(null);
      if (session.user.id === followed) return;
      // A session read from storage comes as INITIAL_SESSION, or as SIGNED_IN while supabase-js
      // recovers it: either may be one the auth server no longer accepts, so it is checked first.
      void supabase.auth.getUser().then(
        ({ data }) => event === latest && follow(data.user?.id === session.user.id ? data.user.id : null),
        () => event === latest && follow(null),
      );
    }, 0);
  });
}

/** A heart tapped: saves or removes the favorite; signed out, asks to sign in and keeps it for after. */
export async function tapHeart(target: HeartTarget): Promise<void> {
  startFavoriteSync();
  // toggleFavorite waits for the session store to settle.
  initSession();
  const outcome = await toggleFavorite(target.productId, target.offerId);
  if (outcome === 'sign-in') {
    // Shown on the sign-in page, which this one hands over to at once.
    flashToast(PRODUCT_FAVORITE_TEXT.signIn, 'info');
    window.location.assign(`/auth?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
  } else if (outcome === 'failed') notify(PRODUCT_FAVORITE_TEXT.failed, 'error');
}
