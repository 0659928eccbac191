/**
 * Every heart of the page (the product page's, each product card's, each offer's) and the header's
 * count of favorites, without a framework: one delegated listener for the whole page, so a listing
 * of hundreds of cards hydrates nothing per card.
 *
 * A heart is a `<button data-favorite-product="<id>">` (plus `data-favorite-offer` for one offer of
 * a single, `data-favorite-name` for what a card's or offer's heart names, a `[data-favorite-text]`
 * child when its name is its visible text). The hearts' island (src/islands/product/FavoriteHearts.tsx)
 * runs this part, woken by the header's inline script (./favorite-tap-guard.ts) at once for a
 * browser that keeps a session, else on the first tap of a heart: it holds the taps and finds out
 * whether someone is signed in (the session supabase-js keeps, read without loading
 * it). Signed in, it loads what the hearts show (./favorite-hearts-state.ts: the browser's copy of
 * the shopper's favorites at once) and, once the page is idle, the favorites store
 * (./favorite-sync.ts: the account's favorites, followed live). A tap loads both: signed out it
 * asks to sign in and keeps the heart for after. A visitor who never signs in loads neither.
 */
import { HEART, heartTarget, storedSessionUserId } from '~/domain/favorite-hearts.ts';
import { PRODUCT_FAVORITE_TEXT } from '~/i18n/favorites.ts';
import { notify } from '~/stores/toast.ts';

/** localStorage's entries that may hold a session (the others' values are not read). */
function sessionEntries(): Array<[string, string | null]> {
  const entries: Array<[string, string | null]> = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key?.startsWith('sb-')) entries.push([key, localStorage.getItem(key)]);
    }
  } catch {
    // No storage: nobody is signed in as far as this page can tell.
  }
  return entries;
}

const loadSync = () => import('./favorite-sync.ts');

/** Starts the page's hearts and the header's count (once per page). */
export function mountFavoriteHearts(link: HTMLElement | null): void {
  const root = document.documentElement;
  if (root.dataset.favoriteHearts === 'ready') return;
  root.dataset.favoriteHearts = 'ready';

  const userId = storedSessionUserId(sessionEntries());
  const showState = () => import('./favorite-hearts-state.ts').then((state) => state.showFavoriteHearts(link, userId));

  const tap = (button: HTMLElement) => {
    const target = heartTarget(button.dataset);
    if (!target || button.getAttribute('aria-busy') === 'true') return;
    button.setAttribute('aria-busy', 'true');
    // What the hearts show first, so the tap's change is not overwritten by the browser's copy.
    showState()
      .then(loadSync)
      .then((sync) => sync.tapHeart(target))
      .catch(() => notify(PRODUCT_FAVORITE_TEXT.failed, 'error'))
      .finally(() => button.removeAttribute('aria-busy'));
  };

  // Capture: a heart inside an island that has not hydrated yet is still this listener's, once.
  document.addEventListener(
    'click',
    (event) => {
      const button = (event.target as Element | null)?.closest<HTMLElement>(HEART);
      if (!button) return;
      event.preventDefault();
      event.stopPropagation();
      tap(button);
    },
    { capture: true },
  );
  // Taps held by the header's inline guard (./favorite-tap-guard.ts) before this ran.
  for (const button of document.querySelectorAll<HTMLElement>('[data-favorite-pending]')) {
    delete button.dataset.favoritePending;
    tap(button);
  }

  if (!userId) return;
  void showState();
  const start = () => void loadSync().then((sync) => sync.startFavoriteSync());
  const idle = (globalThis as { requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => void }).requestIdleCallback;
  if (idle) idle(start, { timeout: 2000 });
  else setTimeout(start, 500);
}
