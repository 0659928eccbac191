/**
 * Header cart badge. A plain module instead of a React island: it needs a few hundred bytes
 * on top of the cart store, where an island would ship React to every page, even those
 * with no other interactive part.
 */
import { $cartCount } from '~/stores/cart';
import { CATALOG_CART_COUNT_TEXT } from '~/i18n/storefront.ts';

/** Spanish phrase read by screen readers for the cart link, e.g. "Carrito, 3 artículos". */
export function cartLinkLabel(count: number): string {
  if (count <= 0) return CATALOG_CART_COUNT_TEXT.empty;
  return count === 1 ? CATALOG_CART_COUNT_TEXT.one : CATALOG_CART_COUNT_TEXT.many(count);
}

/** Keeps the badge and accessible name of the cart link in step with the cart; returns an unsubscribe. */
export function mountCartCount(link: HTMLElement | null): () => void {
  const label = link?.querySelector<HTMLElement>('[data-cart-label]');
  const badge = link?.querySelector<HTMLElement>('[data-cart-count]');
  if (!link || !label || !badge) return () => {};
  const unsubscribe = $cartCount.subscribe((count) => {
    label.textContent = cartLinkLabel(count);
    badge.textContent = count > 99 ? '99+' : String(count);
    badge.hidden = count <= 0;
    link.dataset.cartReady = 'true';
  });
  return unsubscribe;
}
