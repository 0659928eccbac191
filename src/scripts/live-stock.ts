/**
 * Static pages show the catalogue as it was built, and stock changes (orders, cancellations,
 * restocks) never rebuild them. So after load, ONE request per page reads the live stock and
 * availability of every product the page shows (`[data-live-product]`), and:
 * - product cards (plain HTML) correct their sold-out overlay and their add button;
 * - the buy box (a React island that waits for the shopper's first interaction) is woken with the
 *   `tienda:stock-changed` event when its product's live state differs from the page, and reads
 *   the live price and stock itself;
 * - the buy box of a single card (`data-live-offers`, its offers as the page shows them) is woken
 *   the same way when any offer's price or stock differs, the offers read in the same request, or
 *   when one of its offers is in an open preorder campaign (preorder_open_offers, asked at the
 *   same time), so that the picker shows it as 'Preventa · Sale el …'.
 * A preorder's card (`data-live-preorder`) sells what its open campaign allows, not the shelf's
 * stock: its own script corrects it (src/scripts/preorder-cards.ts), so this leaves it alone.
 * Plain fetch to the REST API with the public anon key: no framework, no supabase-js, no zod.
 */

import { LIVE_OFFER_COLUMNS, liveOffersDiffer, offerKeyFromSearch, parseLiveOffers, type LiveOffer } from '~/domain/live-offers.ts';
import { CATALOG_LIVE_STOCK_TEXT } from '~/i18n/storefront.ts';

/** Where the live stock is read: the Supabase URL and the public anon key. */
export interface LiveStockSource {
  url: string | undefined;
  anonKey: string | undefined;
  fetchImpl?: typeof fetch;
}

/** A product's stock as the database has it now (null stock: not tracked). */
export interface LiveStock {
  stock: number | null;
  available: boolean;
  /** A single card's offers by id, when they were asked for (withOffers). */
  offers?: Map<string, LiveOffer>;
}

/** The event that wakes the buy box when its product's stock differs from the page. */
export const STOCK_CHANGED_EVENT = 'tienda:stock-changed';
const SOLD_OUT = CATALOG_LIVE_STOCK_TEXT.soldOut;
const MAX_IDS = 200;

/** Sold out when not for sale or no unit is left. */
export function isLiveSoldOut(live: LiveStock): boolean {
  return !live.available || (live.stock !== null && live.stock <= 0);
}

/** The distinct product ids the page shows, in page order (at most 200: one request). */
export function productIdsOn(root: ParentNode): string[] {
  const ids = new Set<string>();
  for (const el of root.querySelectorAll<HTMLElement>('[data-live-product]')) {
    const id = el.dataset.liveProduct;
    if (id) ids.add(id);
  }
  return [...ids].slice(0, MAX_IDS);
}

/**
 * The REST URL that reads id, stock and availability of these products; with `withOffers`, also
 * the price and stock of each of their card offers (a single card's page).
 */
export function liveStockUrl(base: string, ids: readonly string[], withOffers = false): string {
  const list = ids.map((id) => `"${id.replace(/["\\]/g, '')}"`).join(',');
  const select = withOffers ? `id,stock,available,${LIVE_OFFER_COLUMNS}` : 'id,stock,available';
  return `${base.replace(/\/+$/, '')}/rest/v1/products?select=${select}&id=in.(${encodeURIComponent(list)})`;
}

/** Reads a REST answer into id → live stock, ignoring rows that are not products. */
export function parseLiveStock(rows: unknown): Map<string, LiveStock> {
  const map = new Map<string, LiveStock>();
  if (!Array.isArray(rows)) return map;
  for (const row of rows) {
    if (typeof row !== 'object' || row === null) continue;
    const r = row as Record<string, unknown>;
    if (typeof r.id !== 'string') continue;
    const stock = typeof r.stock === 'number' && Number.isInteger(r.stock) ? Math.max(0, r.stock) : null;
    const live: LiveStock = { stock, available: r.available !== false };
    if (Array.isArray(r.card_offers)) live.offers = parseLiveOffers(r.card_offers);
    map.set(r.id, live);
  }
  return map;
}

/** One request for the live stock of `ids`; an empty map when offline or not configured. */
export async function fetchLiveStock(ids: readonly string[], options: LiveStockSource, withOffers = false): Promise<Map<string, LiveStock>> {
  const url = options.url;
  const key = options.anonKey;
  if (ids.length === 0 || !url || !key) return new Map();
  try {
    const res = await (options.fetchImpl ?? fetch)(liveStockUrl(url, ids, withOffers), { headers: { apikey: key, authorization: `Bearer ${key}` } });
    if (!res.ok) return new Map();
    return parseLiveStock(await res.json());
  } catch {
    // Offline: the page keeps what it was built with; adding to the cart checks again anyway.
    return new Map();
  }
}

/**
 * The rows a public function of the REST API answers for `body` (with the anon key); null when it
 * cannot be read (offline, refused, not a list). Shared by the page scripts that ask the database.
 */
