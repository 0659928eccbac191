/**
 * Favorites toggle of the product page. Favorites are kept in this browser until the account's
 * favorites tab exists ('Pronto podrás ver y gestionar tus favoritos aquí.').
 */
import { useEffect, useState } from 'react';
import { PRODUCT_FAVORITE_TEXT } from '~/i18n/product.ts';

const STORAGE_KEY = 'favorites';

function readFavorites(): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** Heart button that marks a product as favorite. */
export default function FavoriteButton({ productId }: { productId: string }) {
  const [favorite, setFavorite] = useState(false);
  useEffect(() => setFavorite(readFavorites().includes(productId)), [productId]);
  const toggle = () => {
    const next = !favorite;
    const ids = readFavorites().filter((id) => id !== productId);
    if (next) ids.push(productId);
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(ids));
    } catch {
      // Storage full or blocked: the button still reflects the choice for this visit.
    }
    setFavorite(next);
  };
  return (
    <button type="button" className="btn btn-outline fav-btn" aria-pressed={favorite} onClick={toggle}>
      <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" fill={favorite ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="2">
        <path d="M12 20.5s-7.5-4.6-9.3-9.4C1.5 7.7 3.7 4 7.3 4c2 0 3.6 1.1 4.7 2.8C13.1 5.1 14.7 4 16.7 4c3.6 0 5.8 3.7 4.6 7.1-1.8 4.8-9.3 9.4-9.3 9.4Z" />
      </svg>
      {favorite ? PRODUCT_FAVORITE_TEXT.added : PRODUCT_FAVORITE_TEXT.add}
    </button>
  );
}
