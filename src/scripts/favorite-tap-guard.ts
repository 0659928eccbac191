/**
 * Inline in the header, before any heart (src/components/layout/Header.astro): a heart tapped
 * before the hearts' script (./favorite-hearts.ts) runs is held (`data-favorite-pending`) and
 * tapped again once it does, so a slow phone's first tap is not lost. Plain ES5 in a string: it
 * runs as it is, before any module.
 */
import { HEART } from '~/domain/favorite-hearts.ts';

export const FAVORITE_TAP_GUARD = `document.addEventListener('click',function(e){var b=e.target&&e.target.closest&&e.target.closest('${HEART}');if(b&&document.documentElement.dataset.favoriteHearts!=='ready'){e.preventDefault();e.stopPropagation();b.dataset.favoritePending='true'}},true)`;
