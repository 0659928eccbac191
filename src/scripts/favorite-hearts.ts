/**
 * Every heart of the page (the product page's, each product card's, each offer's) and the header's
 * count of favorites, without a framework: one delegated listener for the whole page, so a listing
 * of hundreds of cards hydrates nothing per card.
 *
 * A heart is a `<button data-favorite-product="<id>">` (plus `data-favorite-offer` for one offer of
 * a single, `data-favorite-name` for what a card's or offer's heart names, a `[data-favorite-text]`
 * child when its name is its visible text). From the first paint the hearts and the count show the
 * copy of the shopper's favorites the browser keeps (written by src/stores/favorites.ts), when it
 * is the signed-in shopper's; once the page is idle, a signed-in page loads the favorites store
 * (./favorite-sync.ts), which reads them from the database and follows other devices live. A tap
 * loads that store too: signed out it asks to sign in and keeps the heart for after.
 */
import { cachedFavoriteKeys, favoriteKey, favoritesBadge, FAVORITES_CACHE_KEY, HEART, heartTarget, storedSessionUserId } from '~/domain/favorite-hearts.ts';
import { HEADER_FAVORITES_TEXT, PRODUCT_FAVORITE_TEXT } from '~/i18n/favorites.ts';
import { $favoriteIds } from '~/stores/favorite-ids.ts';
import { notify } from '~/stores/toast.ts';

/** Shows a heart as kept or not: `aria-pressed`, and a name that says what a tap does. */
function showHeart(button: HTMLElement, ids: ReadonlySet<string>): void {
  const target = heartTarget(button.dataset);
  if (!target) return;
  const pressed = ids.has(favoriteKey(target.productId, target.offerId));
  button.setAttribute('aria-pressed', String(pressed));
  const name = button.dataset.favoriteName;
  const label = name
    ? pressed
      ? PRODUCT_FAVORITE_TEXT.removeLabel(name)
      : PRODUCT_FAVORITE_TEXT.addLabel(name)
    : pressed
      ? PRODUCT_FAVORITE_TEXT.remove
      : PRODUCT_FAVORITE_TEXT.add;
  const text = button.querySelector<HTMLElement>('[data-favorite-text]');
  if (text) text.textContent = label;
  else button.setAttribute('aria-label', label);
}

function showHearts(root: ParentNode, ids: ReadonlySet<string>): void {
  for (const button of root.querySelectorAll<HTMLElement>(HEART)) showHeart(button, ids);
}

/** The header's heart: its badge (hidden at 0) and its name with the count, 'Favoritos (3)'. */
function showCount(link: HTMLElement | null, count: number): void {
  const badge = link?.querySelector<HTMLElement>('[data-favorites-count]');
  if (!link || !badge) return;
  badge.textContent = favoritesBadge(count);
  badge.hidden = count <= 0;
  link.setAttribute('aria-label', count > 0 ? HEADER_FAVORITES_TEXT.count(count) : HEADER_FAVORITES_TEXT.none);
  link.dataset.favoritesReady = 'true';
}

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

function cachedIds(userId: string | null): ReadonlySet<string> | null {
  try {
    const keys = cachedFavoriteKeys(localStorage.getItem(FAVORITES_CACHE_KEY), userId);
    return keys ? new Set(keys) : null;
  } catch {
    return null;
  }
}

const loadSync = () => import('./favorite-sync.ts');

function tap(button: HTMLElement): void {
  const target = heartTarget(button.dataset);
  if (!target || button.getAttribute('aria-busy') === 'true') return;
  button.setAttribute('aria-busy', 'true');
  loadSync()
    .then((sync) => sync.tapHeart(target))
    .catch(() => notify(PRODUCT_FAVORITE_TEXT.failed, 'error'))
    .finally(() => button.removeAttribute('aria-busy'));
}

/** Starts the page's hearts and the header's count (once per page). */
export function mountFavoriteHearts(link: HTMLElement | null): void {
  const root = document.documentElement;
  if (root.dataset.favoriteHearts === 'ready') return;
  root.dataset.favoriteHearts = 'ready';

  const userId = storedSessionUserId(sessionEntries());
  const cached = cachedIds(userId);
  if (cached) $favoriteIds.set(cached);
  $favoriteIds.subscribe((ids) => {
    showHearts(document, ids);
    showCount(link, ids.size);
  });

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

  for (const button of document.querySelectorAll<HTMLElement>('[data-favorite-pending]')) {
    delete button.dataset.favoritePending;
    tap(button);
  }

  // Cards drawn later (/explore's results, 'Ver más') show their hearts' state as they arrive.
  new MutationObserver((records) => {
    const ids = $favoriteIds.get();
    if (ids.size === 0) return;
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!(node instanceof Element)) continue;
        if (node.matches(HEART)) showHeart(node as HTMLElement, ids);
        else showHearts(node, ids);
      }
    }
  }).observe(document.body, { childList: true, subtree: true });

  // Another tab of this browser changed the favorites.
  window.addEventListener('storage', (event) => {
    if (event.key !== FAVORITES_CACHE_KEY) return;
    const ids = cachedIds(storedSessionUserId(sessionEntries()));
    if (ids) $favoriteIds.set(ids);
  });

  if (userId) {
    const start = () => void loadSync().then((sync) => sync.startFavoriteSync());
    const idle = (globalThis as { requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => void }).requestIdleCallback;
    if (idle) idle(start, { timeout: 2000 });
    else setTimeout(start, 500);
  }
}
