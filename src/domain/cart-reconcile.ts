/**
 * Brings a stored cart in line with the live products and offers: lines whose product (or, for a
 * single card, whose offer) is gone, unavailable or sold out leave with a notice; prices and stock
 * refresh; quantities clamp to the stock. A line of a single card is priced and stocked by its
 * offer; a line without an offer by its product, as before offers existed.
 */
import { type Centavos, formatCentavos } from './money.ts';
import { clampQuantity } from './products.ts';
import { CART_RECONCILE_TEXT } from '../i18n/cart.ts';

/** What reconciling needs of a stored cart line. */
export interface StoredLine {
  id: string;
  name: string;
  priceCentavos: Centavos;
  quantity: number;
  stock: number | null;
  /** The single card's offer the line sells (public.card_offers.id). */
  offerId?: string | undefined;
  /** The offer as the shopper chose it: 'LP · Inglés · Parallel'. */
  offerLabel?: string | undefined;
}

/** Live facts about one product. */
export interface LiveFacts {
  id: string;
  name: string;
  priceCentavos: Centavos;
  stock: number | null;
  available: boolean;
  /**
   * A single card (a product with a printing): sold by offer only, so a line without an offer
   * (saved before the card was sold by condition, language and finish) can no longer be bought.
   */
  soldByOffer?: boolean;
}

/** Live facts about one offer of a single card. */
export interface LiveOfferFacts {
  id: string;
  productId: string;
  priceCentavos: Centavos;
  stock: number;
}

/** What happens to one cart line (named by its product id and offer id). */
export type LineChange =
  | { kind: 'remove'; id: string; offerId?: string; notice: string }
  | {
      kind: 'update';
      id: string;
      offerId?: string;
      priceCentavos: Centavos;
      stock: number | null;
      name: string;
      quantity: number;
      notices: string[];
    };

/** The line as its notices name it: the product, and the offer when it has one. */
export function lineTitle(name: string, offerLabel: string | undefined): string {
  return offerLabel ? `«${name}, ${offerLabel}»` : `«${name}»`;
}

const lineRef = (item: StoredLine) => (item.offerId ? { id: item.id, offerId: item.offerId } : { id: item.id });

/** The price and stock a line is sold at right now; null with a notice when it can no longer be bought. */
function liveTerms(
  item: StoredLine,
  product: LiveFacts | undefined,
  offers: ReadonlyMap<string, LiveOfferFacts>,
): { priceCentavos: Centavos; stock: number | null; name: string } | { notice: string } {
  const title = lineTitle(product?.name ?? item.name, item.offerLabel);
  if (!product || !product.available) return { notice: CART_RECONCILE_TEXT.unavailable(title) };
  if (!item.offerId) {
    if (product.soldByOffer) return { notice: CART_RECONCILE_TEXT.soldByOffer(title) };
    if (product.stock !== null && product.stock <= 0) return { notice: CART_RECONCILE_TEXT.soldOut(title) };
    return { priceCentavos: product.priceCentavos, stock: product.stock, name: product.name };
  }
  const offer = offers.get(item.offerId.toLowerCase());
  if (!offer || offer.productId !== item.id) return { notice: CART_RECONCILE_TEXT.offerGone(title) };
  if (offer.stock <= 0) return { notice: CART_RECONCILE_TEXT.soldOut(title) };
  return { priceCentavos: offer.priceCentavos, stock: offer.stock, name: product.name };
}

/**
 * The changes that make `items` agree with `live` and `liveOffers` (products and offers absent
 * from them no longer exist).
 */
export function reconcileCart(items: readonly StoredLine[], live: readonly LiveFacts[], liveOffers: readonly LiveOfferFacts[] = []): LineChange[] {
  const byId = new Map(live.map((p) => [p.id, p]));
  const offers = new Map(liveOffers.map((o) => [o.id.toLowerCase(), o]));
  const changes: LineChange[] = [];
  for (const item of items) {
    const terms = liveTerms(item, byId.get(item.id), offers);
    if ('notice' in terms) {
      changes.push({ kind: 'remove', ...lineRef(item), notice: terms.notice });
      continue;
    }
    const title = lineTitle(terms.name, item.offerLabel);
    const notices: string[] = [];
    if (terms.priceCentavos !== item.priceCentavos) {
      notices.push(CART_RECONCILE_TEXT.priceChanged(title, formatCentavos(item.priceCentavos), formatCentavos(terms.priceCentavos)));
    }
    const quantity = clampQuantity(item.quantity, terms.stock);
    if (quantity !== item.quantity) {
      notices.push(CART_RECONCILE_TEXT.quantityClamped(terms.stock, title));
    }
    if (notices.length > 0 || terms.stock !== item.stock || terms.name !== item.name) {
      changes.push({ kind: 'update', ...lineRef(item), ...terms, quantity, notices });
    }
  }
  return changes;
}
