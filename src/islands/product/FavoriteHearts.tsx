/**
 * The hearts of the page (every card's, the product page's, each offer's) and the header's count,
 * woken by the header's inline script (src/scripts/favorite-tap-guard.ts) when someone is signed in or
 * a heart is tapped: it runs the hearts' delegated script (src/scripts/favorite-hearts.ts), which
 * replays a tap held before it ran. Renders nothing.
 */
import { useEffect } from 'react';
import { mountFavoriteHearts } from '~/scripts/favorite-hearts.ts';

export default function FavoriteHearts() {
  useEffect(() => {
    mountFavoriteHearts(document.querySelector<HTMLElement>('[data-favorites-link]'));
  }, []);
  return null;
}
