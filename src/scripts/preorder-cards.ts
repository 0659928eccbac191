/**
 * The cards of preorder products (`[data-live-preorder]`, ProductCard.astro): a preorder sells
 * what its open campaign still allows, not the shelf's stock. After load one request reads the
 * campaigns open now (preorder_open_stock, with the public anon key); the shelf's stock is the
 * page's own read (src/scripts/live-stock.ts, which leaves these cards alone): a card in an open
 * campaign adds up to the units it allows (none left: 'Agotado'); one without an open campaign
 * shows the shelf's stock, 'Agotado' when it is empty. A single card built sold out
 * (`[data-single-preorder]`) may have a copy sold as a preorder: the same idle moment asks
 * preorder_open_offers, and a card with a copy in an open campaign with units left reads
 * 'Preventa' and links to its page to choose that copy (the page's offer picker shows the
 * campaign) instead of 'Agotado'. Loaded only by a page that shows such a card
 * (PreorderCardsScript.astro); plain DOM, no framework.
 */
import { applyToCard, fetchLiveStock, isLiveSoldOut, pageLiveStock, readRpc, type LiveStock, type LiveStockSource } from './live-stock.ts';

/** At most this many products per request (the ids travel in the body). */
const MAX_IDS = 200;

/**
 * Product id → the units its open preorder campaign still allows (null: no cap), for the products
 * that have an open campaign; null when it could not be read (the cards stay as built).
 * @internal exported for its unit test
 */
export async function fetchOpenPreorders(ids: readonly string[], options: LiveStockSource): Promise<Map<string, number | null> | null> {
  const rows = ids.length === 0 ? null : await readRpc('preorder_open_stock', { p_product_ids: ids }, options);
  if (rows === null) return null;
  const open = new Map<string, number | null>();
  for (const row of rows as Array<Record<string, unknown> | null>) {
    if (typeof row?.product_id !== 'string') continue;
    const left = row.remaining;
    open.set(row.product_id, typeof left === 'number' && Number.isInteger(left) ? Math.max(0, left) : null);
  }
  return open;
}

/**
 * The single cards (product ids) with a copy in an open preorder campaign that still takes orders
 * (units left, or no cap); null when it could not be read (the cards stay as built).
 * @internal exported for its unit test
 */
export async function fetchSinglesWithOpenPreorders(ids: readonly string[], options: LiveStockSource): Promise<Set<string> | null> {
  const rows = ids.length === 0 ? null : await readRpc('preorder_open_offers', { p_product_ids: ids.slice(0, MAX_IDS) }, options);
  if (rows === null) return null;
  const open = new Set<string>();
  for (const row of rows as Array<Record<string, unknown> | null>) {
    if (typeof row?.product_id !== 'string') continue;
    const left = row.remaining;
    if (left === null || (typeof left === 'number' && left > 0)) open.add(row.product_id);
  }
  return open;
}

/**
 * A single card built sold out whose copy is a preorder now: its 'Preventa' badge and its link to
 * choose the copy take the place of the overlay and the held 'Agotado' button.
 */
function showSinglePreorder(card: HTMLElement): void {
  card.classList.remove('is-sold-out');
  card.querySelector('.product-card-overlay')?.remove();
  const held = card.querySelector<HTMLButtonElement>('button[data-card-add]');
  if (held) held.hidden = true;
  for (const el of card.querySelectorAll<HTMLElement>('[data-single-preorder-show]')) el.hidden = false;
}

/**
 * The live state of the preorder products: one with an open campaign counts the units the
 * campaign still allows (null: no cap) instead of the shelf's stock; the others keep the shelf's.
 * A product `live` lacks is taken as for sale.
 * @internal exported for its unit test
 */
export function withOpenPreorders(live: ReadonlyMap<string, LiveStock>, open: ReadonlyMap<string, number | null>): Map<string, LiveStock> {
  const merged = new Map(live);
  for (const [id, remaining] of open) merged.set(id, { stock: remaining, available: live.get(id)?.available ?? true });
  return merged;
}

/** Runs once per page, when the browser is idle after load. */
export function mountPreorderCards(source: LiveStockSource, doc: Document = document): void {
  if (doc.documentElement.dataset.preorderCards === 'ready') return;
  doc.documentElement.dataset.preorderCards = 'ready';
  const singles = async () => {
    const cards = [...doc.querySelectorAll<HTMLElement>('[data-single-preorder]')];
    const ids = [...new Set(cards.map((card) => card.dataset.singlePreorder ?? ''))].filter((id) => id !== '');
    const open = await fetchSinglesWithOpenPreorders(ids, source);
    if (open === null) return;
    for (const card of cards) if (open.has(card.dataset.singlePreorder ?? '')) showSinglePreorder(card);
  };
  const sealed = async () => {
    const cards = [...doc.querySelectorAll<HTMLElement>('[data-live-preorder][data-live-product]')];
    if (cards.length === 0) return;
    const ids = [...new Set(cards.map((card) => card.dataset.liveProduct ?? ''))].filter((id) => id !== '').slice(0, MAX_IDS);
    // The shelf's stock: the page's own read (./live-stock.ts, which asks for every card's), or one
    // of these cards' if that read has not started within two seconds.
    const shelf = pageLiveStock(2000, doc).then((read) => read ?? fetchLiveStock(ids, source));
    const [live, open] = await Promise.all([shelf, fetchOpenPreorders(ids, source)]);
    // The campaigns could not be read: the cards stay as they were built (held).
    if (open === null) return;
    const merged = withOpenPreorders(live, open);
    for (const card of cards) {
      const state = merged.get(card.dataset.liveProduct ?? '');
      if (!state) continue;
      applyToCard(card, state);
      card.dataset.liveSoldOut = String(isLiveSoldOut(state));
    }
  };
  const run = () => Promise.all([sealed(), singles()]);
  const idle = (globalThis as { requestIdleCallback?: (cb: () => void, opts?: { timeout: number }) => void }).requestIdleCallback;
  const start = () => (idle ? idle(() => void run(), { timeout: 2000 }) : setTimeout(() => void run(), 200));
  if (doc.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
