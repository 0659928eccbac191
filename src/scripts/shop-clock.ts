/**
 * The shop's clock in the browser: the browser's own, corrected by the offset src/scripts/drops.ts
 * measured from the server (GET /api/time) and keeps on the document element, so a countdown and
 * the buy box's hold agree with each other and with the server whatever the device's clock says.
 */

/** The document element's attribute holding the offset in ms (the shop's clock minus the browser's). */
export const CLOCK_OFFSET_ATTRIBUTE = 'data-shop-clock-offset';

/** Now by the shop's clock; the browser's own until an offset was measured. */
export function shopNow(): number {
  if (typeof document === 'undefined') return Date.now();
  const offset = Number(document.documentElement.getAttribute(CLOCK_OFFSET_ATTRIBUTE));
  return Date.now() + (Number.isFinite(offset) ? offset : 0);
}
