/**
 * The product page's heart: keeps the product in the shopper's favorites, saved to their account
 * (src/stores/favorites.ts), so the Favoritos tab shows it on every device. Signed out, the tap is
 * remembered and the shopper is sent to sign in; the favorite is saved once they have.
 */
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { PRODUCT_FAVORITE_TEXT } from '~/i18n/product.ts';
import { $favoriteIds, reloadFavorites, toggleFavorite } from '~/stores/favorites.ts';
import { $session, initSession } from '~/stores/session.ts';
import { flashToast, notify } from '~/stores/toast.ts';

/** Heart button that marks a product as favorite. */
export default function FavoriteButton({ productId }: { productId: string }) {
  const session = useStore($session);
  const ids = useStore($favoriteIds);
  const [busy, setBusy] = useState(false);
  const userId = session.user?.id ?? null;
  useEffect(() => initSession(), []);
  useEffect(() => {
    if (userId) void reloadFavorites(userId);
  }, [userId]);
  const favorite = userId !== null && ids.has(productId);

  const toggle = async () => {
    if (busy) return;
    setBusy(true);
    const outcome = await toggleFavorite(productId);
    setBusy(false);
    if (outcome === 'sign-in') {
      // Shown on the sign-in page, which this one hands over to at once.
      flashToast(PRODUCT_FAVORITE_TEXT.signIn, 'info');
      window.location.assign(`/auth?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
    } else if (outcome === 'failed') notify(PRODUCT_FAVORITE_TEXT.failed, 'error');
  };
  return (
    <button type="button" className="btn btn-outline fav-btn" aria-pressed={favorite} aria-busy={busy} onClick={() => void toggle()}>
      <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" fill={favorite ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="2">
        <path d="M12 20.5s-7.5-4.6-9.3-9.4C1.5 7.7 3.7 4 7.3 4c2 0 3.6 1.1 4.7 2.8C13.1 5.1 14.7 4 16.7 4c3.6 0 5.8 3.7 4.6 7.1-1.8 4.8-9.3 9.4-9.3 9.4Z" />
      </svg>
      {favorite ? PRODUCT_FAVORITE_TEXT.added : PRODUCT_FAVORITE_TEXT.add}
    </button>
  );
}
