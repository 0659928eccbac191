import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A status note that clears itself `ms` after it is shown (unless shown with `keep`, e.g. while
 * something is still in progress). Returns the note and the function that shows one.
 */
export function useNote(ms: number): [string, (text: string, keep?: boolean) => void] {
  const [note, setNote] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const show = useCallback(
    (text: string, keep = false) => {
      clearTimeout(timer.current);
      setNote(text);
      if (text && !keep) timer.current = setTimeout(() => setNote(''), ms);
    },
    [ms],
  );
  return [note, show];
}
