/**
 * Expansion picker: the prebuilt list first, then the live list from Supabase (ordered by name,
 * refreshed when expansions change), with a debounced name search.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { fetchExpansions, type ExpansionItem } from '~/data/expansions.ts';
import { supabaseUrl } from '~/data/supabase.ts';
import { subscribeToExpansions } from '~/data/realtime.ts';
import { IMAGE_SLOTS, resolveImage } from '~/domain/images.ts';
import { Picture } from '../ui/Picture.tsx';
import { matchByName } from '~/domain/products.ts';
import { COMMON_TEXT } from '~/i18n/common.ts';
import { EXPANSION_PICKER_TEXT } from '~/i18n/catalog.ts';
import { usePrebuiltInput } from '../prebuilt.ts';

/** Search debounce of the specification. */
export const SEARCH_DEBOUNCE_MS = 250;
// Below this a load is too quick to be worth a flash of skeletons over the prebuilt list.
const SKELETON_DELAY_MS = 150;
const SKELETON_COUNT = 12;

interface Props {
  franchiseId: string;
  /** The list known at build time, shown until (and unless) the live list arrives. */
  initial: ExpansionItem[];
}

type Status = 'idle' | 'loading' | 'ready' | 'error';

/** The searchable expansion grid of /franchise/{id}/expansions. */
export default function ExpansionPicker({ franchiseId, initial }: Props) {
  const [items, setItems] = useState<ExpansionItem[]>(initial);
  const [status, setStatus] = useState<Status>('idle');
  const [showSkeleton, setShowSkeleton] = useState(false);
  const [query, setQuery] = useState('');
  const [debounced, setDebounced] = useState('');
  const request = useRef(0);
  const inputRef = useRef<HTMLInputElement>(null);

  // A filter typed before hydration applies at once (src/islands/prebuilt.ts).
  usePrebuiltInput(inputRef, query, (typed) => {
    setQuery(typed);
    setDebounced(typed);
  });

  const load = useCallback(async () => {
    const id = ++request.current;
    setStatus('loading');
    const timer = setTimeout(() => setShowSkeleton(true), SKELETON_DELAY_MS);
    try {
      const live = await fetchExpansions(franchiseId);
      if (id !== request.current) return;
      setItems(live);
      setStatus('ready');
    } catch {
      if (id === request.current) setStatus('error');
    } finally {
      clearTimeout(timer);
      if (id === request.current) setShowSkeleton(false);
    }
  }, [franchiseId]);

  useEffect(() => {
    void load();
    return subscribeToExpansions(franchiseId, () => void load());
  }, [franchiseId, load]);

  useEffect(() => {
    const timer = setTimeout(() => setDebounced(query), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);

  const visible = useMemo(() => matchByName(items, debounced), [items, debounced]);
  const base = supabaseUrl();

  return (
    <div className="expansion-picker">
      <div className="field expansion-search">
        <label htmlFor="buscar-expansion" className="visually-hidden">
          {EXPANSION_PICKER_TEXT.searchLabel}
        </label>
        <input
          ref={inputRef}
          id="buscar-expansion"
          className="input"
          type="search"
          placeholder={EXPANSION_PICKER_TEXT.searchPlaceholder}
          value={query}
          onChange={(event) => setQuery(event.currentTarget.value)}
          autoComplete="off"
          enterKeyHint="search"
        />
      </div>
      {status === 'error' && (
        <div className="expansion-error" role="alert">
          <p>{EXPANSION_PICKER_TEXT.loadFailed}</p>
          <button type="button" className="btn btn-outline" onClick={() => void load()}>
            {COMMON_TEXT.retry}
          </button>
        </div>
      )}
      {status === 'loading' && showSkeleton ? (
        <ul className="picker-grid" aria-busy="true" aria-label={EXPANSION_PICKER_TEXT.loading}>
          {Array.from({ length: SKELETON_COUNT }, (_, i) => (
            <li key={i} className="picker-card skeleton-card" data-testid="expansion-skeleton">
              <span className="picker-card-media skeleton-block" />
              <span className="skeleton-line" />
            </li>
          ))}
        </ul>
      ) : (
        <>
          <p className="expansion-count" role="status">
            {EXPANSION_PICKER_TEXT.results(visible.length)}
          </p>
          {visible.length === 0 ? (
            <p className="expansion-empty">{EXPANSION_PICKER_TEXT.empty}</p>
          ) : (
            <ul className="picker-grid">
              {visible.map((item) => (
                <li key={item.id}>
                  <a className="picker-card" href={`/franchise/${franchiseId}/expansions/${item.id}/products`}>
                    <span className="picker-card-media">
                      {item.image && (
                        <Picture src={resolveImage(item.image, base)} frame={IMAGE_SLOTS.tile} box={[320, 180]} alt="" loading="lazy" decoding="async" />
                      )}
                    </span>
                    <span className="picker-card-name">{item.name}</span>
                  </a>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
