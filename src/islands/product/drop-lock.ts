/**
 * The buy box's hold on a timed drop: its add button stays disabled until the product's
 * `on_sale_at` by the shop's clock, and turns on at that instant with no reload. The shop's clock
 * is the browser's plus the offset measured from the server (src/scripts/shop-clock.ts), so a
 * browser with a wrong clock is held for the right time.
 */
import { useEffect, useState } from 'react';
import { dropInstant, isDropLocked } from '~/domain/drops.ts';
import { shopNow } from '~/scripts/shop-clock.ts';

// A timer checks again at most this often, so a clock offset measured later is taken into account.
const MAX_WAIT_MS = 1000;

/** Whether the drop `onSaleAt` is still ahead; turns false at its instant. */
export function useDropLocked(onSaleAt: string | null | undefined): boolean {
  const at = dropInstant(onSaleAt);
  const [locked, setLocked] = useState(() => isDropLocked(onSaleAt, shopNow()));
  useEffect(() => {
    if (at === null) {
      setLocked(false);
      return undefined;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      const left = at - shopNow();
      setLocked(left > 0);
      if (left > 0) timer = setTimeout(check, Math.min(left, MAX_WAIT_MS));
    };
    check();
    return () => clearTimeout(timer);
  }, [at]);
  return locked;
}
