/**
 * Timed drops on prebuilt pages: the product page's countdown ('Faltan 2 días 03:04:05') and the
 * add buttons held until the drop (`button[data-drop-at]`: the buy box's and the cards'), which
 * turn on at the instant with no rebuild and no reload. The time is the shop's: one request to
 * GET /api/time measures how far the browser's clock is off (src/scripts/shop-clock.ts), so a
 * device with a wrong clock counts down to the right instant. Loaded only by a page that has a
 * drop (src/components/catalog/DropsScript.astro). Plain DOM, no framework; the database refuses early orders
 * whatever happens here.
 */
import { clockOffset, countdownParts, dropInstant } from '~/domain/drops.ts';
import { CATALOG_LIVE_STOCK_TEXT } from '~/i18n/storefront.ts';
import { DROP_PRODUCT_TEXT } from '~/i18n/drops.ts';
import { CLOCK_OFFSET_ATTRIBUTE, shopNow } from './shop-clock.ts';

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

/**
 * 'Faltan 2 días 03:04:05' for the milliseconds left.
 * @internal exported for its unit test
 */
export function countdownText(msLeft: number): string {
  const { days, hours, minutes, seconds } = countdownParts(msLeft);
  return DROP_PRODUCT_TEXT.countdown(days, `${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(seconds)}`);
}

/** Measures the shop's clock offset once (GET /api/time); the browser's clock stays in use when it fails. */
async function measureOffset(root: Document): Promise<void> {
  try {
    const sentAt = Date.now();
    const response = await fetch('/api/time', { cache: 'no-store' });
    const receivedAt = Date.now();
    if (!response.ok) return;
    const body = (await response.json()) as { now?: unknown };
    if (typeof body.now !== 'number' || !Number.isFinite(body.now)) return;
    root.documentElement.setAttribute(CLOCK_OFFSET_ATTRIBUTE, String(clockOffset(body.now, sentAt, receivedAt)));
  } catch {
    // Offline: the browser's clock it is; the order is checked by the database anyway.
  }
}

/** A held button turns on, unless its product sold out meanwhile; a card's says 'Agregar' again (or 'Agotado'). */
function release(button: HTMLButtonElement): void {
  delete button.dataset.dropHeld;
  const soldOut = button.closest('.is-sold-out, [data-live-sold-out="true"]') !== null;
  const { dropOpenText, dropOpenLabel } = button.dataset;
  if (dropOpenText !== undefined) button.textContent = soldOut ? CATALOG_LIVE_STOCK_TEXT.soldOut : dropOpenText;
  if (dropOpenLabel !== undefined) button.setAttribute('aria-label', dropOpenLabel);
  button.disabled = soldOut;
}

/** Keeps a button held: disabled, with the text and name it had when first held (another script may have changed them). */
function hold(button: HTMLButtonElement): void {
  if (button.dataset.dropHeld !== 'true') {
    button.dataset.dropHeld = 'true';
    button.dataset.dropHeldText = button.textContent ?? '';
    button.dataset.dropHeldLabel = button.getAttribute('aria-label') ?? '';
  }
  button.disabled = true;
  if (button.dataset.dropOpenText === undefined) return;
  if (button.textContent !== button.dataset.dropHeldText) button.textContent = button.dataset.dropHeldText ?? '';
  if (button.dataset.dropHeldLabel) button.setAttribute('aria-label', button.dataset.dropHeldLabel);
}

/**
 * Brings countdowns and held buttons to the shop's time; true while some drop is still ahead.
 * @internal exported for its unit test
 */
export function updateDrops(root: ParentNode, now: number): boolean {
  let pending = false;
  for (const notice of root.querySelectorAll<HTMLElement>('[data-drop-notice]')) {
    const at = dropInstant(notice.dataset.dropAt);
    const output = notice.querySelector<HTMLElement>('[data-drop-countdown]');
    if (at === null || !output) continue;
    const left = at - now;
    const text = left > 0 ? countdownText(left) : DROP_PRODUCT_TEXT.onSaleNow;
    if (output.textContent !== text) output.textContent = text;
    if (left > 0) pending = true;
  }
  for (const button of root.querySelectorAll<HTMLButtonElement>('button[data-drop-at]')) {
    const at = dropInstant(button.dataset.dropAt);
    if (at === null) continue;
    if (at > now) {
      pending = true;
      hold(button);
    } else if (button.dataset.dropHeld === 'true') {
      release(button);
    }
  }
  return pending;
}

/**
 * Dispatched on the document by a script that put new held buttons in the page (/explore's
 * results): the countdowns start over, so those buttons are held and turn on at their instant.
 */
const DROPS_CHANGED_EVENT = 'tienda:drops-changed';

/** Starts the countdowns of the page (once; DROPS_CHANGED_EVENT brings them up to date again). */
export function startDrops(root: Document): void {
  if (root.documentElement.dataset.drops === 'ready') return;
  root.documentElement.dataset.drops = 'ready';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = () => {
    clearTimeout(timer);
    const now = shopNow();
    // Next at the start of the shop's next second, so the button turns on as the countdown ends.
    if (updateDrops(root, now)) timer = setTimeout(tick, 1000 - (((now % 1000) + 1000) % 1000) + 5);
  };
  tick();
  void measureOffset(root).then(tick);
  root.addEventListener('visibilitychange', () => {
    if (root.visibilityState === 'visible') tick();
  });
  root.addEventListener(DROPS_CHANGED_EVENT, tick);
}
