/**
 * The header's part of the hearts on every page, kept tiny: the hearts' script
 * (./favorite-hearts.ts) loads at once only for a shopper whose browser keeps a session (their
 * hearts show their state), and for anyone else on their first tap of a heart, which the header's
 * inline guard (./favorite-tap-guard.ts) holds until that script replays it. A visitor who never
 * taps a heart loads none of it.
 */
import { HEART } from '~/domain/favorite-hearts.ts';

/** supabase-js keeps a session in localStorage as `sb-<project>-auth-token`: a hint, the script reads it properly. */
function mayBeSignedIn(): boolean {
  try {
    for (let i = 0; i < localStorage.length; i += 1) if (/^sb-.+-auth-token$/.test(localStorage.key(i) ?? '')) return true;
  } catch {
    // No storage: nobody is signed in as far as this page can tell.
  }
  return false;
}

/** Starts the hearts now, or on the first tap of one. */
export function mountFavoriteHeartsWhenNeeded(link: HTMLElement | null): void {
  let loading: Promise<void> | null = null;
  const load = () => (loading ??= import('./favorite-hearts.ts').then(({ mountFavoriteHearts }) => mountFavoriteHearts(link)));
  if (mayBeSignedIn() || document.querySelector('[data-favorite-pending]')) {
    void load();
    return;
  }
  const onTap = (event: Event) => {
    if (!(event.target as Element | null)?.closest?.(HEART)) return;
    document.removeEventListener('click', onTap, true);
    void load();
  };
  document.addEventListener('click', onTap, true);
}
