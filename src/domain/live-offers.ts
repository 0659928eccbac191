/**
 * The offers of a single card's page as the shopper sees them now: the live price and stock of
 * each offer (read by the page script src/scripts/live-stock.ts and by the buy box,
 * src/islands/product/OfferPicker.tsx), the `?oferta=` of the address, and the short signature the
 * prebuilt page carries so the live-stock script can tell when an offer changed.
 */
import { type Centavos, databasePriceCentavos } from './money.ts';
import { offerKey, type SingleOffer } from './singles.ts';

/** The address's parameter that names the chosen offer (`?oferta=lp-en-parallel`). */
export const OFFER_PARAM = 'oferta';

/** One offer's price and stock as the database has them now (public.card_offers). */
export interface LiveOffer {
  id: string;
  priceCentavos: Centavos;
  originalPriceCentavos: Centavos | null;
  stock: number;
}

/** The columns the live reads ask for, embedded in a products row. */
export const LIVE_OFFER_COLUMNS = 'card_offers(id,price,original_price,stock)';

/**
 * Reads card_offers rows (id, price, original_price, stock) into id → live offer. A row that is
 * not an offer is skipped; a negative stock counts as none left.
 */
export function parseLiveOffers(rows: unknown): Map<string, LiveOffer> {
  const map = new Map<string, LiveOffer>();
  if (!Array.isArray(rows)) return map;
  for (const row of rows) {
    if (typeof row !== 'object' || row === null) continue;
    const r = row as Record<string, unknown>;
    if (typeof r.id !== 'string' || r.id === '') continue;
    const price = databasePriceCentavos(r.price);
    if (price === null) continue;
    const stock = typeof r.stock === 'number' && Number.isInteger(r.stock) ? Math.max(0, r.stock) : 0;
    map.set(r.id, { id: r.id, priceCentavos: price, originalPriceCentavos: databasePriceCentavos(r.original_price), stock });
  }
  return map;
}

/**
 * The offers with their live price and stock. Without a live answer (not read yet, offline) the
 * page's own values stand; with one, an offer the answer no longer has is gone (stock 0), so a
 * stale page never sells it.
 */
export function withLiveOffers<T extends SingleOffer>(offers: readonly T[], live: ReadonlyMap<string, LiveOffer> | null): T[] {
  if (!live) return [...offers];
  return offers.map((offer) => {
    const now = live.get(offer.id);
    if (!now) return { ...offer, stock: 0 };
    return { ...offer, priceCentavos: now.priceCentavos, originalPriceCentavos: now.originalPriceCentavos, stock: now.stock };
  });
}

/** The offer key the address names (`?oferta=`), lower case; null when none. */
export function offerKeyFromSearch(search: string): string | null {
  const key = new URLSearchParams(search).get(OFFER_PARAM)?.trim().toLowerCase();
  return key ? key : null;
}

/** The same address with `?oferta=key`, every other parameter and the fragment kept. */
export function hrefWithOffer(href: string, key: string): string {
  const url = new URL(href);
  url.searchParams.set(OFFER_PARAM, key);
  return url.href;
}

/** The offer a product has under `key`, if any. */
export function offerByKey<T extends SingleOffer>(offers: readonly T[], key: string | null): T | undefined {
  return key ? offers.find((offer) => offerKey(offer) === key) : undefined;
}

/**
 * What the prebuilt page shows of its offers, as one short string ('id:stock:price;…' in the
 * page's order), written into the buy box's `data-live-offers` and compared with the live answer.
 */
export function offersSignature(offers: ReadonlyArray<Pick<LiveOffer, 'id' | 'stock' | 'priceCentavos'>>): string {
  return offers.map((offer) => `${offer.id}:${offer.stock}:${offer.priceCentavos}`).join(';');
}

/**
 * Whether the live offers differ from what the page shows (its signature): a price or a stock
 * changed, or an offer was added or removed.
 */
export function liveOffersDiffer(shown: string, live: ReadonlyMap<string, LiveOffer>): boolean {
  const entries = shown === '' ? [] : shown.split(';');
  if (entries.length !== live.size) return true;
  for (const entry of entries) {
    const [id = '', stock, price] = entry.split(':');
    const now = live.get(id);
    if (!now || String(now.stock) !== stock || String(now.priceCentavos) !== price) return true;
  }
  return false;
}
