/**
 * What each shop server remembers, for a second, of the products the database has just called sold
 * out, so that a drop's rush does not send every late shopper through the database to be told so.
 *
 * In a drop a thousand shoppers ask for a hundred units within a second or two. The first hundred
 * or so reach create_order and buy; everyone after them would be refused by the database too, but
 * each refusal still costs a round trip through the REST API (its JWT check, a connection, a
 * transaction) on the same cores that are serving the winners. The gate answers those at once:
 *
 * - It learns only from the database's own refusal 'out_of_stock:<product>' with the stock read as
 *   0 (hint '0'), for a plain line of that product (not a single's offer, not an order joining a
 *   preorder's waitlist), so it never says sold out of something the database did not just call
 *   sold out.
 * - It refuses, with the database's own message, an order with a plain line of such a product, for
 *   `ttlMs` (1 s) after the refusal it learned from; an order asking to join a waitlist, and offer
 *   lines, always go to the database.
 * - After those `ttlMs` the next order goes to the database again; if units came back (an admin
 *   edit, a cancelled or expired order) it is served. A restock is therefore seen at most one
 *   second late by each server, the same second nginx keeps a page.
 *
 * Fair: the gate refuses only what the database, asked a moment earlier, refused; it never chooses
 * among shoppers. Per process: with two servers each learns on its own (one extra refusal each).
 * The same answer is the same for every shopper, so the endpoint lets a proxy keep it for that
 * second too (`Cache-Control: public, max-age=1`): nginx's `location = /api/orders` in
 * docs/deploying.md keeps it by the request's body and answers the next identical carts itself.
 */

/** One line of an order as the endpoint received it. */
export interface GateLine {
  product_id: string;
  offer_id?: string | undefined;
}

/** The database's refusal, as the REST API returns it. */
export interface GateRefusal {
  message?: string | null;
  details?: string | null;
  hint?: string | null;
}

/** What the gate answers in the database's place. */
export interface GateAnswer {
  message: string;
  details: string;
  hint: string;
}

/** The sold-out products a server remembers, and for how long. */
export interface SoldOutGate {
  /** The database's refusal to give this order without asking it, or null to ask it. */
  refusal(lines: readonly GateLine[], waitlist: boolean): GateAnswer | null;
  /** Remembers a product the database has just refused as sold out for this order; that answer when it did, else null. */
  learn(lines: readonly GateLine[], waitlist: boolean, refusal: GateRefusal): GateAnswer | null;
}

/** How long a server trusts a sold-out answer: one second. */
export const SOLD_OUT_TTL_MS = 1000;

/** More products than a shop drops at once: beyond it, the oldest are forgotten first. */
const MAX_REMEMBERED = 1000;

/** A gate of one process; `now` is injectable for tests. */
export function createSoldOutGate(ttlMs = SOLD_OUT_TTL_MS, now: () => number = Date.now): SoldOutGate {
  const soldOut = new Map<string, { answer: GateAnswer; until: number }>();
  const plainIds = (lines: readonly GateLine[]) => {
    const withOffer = new Set(lines.filter((line) => line.offer_id !== undefined).map((line) => line.product_id));
    return lines.filter((line) => line.offer_id === undefined && !withOffer.has(line.product_id)).map((line) => line.product_id);
  };
  return {
    refusal(lines, waitlist) {
      if (waitlist || soldOut.size === 0) return null;
      const at = now();
      for (const id of plainIds(lines)) {
        const known = soldOut.get(id);
        if (!known) continue;
        if (known.until > at) return known.answer;
        soldOut.delete(id);
      }
      return null;
    },
    learn(lines, waitlist, refusal) {
      if (waitlist || refusal.hint !== '0' || !refusal.message) return null;
      const [code, ...rest] = (refusal.details ?? '').split(':');
      const productId = rest.join(':');
      if (code !== 'out_of_stock' || !plainIds(lines).includes(productId)) return null;
      const answer = { message: refusal.message, details: `out_of_stock:${productId}`, hint: '0' };
      soldOut.delete(productId);
      soldOut.set(productId, { answer, until: now() + ttlMs });
      if (soldOut.size > MAX_REMEMBERED) soldOut.delete(soldOut.keys().next().value!);
      return answer;
    },
  };
}
