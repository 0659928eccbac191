/**
 * The back office's filtered, paged lists (orders, products): the filters as applied and as being
 * typed, the page of results read for them, and the pager. The applied filters come from the
 * address once the island runs; applying the typed ones starts again at page 1.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { pagerOf, type PagerState } from '~/domain/pager.ts';

/** A page of results and how many there are in all. */
export interface ListPage {
  total: number;
}

interface Options<F, R> {
  /** Reads one page; null when it failed. */
  read: (filter: F) => Promise<R | null>;
  /** The filters with nothing chosen: the form's values until the island has read the address. */
  empty: F;
  /** The filters the list starts with (read from the address: runs in the browser, once). */
  initial: () => F;
  pageSize: number;
  /** While true nothing is read (the list is hidden). */
  paused?: boolean;
}

/** A filtered, paged list and what its form and pager need. */
export function usePagedList<F extends { page: number }, R extends ListPage>({ read, empty, initial, pageSize, paused = false }: Options<F, R>) {
  const [filter, setFilter] = useState<F | null>(null);
  const [draft, setDraft] = useState<F>(empty);
  const [result, setResult] = useState<R | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const start = initial();
    setFilter(start);
    setDraft(start);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the address is read once, as the island starts
  }, []);

  const load = useCallback(
    async (current: F) => {
      setFailed(false);
      const data = await read(current);
      if (data) setResult(data);
      else setFailed(true);
    },
    [read],
  );

  useEffect(() => {
    if (filter && !paused) void load(filter);
  }, [filter, paused, load]);

  /** Applies the typed filters from page 1 (the filter form's submit). */
  const apply = (event?: FormEvent) => {
    event?.preventDefault();
    setResult(null);
    setFilter({ ...draft, page: 1 });
  };

  /** Sets both the typed and the applied filters (e.g. 'Limpiar'). */
  const reset = (next: F) => {
    setDraft(next);
    setResult(null);
    setFilter(next);
  };

  const pager: PagerState = pagerOf(result?.total ?? 0, filter?.page ?? 1, pageSize);

  return {
    filter,
    draft,
    setDraft,
    result,
    setResult,
    failed,
    /** Reads the current page again. */
    reload: () => (filter ? load(filter) : Promise.resolve()),
    apply,
    reset,
    pager,
    /** Shows another page with the same filters. */
    goTo: (page: number) => setFilter((current) => (current ? { ...current, page } : current)),
  };
}
