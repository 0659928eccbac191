/**
 * What the page's hearts and the header's count show, loaded by ./favorite-hearts.ts only when
 * someone is signed in (or a heart is tapped): `aria-pressed` and a name that says what a tap does
 * on every heart, the header's badge and name ('Favoritos (3)'), from the copy of the shopper's
 * favorites the browser keeps (written by src/stores/favorites.ts) at once, then from the account
 * once the page is idle (./favorite-sync.ts), and on cards drawn later (/explore's results).
 */
import { cachedFavoriteKeys, favoriteKey, favoritesBadge, FAVORITES_CACHE_KEY, HEART, heartTarget } from '~/domain/favorite-hearts.ts';
import { HEADER_FAVORITES_TEXT, PRODUCT_FAVORITE_TEXT } from '~/i18n/favorites.ts';
import { $favoriteIds } from '~/stores/favorite-ids.ts';

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
}

function cachedIds(userId: string | null): ReadonlySet<string> | null {
  try {
    const keys = cachedFavoriteKeys(localStorage.getItem(FAVORITES_CACHE_KEY), userId);
    return keys ? new Set(keys) : null;
  } catch {
    return null;
  }
}

let shown = false;

/**
 * Shows the favorites of `userId` (the session the browser keeps; null: nobody) on the page's hearts
 * and the header's count, and keeps them in step (once per page).
 */
export function showFavoriteHearts(link: HTMLElement | null, userId: string | null): void {
  if (shown) return;
  shown = true;
  const cached = cachedIds(userId);
  if (cached) $favoriteIds.set(cached);
  $favoriteIds.subscribe((ids) => {
    showHearts(document, ids);
    showCount(link, ids.size);
  });

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
    const ids = cachedIds(userId);
    if (ids) $favoriteIds.set(ids);
  });
}
