/**
 * Counts as a Mexican shopper reads them: 100,000 productos, Ver todos los resultados (1,234).
 */
import { LOCALE } from './money.ts';

/**
 * Made at the first count of 1,000 or more, or ahead of it by prepareCountFormat: the first
 * number format of a page loads its locale's data (20–37 ms in Chromium on the 2-core test
 * machine, 2026-11-26; see money.ts), which no script should pay on a keystroke.
 */
let countFormatter: Intl.NumberFormat | undefined;
function formatter(): Intl.NumberFormat {
  countFormatter ??= new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
  return countFormatter;
}

/** A whole count in es-MX: digits grouped by thousands with a comma. */
export function formatCount(count: number): string {
  // Below 1,000 there is nothing to group: no format is made for it.
  if (Number.isInteger(count) && Math.abs(count) < 1000) return String(count);
  return formatter().format(count);
}

/**
 * Makes the format when the browser is idle, ahead of a count that will need it: the header
 * search calls it as it takes focus, so 'Ver todos los resultados (1,234)' costs no more than
 * '(12)' on the keystroke that shows it.
 */
export function prepareCountFormat(): void {
  if (countFormatter) return;
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => formatter(), { timeout: 2000 });
  else setTimeout(() => formatter(), 0);
}
