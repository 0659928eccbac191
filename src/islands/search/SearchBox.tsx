/**
 * Header type-ahead: a combobox (WAI-ARIA "list autocomplete" pattern) over the build's search
 * index. The index's root is fetched on first focus and searched locally; with a big catalogue a
 * keystroke may load one more shard of it (src/domain/search.ts), never a backend call. Choosing a product opens /product/{id} and clears the box; a click outside or Escape
 * clears it too.
 */
import { useEffect, useId, useRef, useState, type SubmitEvent, type KeyboardEvent } from 'react';
import { resolveImage } from '../../domain/images';
import { pageSearch } from './load-index';
import type { SearchAnswer, SearchEntry } from './search';
import { usePrebuiltInput } from '../prebuilt';
import './SearchBox.css';

type LoadState = 'idle' | 'loading' | 'ready' | 'error';

/** Spanish texts of the box, kept together so tests and markup agree. */
export const SEARCH_TEXT = {
  label: 'Buscar productos',
  placeholder: 'Buscar productos...',
  loading: 'Cargando productos…',
  error: 'No pudimos cargar la búsqueda. Intenta de nuevo.',
  empty: 'No encontramos productos con ese nombre.',
} as const;

/** The panel's link to every match on /explore: 'Ver todos los resultados (n)'. */
export function seeAllLabel(total: number): string {
  return `Ver todos los resultados (${total})`;
}

/** /explore filtered by the same query, which matches by the same rules (search.ts matchRank). */
export function exploreHref(query: string): string {
  return `/explore?${new URLSearchParams({ q: query.trim() }).toString()}`;
}

/** Screen-reader summary of the results. */
export function resultsMessage(count: number): string {
  if (count === 0) return SEARCH_TEXT.empty;
  return count === 1 ? '1 producto encontrado.' : `${count} productos encontrados.`;
}

/** Route of a product's detail page. */
export function productHref(id: string): string {
  return `/product/${encodeURIComponent(id)}`;
}

/** The header search box with its dropdown of matching products. */
export default function SearchBox() {
  const baseId = useId();
  const listboxId = `${baseId}-opciones`;
  const optionId = (index: number) => `${baseId}-opcion-${index}`;
  const rootRef = useRef<HTMLFormElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);

  const [query, setQuery] = useState('');
  const [focused, setFocused] = useState(false);
  const [active, setActive] = useState(-1);
  const [state, setState] = useState<LoadState>('idle');
  const [answer, setAnswer] = useState<(SearchAnswer & { query: string }) | null>(null);

  // Only the answer to the text in the box counts; the next one may still be loading a shard.
  const current = state === 'ready' && answer && answer.query === query && query.trim() !== '' ? answer : null;
  const results: SearchEntry[] = current?.results ?? [];
  const total = current?.total ?? 0;
  const hasQuery = query.trim() !== '';
  const showPanel = focused && hasQuery;
  const expanded = showPanel && results.length > 0;

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

  const clear = () => {
    setQuery('');
    setActive(-1);
  };

  const open = (entry: SearchEntry) => {
    clear();
    inputRef.current?.blur();
    window.location.assign(productHref(entry[0]));
  };

  // Text typed (and focus taken) before hydration is adopted: the search opens on it
  // (the shared mechanism of src/islands/prebuilt.ts).
  usePrebuiltInput(inputRef, query, setQuery, {
    onFocus: () => {
      setFocused(true);
      load();
    },
  });

  // The specification: a click anywhere outside the search clears it.
  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      if (rootRef.current && event.target instanceof Node && !rootRef.current.contains(event.target)) {
        clear();
        setFocused(false);
      }
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, []);

  // A page restored from the back/forward cache must not show the search that led away from it.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) clear();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  useEffect(() => {
    if (active < 0) return;
    document.getElementById(optionId(active))?.scrollIntoView({ block: 'nearest' });
    // optionId only depends on baseId, which never changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- optionId is stable (useId)
  }, [active]);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        if (results.length === 0) return;
        event.preventDefault();
        setActive((i) => (i + 1) % results.length);
        break;
      case 'ArrowUp':
        if (results.length === 0) return;
        event.preventDefault();
        setActive((i) => (i <= 0 ? results.length - 1 : i - 1));
        break;
      case 'Escape':
        if (query === '') return;
        event.preventDefault();
        clear();
        break;
      case 'Tab':
        setFocused(false);
        setActive(-1);
        break;
    }
  };

  // Enter submits the form: open the highlighted product, or the first one when none is.
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const entry = results[active] ?? results[0];
    if (entry) open(entry);
    else if (state === 'error') load();
  };

  let message = '';
  if (showPanel) {
    if (state === 'error') message = SEARCH_TEXT.error;
    else if (state !== 'ready' || !current) message = SEARCH_TEXT.loading;
    else if (results.length === 0) message = SEARCH_TEXT.empty;
  }

  return (
    <form ref={rootRef} className="ps-search" role="search" action="/explore" method="get" onSubmit={onSubmit}>
      <label htmlFor={`${baseId}-entrada`} className="visually-hidden">
        {SEARCH_TEXT.label}
      </label>
      <svg className="ps-icon" width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="m20 20-3.5-3.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <input
        ref={inputRef}
        id={`${baseId}-entrada`}
        className="ps-input"
        type="search"
        name="q"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listboxId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        placeholder={SEARCH_TEXT.placeholder}
        autoComplete="off"
        enterKeyHint="search"
        spellCheck={false}
        maxLength={100}
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(-1);
          setFocused(true);
          // A failed download is retried on the next focus or Enter, not on every keystroke.
          if (state === 'idle') load();
        }}
        onFocus={() => {
          setFocused(true);
          load();
        }}
        onKeyDown={onKeyDown}
      />
      <div className="ps-panel" hidden={!showPanel}>
        <ul
          ref={listRef}
          id={listboxId}
          className="ps-list"
          role="listbox"
          aria-label="Productos sugeridos"
          hidden={!expanded}
        >
          {results.map((entry, index) => {
            const src = current ? resolveImage(entry[2], current.storage) : '';
            return (
              <li
                key={entry[0]}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                className="ps-option"
                // Keep focus in the box so the click is not also a "click outside".
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => setActive(index)}
                onClick={() => open(entry)}
              >
                {src ? (
                  <img className="ps-thumb" src={src} alt="" width={40} height={40} loading="lazy" decoding="async" />
                ) : (
                  <span className="ps-thumb" aria-hidden="true" />
                )}
                <span className="ps-name">{entry[1]}</span>
              </li>
            );
          })}
        </ul>
        {message && <p className={state === 'error' ? 'ps-message ps-error' : 'ps-message'}>{message}</p>}
        {current && total > 0 && (
          <a
            className="ps-all"
            href={exploreHref(query)}
            // Keep focus in the box so the click is not also a "click outside".
            onMouseDown={(event) => event.preventDefault()}
          >
            {seeAllLabel(total)}
          </a>
        )}
      </div>
      <p className="visually-hidden" role="status" aria-live="polite">
        {showPanel && current ? resultsMessage(total) : ''}
      </p>
    </form>
  );
}
