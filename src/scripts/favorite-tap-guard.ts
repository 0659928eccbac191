/**
 * Inline in the header, before any heart (src/components/layout/Header.astro): the hearts' only
 * code on a page until it is needed. It wakes the hearts' island (src/islands/product/FavoriteHearts.tsx,
 * `client:event="tienda:favorites"`, which runs ./favorite-hearts.ts) once the page is parsed for a
 * browser that keeps a session (supabase-js's `sb-<project>-auth-token`: a hint, the island reads
 * it properly), so their hearts show their state; and on anyone's first tap of a heart, which it
 * holds (`data-favorite-pending`) for the island to replay. A visitor who never taps a heart loads
 * none of the hearts' code. Plain ES5 in a string: it runs as it is, before any module.
 */
import { HEART } from '~/domain/favorite-heart-selector.ts';

/** The event that wakes the hearts' island (Header.astro: `client:event="tienda:favorites"`). */
const FAVORITES_WAKE_EVENT = 'tienda:favorites';

export const FAVORITE_TAP_GUARD = `(function(){var d=document;function w(){dispatchEvent(new CustomEvent('${FAVORITES_WAKE_EVENT}'))}d.addEventListener('click',function(e){var b=e.target&&e.target.closest&&e.target.closest('${HEART}');if(b&&d.documentElement.dataset.favoriteHearts!=='ready'){e.preventDefault();e.stopPropagation();b.dataset.favoritePending='true';w()}},true);d.addEventListener('DOMContentLoaded',function(){var s=d.querySelector('[data-favorite-pending]');try{for(var i=0;i<localStorage.length;i++)if(/^sb-.+-auth-token$/.test(localStorage.key(i)||''))s=1}catch(x){}if(s)w()})})()`;