export async function readRpc(name: string, body: unknown, options: LiveStockSource): Promise<unknown[] | null> {
  const url = options.url;
  const key = options.anonKey;
  if (!url || !key) return null;
  try {
    const res = await (options.fetchImpl ?? fetch)(`${url.replace(/\/+$/, '')}/rest/v1/rpc/${name}`, {
      method: 'POST',
      headers: { apikey: key, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const rows: unknown = res.ok ? await res.json() : null;
    return Array.isArray(rows) ? rows : null;
  } catch {
    return null;
  }
}

/**
 * Whether any offer of this single card is in an open preorder campaign; false when it cannot be read.
 * @internal exported for its unit test
 */
export async function hasOpenOfferPreorders(productId: string, options: LiveStockSource): Promise<boolean> {
  return productId !== '' && ((await readRpc('preorder_open_offers', { p_product_ids: [productId] }, options))?.length ?? 0) > 0;
}

function parseStockAttribute(value: string | undefined): number | null {
  return value === undefined || value === '' ? null : Number(value);
}

/** Corrects one product card (plain HTML) to its live state. */
export function applyToCard(card: HTMLElement, live: LiveStock): void {
  const soldOut = isLiveSoldOut(live);
  card.classList.toggle('is-sold-out', soldOut);
  card.dataset.liveStock = live.stock === null ? '' : String(live.stock);
  const media = card.querySelector('.product-card-media');
  let overlay = card.querySelector<HTMLElement>('.product-card-overlay');
  if (soldOut && !overlay && media) {
    overlay = document.createElement('span');
    overlay.className = 'product-card-overlay';
    overlay.textContent = SOLD_OUT;
    media.append(overlay);
  } else if (!soldOut && overlay) {
    overlay.remove();
  }
  const button = card.querySelector<HTMLButtonElement>('button[data-card-add]');
  if (button) {
    try {
      const data = JSON.parse(button.dataset.cardAdd ?? '{}') as Record<string, unknown>;
      data.stock = live.stock;
      button.dataset.cardAdd = JSON.stringify(data);
    } catch {
      // A card without readable data is left to card-add.ts, which ignores it.
    }
    button.disabled = soldOut;
    button.textContent = soldOut ? SOLD_OUT : CATALOG_LIVE_STOCK_TEXT.add;
  }
}

/**
 * Applies live stock to the page: cards change in place; a buy box whose product changed wakes up
 * (once) to read its own live data. Returns how many elements differed from the page.
 */
export function applyLiveStock(root: ParentNode, live: Map<string, LiveStock>, win: Pick<Window, 'dispatchEvent'> = window): number {
  let changed = 0;
  let wake = false;
  for (const el of root.querySelectorAll<HTMLElement>('[data-live-product]')) {
    const state = live.get(el.dataset.liveProduct ?? '');
    if (!state || el.dataset.livePreorder !== undefined) continue;
    const shownOffers = el.dataset.liveOffers;
    if (shownOffers !== undefined && state.offers && liveOffersDiffer(shownOffers, state.offers)) {
      changed += 1;
      wake = true;
      continue;
    }
    const shown = parseStockAttribute(el.dataset.liveStock);
    const shownSoldOut = el.dataset.liveSoldOut === 'true' || (shown !== null && shown <= 0);
    if (shown === state.stock && shownSoldOut === isLiveSoldOut(state)) continue;
    changed += 1;
    if (el.dataset.liveKind === 'buy-box') wake = true;
    else applyToCard(el, state);
    el.dataset.liveSoldOut = String(isLiveSoldOut(state));
  }
  if (wake) win.dispatchEvent(new CustomEvent(STOCK_CHANGED_EVENT));
  return changed;
}

/** Runs once per page, when the browser is idle after load. */
// The read of this page's cards, shared with the preorder cards' script (./preorder-cards.ts), so
// a page asks for its products' stock once.
let pageRead: Promise<Map<string, LiveStock>> | null = null;
const PAGE_READ_EVENT = 'tienda:live-stock-read';

/**
 * The live stock this page's cards were read with, once its read started (null before); waits up
 * to `waitMs` for it to start.
 */
export function pageLiveStock(waitMs: number, doc: Document = document): Promise<Map<string, LiveStock> | null> {
  if (pageRead) return pageRead;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(pageRead), waitMs);
    doc.addEventListener(
      PAGE_READ_EVENT,
      () => {
        clearTimeout(timer);
        resolve(pageRead);
      },
      { once: true },
    );
  });
}

export function mountLiveStock(source: LiveStockSource, doc: Document = document): void {
  if (doc.documentElement.dataset.liveStock === 'ready') return;
  doc.documentElement.dataset.liveStock = 'ready';
  const run = async () => {
    const ids = productIdsOn(doc);
    if (ids.length === 0) return;
    const single = doc.querySelector<HTMLElement>('[data-live-offers][data-live-product]');
    pageRead = fetchLiveStock(ids, source, single !== null);
    doc.dispatchEvent(new CustomEvent(PAGE_READ_EVENT));
    const [live, preorder] = await Promise.all([pageRead, single ? hasOpenOfferPreorders(single.dataset.liveProduct ?? '', source) : false]);
    applyLiveStock(doc, live);
    if (preorder) window.dispatchEvent(new CustomEvent(STOCK_CHANGED_EVENT));
  };
  const idle = (globalThis as { requestIdleCallback?: (cb: () => void, opts?: { timeout: number }) => void }).requestIdleCallback;
  const start = () => (idle ? idle(() => void run(), { timeout: 2000 }) : setTimeout(() => void run(), 200));
  if (doc.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

/**
 * A link to a single card's page may name an offer (`?oferta=lp-en-parallel`), which the prebuilt
 * page cannot know: on load this checks that offer's radio in the buy box and wakes the buy box,
 * which adopts the choice at hydration and shows its price and stock. Returns whether an offer
 * was selected.
 */
export function selectLinkedOffer(doc: Document = document, win: Pick<Window, 'dispatchEvent' | 'location'> = window): boolean {
  const key = offerKeyFromSearch(win.location.search);
  if (!key) return false;
  const radio = Array.from(doc.querySelectorAll<HTMLInputElement>('[data-live-offers] input[type="radio"]')).find((input) => input.value === key);
  if (!radio) return false;
  if (!radio.checked) {
    radio.checked = true;
    win.dispatchEvent(new CustomEvent(STOCK_CHANGED_EVENT));
  }
  return true;
}
