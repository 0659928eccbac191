/**
 * The buy box's live read: what the database has now for the product (its price and stock, or a
 * single card's offers), read once at hydration. 'idle' until then, so the prebuilt HTML never
 * shows a check that has not started; 'stale' when offline or the backend is down (the page keeps
 * selling from its prebuilt data and the order checks again); 'gone' when the product no longer
 * exists or is not for sale.
 */
import { useEffect, useRef, useState } from 'react';

export type LiveState = 'idle' | 'checking' | 'live' | 'stale' | 'gone';

/** Reads `read(productId)` once per product; `liveRequest` lets a click wait for the answer. */
export function useLiveRead<T extends { available: boolean }>(productId: string, read: (id: string) => Promise<T | null>) {
  const [live, setLive] = useState<T | null>(null);
  const [state, setState] = useState<LiveState>('idle');
  const liveRequest = useRef<Promise<T | null> | null>(null);
  useEffect(() => {
    let cancelled = false;
    setState('checking');
    const request = read(productId);
    liveRequest.current = request;
    request.then(
      (row) => {
        if (cancelled) return;
        setLive(row);
        setState(row && row.available ? 'live' : 'gone');
      },
      () => {
        if (!cancelled) setState('stale');
      },
    );
    return () => {
      cancelled = true;
    };
    // `read` is a module-level function of the data layer, the same on every render.
  }, [productId, read]);
  return { live, state, liveRequest };
}
