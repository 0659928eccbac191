/** The header search's dropdown: the matching products, a message, and the link to every match. */
import type { RefObject } from 'react';
import { formatCount } from '~/domain/counts.ts';
import { IMAGE_SLOTS, resolveImage } from '~/domain/images';
import { Picture } from '../ui/Picture.tsx';
import type { SearchAnswer } from '~/domain/header-search/loader.ts';
import type { SearchEntry } from '~/domain/name-matching/matching.ts';
import { SEARCH_PANEL_TEXT } from '~/i18n/search.ts';

/** The panel's link to every match on /explore: 'Ver todos los resultados (n)'. */
export function seeAllLabel(total: number): string {
  return SEARCH_PANEL_TEXT.seeAll(formatCount(total));
}

/** /explore filtered by the same query, which matches by the same rules (src/domain/name-matching/matching.ts entryRank: names, abbreviations, typos). */
export function exploreHref(query: string): string {
  return `/explore?${new URLSearchParams({ q: query.trim() }).toString()}`;
}

interface Props {
  query: string;
  current: SearchAnswer | null;
  active: number;
  expanded: boolean;
  hidden: boolean;
  message: string;
  isError: boolean;
  listboxId: string;
  listRef: RefObject<HTMLUListElement | null>;
  optionId: (index: number) => string;
  onHover: (index: number) => void;
  onOpen: (entry: SearchEntry) => void;
}

// Keeps focus in the box, so a click in the panel is not also a "click outside".
const keepFocus = (event: { preventDefault(): void }) => event.preventDefault();

export default function SearchPanel({ query, current, active, expanded, hidden, message, isError, listboxId, listRef, optionId, onHover, onOpen }: Props) {
  const results = current?.results ?? [];
  const total = current?.total ?? 0;
  return (
    <div className="ps-panel" hidden={hidden}>
      <ul ref={listRef} id={listboxId} className="ps-list" role="listbox" aria-label={SEARCH_PANEL_TEXT.suggestions} hidden={!expanded}>
        {results.map((entry, index) => {
          const src = current ? resolveImage(entry[2], current.storage) : '';
          return (
            <li
              key={entry[0]}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              className="ps-option"
              onMouseDown={keepFocus}
              onMouseMove={() => onHover(index)}
              onClick={() => onOpen(entry)}
            >
              {src ? (
                <Picture className="ps-thumb" src={src} frame={IMAGE_SLOTS.thumb40} box={[40, 40]} alt="" loading="lazy" decoding="async" />
              ) : (
                <span className="ps-thumb" aria-hidden="true" />
              )}
              <span className="ps-name">{entry[1]}</span>
            </li>
          );
        })}
      </ul>
      {message && <p className={isError ? 'ps-message ps-error' : 'ps-message'}>{message}</p>}
      {current && total > 0 && (
        <a className="ps-all" href={exploreHref(query)} onMouseDown={keepFocus}>
          {seeAllLabel(total)}
        </a>
      )}
    </div>
  );
}
