/**
 * Header type-ahead: a combobox (WAI-ARIA "list autocomplete" pattern) over the build's search
 * index. The index's root is fetched on first focus and searched locally; with a big catalogue a
 * keystroke may load one more shard of it (src/domain/header-search/), never a backend call. Choosing a
 * product (a click, or Enter on an option highlighted with the arrow keys) opens /product/{id} and
 * clears the box; Enter otherwise opens every match on /explore?q=…, as the form does before
 * hydration. A click outside or Escape clears the box.
 */
import { useCallback, useEffect, useId, useRef, useState, type SubmitEvent, type KeyboardEvent } from 'react';
import { formatCount, prepareCountFormat } from '~/domain/counts.ts';
import type { SearchAnswer } from '~/domain/header-search/loader.ts';
import type { SearchEntry } from '~/domain/name-matching/matching.ts';
import { SEARCH_TEXT } from '~/i18n/search.ts';
import { usePrebuiltInput } from '../prebuilt';
import SearchPanel, { exploreHref } from './SearchPanel';
import { useDismissSearch, useSearchAnswer, type LoadState } from './use-search';
import './SearchBox.css';

/** Screen-reader summary of the results. */
export function resultsMessage(count: number): string {
  if (count === 0) return SEARCH_TEXT.empty;
  return count === 1 ? SEARCH_TEXT.oneResult : SEARCH_TEXT.results(formatCount(count));
}

/** Route of a product's detail page. */
export function productHref(id: string): string {
  return `/product/${encodeURIComponent(id)}`;
}

/** The panel's note: loading, a failed download, or no match (none once there are results). */
function panelMessage(state: LoadState, current: SearchAnswer | null): string {
  if (state === 'error') return SEARCH_TEXT.error;
  if (state !== 'ready' || !current) return SEARCH_TEXT.loading;
  return current.results.length === 0 ? SEARCH_TEXT.empty : '';
}

const SEARCH_ICON = (
  <svg className="ps-icon" width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2" />
    <path d="m20 20-3.5-3.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
  </svg>
);

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
  const { state, current, load } = useSearchAnswer(query);

  const results: SearchEntry[] = current?.results ?? [];
  const total = current?.total ?? 0;
  const showPanel = focused && query.trim() !== '';
  const expanded = showPanel && results.length > 0;

  const clear = useCallback(() => {
    setQuery('');
    setActive(-1);
  }, []);
  const blur = useCallback(() => setFocused(false), []);
  useDismissSearch(rootRef, clear, blur);

  const open = (entry: SearchEntry) => {
    clear();
    inputRef.current?.blur();
    window.location.assign(productHref(entry[0]));
  };

  // Text typed (and focus taken) before hydration is adopted: the search opens on it
  // (the shared mechanism of src/islands/prebuilt.ts).
  const onFocus = () => {
    setFocused(true);
    load();
    prepareCountFormat();
  };
  usePrebuiltInput(inputRef, query, setQuery, { onFocus });

  useEffect(() => {
    if (active >= 0) document.getElementById(`${baseId}-opcion-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, baseId]);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = results.length;
    if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && count > 0) {
      event.preventDefault();
      setActive((i) => (event.key === 'ArrowDown' ? (i + 1) % count : i <= 0 ? count - 1 : i - 1));
    } else if (event.key === 'Escape' && query !== '') {
      event.preventDefault();
      clear();
    } else if (event.key === 'Tab') {
      setFocused(false);
      setActive(-1);
    }
  };

  // Enter submits the form: open the product highlighted with the arrow keys, or else every
  // match on /explore (where the form goes without JavaScript too).
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const entry = active >= 0 ? results[active] : undefined;
    if (entry) {
      open(entry);
      return;
    }
    if (query.trim() === '') return;
    const href = exploreHref(query);
    clear();
    inputRef.current?.blur();
    window.location.assign(href);
  };

  const message = showPanel ? panelMessage(state, current) : '';

  return (
    <form ref={rootRef} className="ps-search" role="search" action="/explore" method="get" onSubmit={onSubmit}>
      <label htmlFor={`${baseId}-entrada`} className="visually-hidden">
        {SEARCH_TEXT.label}
      </label>
      {SEARCH_ICON}
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
        inputMode="search"
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
        onFocus={onFocus}
        onKeyDown={onKeyDown}
      />
      <SearchPanel
        query={query}
        current={current}
        active={active}
        expanded={expanded}
        hidden={!showPanel}
        message={message}
        isError={state === 'error'}
        listboxId={listboxId}
        listRef={listRef}
        optionId={optionId}
        onHover={setActive}
        onOpen={open}
      />
      <p className="visually-hidden" role="status" aria-live="polite">
        {showPanel && current ? resultsMessage(total) : ''}
      </p>
    </form>
  );
}
