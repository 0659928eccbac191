/** What the buy boxes of sealed products and single cards share outside React. */
import { PRODUCT_BUY_BOX_TEXT } from '~/i18n/product.ts';

/** How long a click replayed right after hydration waits for the live read: 1.5 s. */
export const LIVE_WAIT_MS = 1500;

/**
 * The answer of the live read once it arrives, waiting at most `ms`; undefined when there is no
 * read, it fails or it takes longer (the buy box then sells from what it already knows).
 */
export function settleWithin<T>(request: Promise<T> | null, ms: number = LIVE_WAIT_MS): Promise<T | undefined> {
  if (!request) return Promise.resolve(undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([request.catch(() => undefined), late]).finally(() => clearTimeout(timer));
}

/** The stock line under the price: 'Disponibles: n', or 'Disponible' when the stock is not counted. */
export function stockText(stock: number | null): string {
  return stock === null ? PRODUCT_BUY_BOX_TEXT.available : PRODUCT_BUY_BOX_TEXT.availableCount(stock);
}
