import { useEffect, useRef } from 'react';
import { subscribeToUserRows, type LiveTable } from '~/data/realtime.ts';

/**
 * Runs `onChange` whenever the user's rows in `table` change; the subscription is closed when the
 * component unmounts or the user changes.
 */
export function useLiveRows(table: LiveTable, userId: string | null | undefined, onChange: () => void): void {
  const callback = useRef(onChange);
  callback.current = onChange;
  useEffect(() => {
    if (!userId) return undefined;
    return subscribeToUserRows(table, userId, () => callback.current());
  }, [table, userId]);
}
