/**
 * The header search's state outside its markup: the index loaded on demand and the answer to
 * the text in the box (useSearchAnswer), and the ways the box is dismissed (useDismissSearch).
 */
import { useEffect, useState, type RefObject } from 'react';
import { pageSearch } from './load-index';
import type { SearchAnswer } from '~/domain/header-search/loader.ts';

export type LoadState = 'idle' | 'loading' | 'ready' | 'error';

/**
 * Loads the index's root on `load()` and answers `query` once it is ready. `current` is the
 * answer to the text in the box only: the next one may still be loading a shard.
 */
export function useSearchAnswer(query: string): { state: LoadState; current: SearchAnswer | null; load: () => void } {
  const [state, setState] = useState<LoadState>('idle');
  const [answer, setAnswer] = useState<(SearchAnswer & { query: string }) | null>(null);

  const load = () => {
    if (state === 'loading' || state === 'ready') return;
    setState('loading');
    pageSearch()
      .root()
      .then(
        () => setState('ready'),
        () => setState('error'),
      );
  };

  useEffect(() => {
    if (state !== 'ready' || query.trim() === '') return;
    let stale = false;
    pageSearch()
      .search(query)
      .then(
        (found) => {
          if (!stale) setAnswer({ ...found, query });
        },
        () => {
          if (!stale) setState('error');
        },
      );
    return () => {
      stale = true;
    };
  }, [query, state]);

  const current = state === 'ready' && answer && answer.query === query && query.trim() !== '' ? answer : null;
  return { state, current, load };
}

/**
 * The specification: a click anywhere outside the search clears it; and a page restored from the
 * back/forward cache must not show the search that led away from it.
 */
export function useDismissSearch(
  // clear and blur should be stable (useCallback), or the listeners are registered again on every render.
  rootRef: RefObject<HTMLElement | null>,
  clear: () => void,
  blur: () => void,
): void {
  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      if (rootRef.current && event.target instanceof Node && !rootRef.current.contains(event.target)) {
        clear();
        blur();
      }
    };
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) clear();
    };
    document.addEventListener('pointerdown', onPointerDown);
    window.addEventListener('pageshow', onPageShow);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      window.removeEventListener('pageshow', onPageShow);
    };
  }, [rootRef, clear, blur]);
}
