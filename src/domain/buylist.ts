/**
 * The buylist as the screens read it ('Vende tus cartas'): finding a card the shop buys with the
 * header search's own matching (./name-matching/matching.ts, over the buylist's cards instead of
 * the catalogue), and the sell list's totals. The prices themselves come from the database, which
 * sets and enforces them; these only add up what it answered.
 */
import { addCentavos, multiplyCentavos, type Centavos } from './money.ts';
import { cardText, DEFAULT_LIMIT, prepareIndex, searchWithTotal, type PreparedIndex } from './name-matching/matching.ts';
import { normalizeCollectorNumber } from './singles.ts';
import { SELL_REFUSAL_TEXT } from '../i18n/buylist.ts';

/** What the search needs of a card the shop buys. */
export interface BuylistSearchCard {
  /** The key the screen finds the card again by (its product id). */
  key: string;
  /** The product's name ('Monkey.D.Luffy (OP05-119)'). */
  name: string;
  collectorNumber: string;
  nameEn: string | null;
  nameEs: string | null;
}

/** The buylist's cards ready to be searched as the header search searches the catalogue. */
export function buylistSearchIndex(cards: readonly BuylistSearchCard[]): PreparedIndex {
  return prepareIndex(
    cards.map((card) => [card.key, card.name, '', cardText(card.name, normalizeCollectorNumber(card.collectorNumber), [card.nameEn, card.nameEs])]),
  );
}

/** The keys of the cards matching `query`, best first, and how many match in all. */
export function searchBuylist(index: PreparedIndex, query: string, limit = DEFAULT_LIMIT): { keys: string[]; total: number } {
  const { results, total } = searchWithTotal(index, query, limit);
  return { keys: results.map((entry) => entry[0]), total };
}

/** A sell list's line as its totals need it: the price of one copy each way. */
export interface PricedLine {
  quantity: number;
  transferEach: Centavos;
  creditEach: Centavos;
}

/** What a sell list is worth paid by transfer and in saldo a favor (with its bonus). */
export function sellTotals(lines: readonly PricedLine[]): { transfer: Centavos; credit: Centavos } {
  return {
    transfer: addCentavos(...lines.map((line) => multiplyCentavos(line.transferEach, line.quantity))),
    credit: addCentavos(...lines.map((line) => multiplyCentavos(line.creditEach, line.quantity))),
  };
}

/** Two lines are the same copies when they are the same card in the same condition, language and finish. */
export function sameCopies(
  a: { productId: string; condition: string; language: string; finish: string },
  b: { productId: string; condition: string; language: string; finish: string },
): boolean {
  return a.productId === b.productId && a.condition === b.condition && a.language === b.language && a.finish === b.finish;
}

/** What ties a buylist entry to the copies it buys: its card, and its language and finish (null: any). */
export interface EntryScope {
  productId: string;
  language: string | null;
  finish: string | null;
}

/**
 * The entry that prices some copies, as the database picks it: the most specific entry of their
 * card, same language and finish first, then same language, then same finish, then one for any.
 */
export function entryFor<T extends EntryScope>(entries: readonly T[], copies: { productId: string; language: string; finish: string }): T | undefined {
  let best: T | undefined;
  let bestRank = -1;
  for (const entry of entries) {
    if (entry.productId !== copies.productId) continue;
    if (entry.language !== null && entry.language !== copies.language) continue;
    if (entry.finish !== null && entry.finish !== copies.finish) continue;
    const rank = (entry.language !== null ? 2 : 0) + (entry.finish !== null ? 1 : 0);
    if (rank > bestRank) {
      best = entry;
      bestRank = rank;
    }
  }
  return best;
}

/** A refusal of submit_buylist: its Spanish message, its machine code (`details`) and its hint. */
export interface SubmitRefusal {
  message: string | null;
  details: string;
  hint: string;
}

/** Where a refusal shows: a message per line (by id), lines to take off the list, and the form's message. */
export interface RefusalPlacement<L> {
  lines: Record<string, string>;
  removed: L[];
  message: string | null;
}

/**
 * Places a refusal of the submission on the lines it names: a card the shop no longer buys (or
 * buys no more of) is taken off the list with the database's message; a card it still wants fewer
 * of, or past the shopper's limit, marks its lines with the message and how many still fit; any
 * other refusal (the minimum, the CLABE) is the form's message.
 */
export function placeRefusal<L extends { id: string; productId: string }>(
  refusal: SubmitRefusal,
  lines: readonly L[],
  nameOf: (line: L) => string,
): RefusalPlacement<L> {
  const placed: RefusalPlacement<L> = { lines: {}, removed: [], message: null };
  const message = (refusal.message ?? '').replace(/\.$/, '');
  const [code = '', target = ''] = refusal.details.split(/:(.*)/s);
  const hint = Number.parseInt(refusal.hint, 10);
  if (code === 'invalid_line') {
    const line = lines[Number(target) - 1];
    if (line) placed.lines[line.id] = message;
    else placed.message = refusal.message;
    return placed;
  }
  if (!['not_wanted', 'not_buying', 'limit_exceeded'].includes(code)) {
    placed.message = refusal.message;
    return placed;
  }
  const named = lines.filter((line) => line.productId === target);
  const remove = code === 'not_buying' || (code === 'not_wanted' && !(hint > 0));
  for (const line of named) {
    if (remove) {
      placed.removed.push(line);
      placed.lines[line.id] = SELL_REFUSAL_TEXT.removed(nameOf(line), message);
    } else placed.lines[line.id] = hint > 0 ? SELL_REFUSAL_TEXT.fewer(message, hint) : message;
  }
  if (named.length === 0) placed.message = refusal.message;
  return placed;
}
