/**
 * Static pages show the catalogue as it was built, and stock changes (orders, cancellations,
 * restocks) never rebuild them. So after load, ONE request per page reads the live stock and
 * availability of every product the page shows (`[data-live-product]`), and:
 * - product cards (plain HTML) correct their sold-out overlay and their add button;
 * - the buy box (a React island that waits for the shopper's first interaction) is woken with the
 *   `tienda:stock-changed` event when its product's live state differs from the page, and reads
 *   the live price and stock itself.
 * Plain fetch to the REST API with the public anon key: no framework, no supabase-js, no zod.
 */

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
}

/** The event that wakes the buy box when its product's stock differs from the page. */
export const STOCK_CHANGED_EVENT = 'tienda:stock-changed';
const SOLD_OUT = 'Agotado';
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

/** The REST URL that reads id, stock and availability of these products. */
export function liveStockUrl(base: string, ids: readonly string[]): string {
  const list = ids.map((id) => `"${id.replace(/["\\]/g, '')}"`).join(',');
  return `${base.replace(/\/+$/, '')}/rest/v1/products?select=id,stock,available&id=in.(${encodeURIComponent(list)})`;
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
    map.set(r.id, { stock, available: r.available !== false });
  }
  return map;
}

/** One request for the live stock of `ids`; an empty map when offline or not configured. */
export async function fetchLiveStock(ids: readonly string[], options: LiveStockSource): Promise<Map<string, LiveStock>> {
  const url = options.url;
  const key = options.anonKey;
  if (ids.length === 0 || !url || !key) return new Map();
  try {
    const res = await (options.fetchImpl ?? fetch)(liveStockUrl(url, ids), { headers: { apikey: key, authorization: `Bearer ${key}` } });
    if (!res.ok) return new Map();
    return parseLiveStock(await res.json());
  } catch {
    // Offline: the page keeps what it was built with; adding to the cart checks again anyway.
    return new Map();
  }
}

function parseStockAttribute(value: string | undefined): number | null {
  return value === undefined || value === '' ? null : Number(value);
}

/** Corrects one product card (plain HTML) to its live state. */
function applyToCard(card: HTMLElement, live: LiveStock): void {
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
    button.textContent = soldOut ? SOLD_OUT : 'Agregar';
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
    if (!state) continue;
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
export function mountLiveStock(source: LiveStockSource, doc: Document = document): void {
  if (doc.documentElement.dataset.liveStock === 'ready') return;
  doc.documentElement.dataset.liveStock = 'ready';
  const run = async () => {
    const ids = productIdsOn(doc);
    if (ids.length === 0) return;
    applyLiveStock(doc, await fetchLiveStock(ids, source));
  };
  const idle = (globalThis as { requestIdleCallback?: (cb: () => void, opts?: { timeout: number }) => void }).requestIdleCallback;
  const start = () => (idle ? idle(() => void run(), { timeout: 2000 }) : setTimeout(() => void run(), 200));
  if (doc.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
