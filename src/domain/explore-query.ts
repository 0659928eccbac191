/**
 * The /explore search: one page of results and the count of results each filter value would give,
 * in one pass over the catalogue. Pure, so the server (src/server/explore/) runs it over the whole
 * catalogue in memory and the tests over a fixture.
 *
 * Counts are disjunctive, as shops show them: a value's count is how many results there would be
 * with that value chosen instead of the current one of its filter, every other filter kept. So
 * 'Pokémon (120)' next to a chosen 'One Piece' says what choosing Pokémon gives, and a flag's count
 * ('Solo disponibles (80)') what ticking it gives. The singles filters (condition, language,
 * finish, 'Solo graduadas') count over a card's in-stock copies, as search/facets.ts matches them:
 * a card counts for 'LP' when it has an LP copy in stock with the chosen language and finish.
 */
import { type Centavos, centavos } from './money.ts';
import { isSoldOut } from './products.ts';
import { optionsFor, type ExploreData, type ExploreFilters, type ExploreOption, type ExploreProduct, type Sort } from './explore.ts';
import { cardKeys, entryRank, patchTypoVocabulary, resolveQuery, searchKey, typoVocabulary, type CardKeys } from './name-matching/matching.ts';
import { SLAB } from './singles-facets.ts';
import { CARD_CONDITIONS, CONDITION_LABELS, finishLabel, FINISH_LABELS, languageLabel, LANGUAGE_LABELS, raritiesOf, rarityLabel } from './singles.ts';
import { FRANCHISE_IDS, type FranchiseId } from './catalog.ts';

/** A filter value with its label and how many results choosing it gives. */
export interface FacetCount {
  id: string;
  name: string;
  count: number;
}

/** Every filter's values with their counts; a value with no results is left out unless it is chosen. */
export interface ExploreFacets {
  franchises: FacetCount[];
  types: FacetCount[];
  expansions: FacetCount[];
  rarities: FacetCount[];
  conditions: FacetCount[];
  languages: FacetCount[];
  finishes: FacetCount[];
  /** Results with each flag ticked. */
  inStock: number;
  preorder: number;
  sale: number;
  graded: number;
  /** The cheapest and dearest result with any price (the price filter left out); null when none. */
  price: { min: Centavos; max: Centavos } | null;
}

/** One page of results, their total and the filters' counts. */
export interface ExploreAnswer {
  total: number;
  products: ExploreProduct[];
  facets: ExploreFacets;
}

const collator = new Intl.Collator('es-MX', { sensitivity: 'base', numeric: true });

/** Values of one field as small numbers: 0 is none, n is `ids[n - 1]`. */
class Dictionary {
  readonly ids: string[] = [];
  private readonly index = new Map<string, number>();
  code(value: string | null | undefined): number {
    if (!value) return 0;
    let code = this.index.get(value);
    if (code === undefined) {
      this.ids.push(value);
      code = this.ids.length;
      this.index.set(value, code);
    }
    return code;
  }
  find(value: string): number {
    return value ? (this.index.get(value) ?? -1) : 0;
  }
  /** A copy with the same codes, to which a new catalogue adds its own. */
  clone(): Dictionary {
    const copy = new Dictionary();
    for (const id of this.ids) copy.code(id);
    return copy;
  }
}

/**
 * A catalogue's fields as typed columns, made once per products array (its identity is the key):
 * a search reads numbers, not objects and strings. Stock and a single's copies change in place
 * (the server's live stock), so they are read from the products at each search; a single's copies
 * are parsed again only when its `offers` text changed.
 */
interface Prepared {
  keys: string[];
  cards: Array<CardKeys | null>;
  /** Product positions in each order but relevance, sorted once. */
  orders: Map<Exclude<Sort, 'relevancia'>, Uint32Array>;
  /** Each product's place in the name order: what breaks a tie in the other orders and in relevance. */
  nameRank: Uint32Array;
  franchises: Dictionary;
  types: Dictionary;
  expansions: Dictionary;
  rarities: Dictionary;
  conditions: Dictionary;
  languages: Dictionary;
  finishes: Dictionary;
  franchise: Uint16Array;
  type: Uint16Array;
  expansion: Uint16Array;
  /** 0 for a product that is not a single. */
  rarity: Uint16Array;
  /** Each rarity's franchise, by its code. */
  rarityFranchise: Array<FranchiseId | undefined>;
  /** Each single's copies in stock as condition << 20 | language << 10 | finish; empty for other products. */
  copies: Uint32Array[];
  /** The `offers` text `copies` was read from. */
  copiesOf: Array<string | undefined>;
  /** Each single's distinct conditions, 0, languages, 0, finishes, 0, then 1 when it has a slab: what it counts for with no copy filter chosen. */
  values: Uint16Array[];
  price: Float64Array;
  /** PREORDER | SALE | SOLD_OUT bits. */
  flags: Uint8Array;
  slab: number;
  /** The catalogue version the stock and copies columns were read at. */
  version: number;
}

const PREORDER = 1;
const SALE = 2;
const SOLD_OUT = 4;

const NO_COPIES = new Uint32Array(0);
const NO_VALUES = new Uint16Array(0);
const FIELD = 1023;

/** Product positions sorted by `compare`, equal ones by `tie` (catalogue order unless given). */
function sortedPositions(
  products: readonly ExploreProduct[],
  compare: (a: ExploreProduct, b: ExploreProduct) => number,
  tie: (a: number, b: number) => number = (a, b) => a - b,
): Uint32Array {
  const positions = Uint32Array.from(products.keys());
  return positions.sort((a, b) => compare(products[a]!, products[b]!) || tie(a, b));
}

function distinctValues(prepared: Prepared, copies: Uint32Array): Uint16Array {
  if (copies.length === 0) return NO_VALUES;
  const conditions = new Set<number>();
  const languages = new Set<number>();
  const finishes = new Set<number>();
  let slab = 0;
  for (const copy of copies) {
    const condition = copy >>> 20;
    if (condition === prepared.slab) slab = 1;
    else if (condition !== 0) conditions.add(condition);
    if (((copy >>> 10) & FIELD) !== 0) languages.add((copy >>> 10) & FIELD);
    if ((copy & FIELD) !== 0) finishes.add(copy & FIELD);
  }
  return Uint16Array.from([...conditions, 0, ...languages, 0, ...finishes, 0, slab]);
}

function readCopies(prepared: Prepared, offers: string): Uint32Array {
  const copies: number[] = [];
  for (const token of offers.split(' ')) {
    if (token === '') continue;
    const [condition = '', language = '', finish = ''] = token.split('.');
    copies.push((prepared.conditions.code(condition) << 20) | (prepared.languages.code(language) << 10) | prepared.finishes.code(finish));
  }
  return Uint32Array.from(copies);
}

/**
 * Reads again what changes in place (stock, a single's copies): each product's sold-out bit, and
 * the copies of a single whose offers text is not the one they were read from.
 */
function readLive(prepared: Prepared, products: readonly ExploreProduct[], version: number): void {
  products.forEach((product, i) => {
    prepared.flags[i] = (prepared.flags[i]! & ~SOLD_OUT) | (isSoldOut(product) ? SOLD_OUT : 0);
    const offers = product.offers;
    if (offers !== prepared.copiesOf[i]) {
      prepared.copiesOf[i] = offers;
      prepared.copies[i] = offers === undefined ? NO_COPIES : readCopies(prepared, offers);
      prepared.values[i] = distinctValues(prepared, prepared.copies[i]!);
    }
  });
  prepared.version = version;
}

const preparedOf = new WeakMap<readonly ExploreProduct[], Prepared>();

/**
 * The last catalogue prepared. A new one of the same length that keeps most of its product
 * objects (the server's catalogue read again after an edit: src/server/explore/catalog.ts keeps
 * the objects of the products the edit did not touch) is prepared from it: at 100,000 products a
 * whole preparation took about a second, during which the server answered no one.
 */
let lastPrepared: { products: readonly ExploreProduct[]; prepared: Prepared } | null = null;
/** At most this many changed products are patched into the last preparation; more are prepared whole. */
const MAX_PATCHED = 2000;

/** @internal Forgets the last preparation, so the next catalogue is prepared whole (tests). */
export function forgetLastPrepared(): void {
  lastPrepared = null;
}

function prepare(products: readonly ExploreProduct[], version: number): Prepared {
  const known = preparedOf.get(products);
  if (known) {
    if (known.version !== version) readLive(known, products, version);
    return known;
  }
  const changed = lastPrepared ? changedPositions(lastPrepared.products, products) : null;
  const prepared = changed ? patchPrepared(lastPrepared!.prepared, lastPrepared!.products, products, changed) : prepareWhole(products);
  readLive(prepared, products, version);
  // The typo words of the whole catalogue, read once soon after rather than by the first search
  // with a long word (which reads them itself if it comes first); not now, which would make this
  // search wait for them too (~50 ms at 100,000 products).
  const keys = prepared.keys;
  setTimeout(() => typoVocabulary(keys), 0).unref?.();
  preparedOf.set(products, prepared);
  lastPrepared = { products, prepared };
  return prepared;
}

/** The positions whose product object differs between two catalogues of the same length; null when they are too many to patch. */
function changedPositions(before: readonly ExploreProduct[], after: readonly ExploreProduct[]): number[] | null {
  if (before.length !== after.length) return null;
  const changed: number[] = [];
  for (let i = 0; i < after.length; i += 1) {
    if (before[i] === after[i]) continue;
    if (changed.length >= MAX_PATCHED) return null;
    changed.push(i);
  }
  return changed;
}

/** Each product's columns that do not change in place (stock and copies are readLive's). */
function readFixed(prepared: Prepared, product: ExploreProduct, i: number): void {
  prepared.franchise[i] = prepared.franchises.code(product.franchiseId);
  prepared.type[i] = prepared.types.code(product.typeId);
  prepared.expansion[i] = prepared.expansions.code(product.expansionId);
  prepared.rarity[i] = product.offers !== undefined ? prepared.rarities.code(product.rarity || '\u0000') : 0;
  prepared.price[i] = product.priceCentavos;
  prepared.flags[i] = (product.preorder ? PREORDER : 0) | (product.sale ? SALE : 0);
}

/** The orders but by name, each product's tie broken by its place in the name order. */
const RANKED_ORDERS: Array<[Exclude<Sort, 'relevancia' | 'nombre'>, (a: ExploreProduct, b: ExploreProduct) => number]> = [
  ['precio-asc', (a, b) => a.priceCentavos - b.priceCentavos],
  ['precio-desc', (a, b) => b.priceCentavos - a.priceCentavos],
  ['nuevos', (a, b) => (a.released === b.released ? 0 : a.released < b.released ? 1 : -1)],
];

function byNameThenPlace(products: readonly ExploreProduct[]): (a: number, b: number) => number {
  return (a, b) => collator.compare(products[a]!.name, products[b]!.name) || a - b;
}

function rankOf(order: Uint32Array): Uint32Array {
  const rank = new Uint32Array(order.length);
  order.forEach((i, place) => {
    rank[i] = place;
  });
  return rank;
}

function prepareWhole(products: readonly ExploreProduct[]): Prepared {
  const n = products.length;
  // The name order first, with the collator; the other orders break their ties by a product's
  // place in it (the same order as the collator then the position, without a collator call per
  // comparison: about a second less to prepare 100,000 products).
  const byName = Uint32Array.from(products.keys()).sort(byNameThenPlace(products));
  const nameRank = rankOf(byName);
  const prepared: Prepared = {
    keys: products.map((product) => searchKey(product.name, product.card, product.tags)),
    cards: products.map((product) => cardKeys(product.name, product.card)),
    orders: new Map([
      ...RANKED_ORDERS.map(([sort, compare]) => [sort, sortedPositions(products, compare, (a, b) => nameRank[a]! - nameRank[b]!)] as const),
      ['nombre', byName],
    ]),
    franchises: new Dictionary(),
    types: new Dictionary(),
    expansions: new Dictionary(),
    rarities: new Dictionary(),
    conditions: new Dictionary(),
    languages: new Dictionary(),
    finishes: new Dictionary(),
    franchise: new Uint16Array(n),
    type: new Uint16Array(n),
    expansion: new Uint16Array(n),
    rarity: new Uint16Array(n),
    rarityFranchise: [],
    copies: new Array<Uint32Array>(n).fill(NO_COPIES),
    values: new Array<Uint16Array>(n).fill(NO_VALUES),
    copiesOf: new Array<string | undefined>(n).fill(undefined),
    price: new Float64Array(n),
    flags: new Uint8Array(n),
    nameRank,
    slab: 0,
    version: -1,
  };
  prepared.slab = prepared.conditions.code(SLAB);
  products.forEach((product, i) => readFixed(prepared, product, i));
  prepared.rarityFranchise = franchisesOfRarities(prepared, products);
  return prepared;
}

let ordersPatched = 0;

/** @internal How many orders patchPrepared made again (tests: an order whose products kept their place in it is kept). */
export function ordersPatchedCount(): number {
  return ordersPatched;
}

/**
 * `before`'s preparation (of the products `previous`) for a catalogue that differs from its own
 * only at the `changed` positions: the same columns and orders as prepareWhole, with those
 * positions read again and put back in each order where they now belong (the others keep their
 * order among themselves). An order in which no changed product moved (a price edit leaves the
 * name and release orders as they were) and the rarities' franchises are kept as they were: each
 * is a pass over every product.
 */
function patchPrepared(before: Prepared, previous: readonly ExploreProduct[], products: readonly ExploreProduct[], changed: readonly number[]): Prepared {
  const prepared: Prepared = {
    ...before,
    keys: before.keys.slice(),
    cards: before.cards.slice(),
    franchises: before.franchises.clone(),
    types: before.types.clone(),
    expansions: before.expansions.clone(),
    rarities: before.rarities.clone(),
    conditions: before.conditions.clone(),
    languages: before.languages.clone(),
    finishes: before.finishes.clone(),
    franchise: before.franchise.slice(),
    type: before.type.slice(),
    expansion: before.expansion.slice(),
    rarity: before.rarity.slice(),
    copies: before.copies.slice(),
    values: before.values.slice(),
    copiesOf: before.copiesOf.slice(),
    price: before.price.slice(),
    flags: before.flags.slice(),
  };
  const moved = new Uint8Array(products.length);
  for (const i of changed) {
    const product = products[i]!;
    moved[i] = 1;
    prepared.keys[i] = searchKey(product.name, product.card, product.tags);
    prepared.cards[i] = cardKeys(product.name, product.card);
    readFixed(prepared, product, i);
    // readLive reads the copies again.
    prepared.copies[i] = NO_COPIES;
    prepared.values[i] = NO_VALUES;
    prepared.copiesOf[i] = undefined;
  }
  patchTypoVocabulary(before.keys, prepared.keys, changed);
  const rarityKept =
    prepared.rarities.ids.length === before.rarities.ids.length &&
    changed.every((i) => prepared.rarity[i] === before.rarity[i] && products[i]!.franchiseId === previous[i]!.franchiseId);
  prepared.rarityFranchise = rarityKept ? before.rarityFranchise : franchisesOfRarities(prepared, products);
  // Names kept: the name order, each product's rank in it, and so the ties of the other orders.
  const namesKept = changed.every((i) => products[i]!.name === previous[i]!.name);
  const patch = (order: Uint32Array, compare: (a: number, b: number) => number) => {
    ordersPatched += 1;
    return reinserted(order, moved, changed, compare);
  };
  const byName = namesKept ? before.orders.get('nombre')! : patch(before.orders.get('nombre')!, byNameThenPlace(products));
  const nameRank = namesKept ? before.nameRank : rankOf(byName);
  prepared.nameRank = nameRank;
  prepared.orders = new Map([
    ...RANKED_ORDERS.map(([sort, compare]) => {
      const order = before.orders.get(sort)!;
      if (namesKept && changed.every((i) => compare(products[i]!, previous[i]!) === 0)) return [sort, order] as const;
      return [sort, patch(order, (a, b) => compare(products[a]!, products[b]!) || nameRank[a]! - nameRank[b]!)] as const;
    }),
    ['nombre', byName],
  ]);
  return prepared;
}

/**
 * `order` with the `changed` positions (marked in `moved`) taken out and merged back in by
 * `compare`: each found its place by a binary search among the others, which keep their order
 * (a linear merge called `compare`, the collator for the name order, once per product: about 80
 * ms at 100,000 products for one edited product).
 */
function reinserted(order: Uint32Array, moved: Uint8Array, changed: readonly number[], compare: (a: number, b: number) => number): Uint32Array {
  const back = [...changed].sort(compare);
  const rest = new Uint32Array(order.length - back.length);
  let r = 0;
  // By index, not for…of: an edit runs this before V8 optimizes it, and the iterator took 14–16 ms
  // over 100,000 positions against 4–5 ms (one cold call per process, docs/benchmarks.md).
  for (let at = 0; at < order.length; at++) {
    const i = order[at]!;
    if (!moved[i]) rest[r++] = i;
  }
  const out = new Uint32Array(order.length);
  let k = 0;
  let from = 0;
  for (const b of back) {
    // The first of the others that `b` comes before: the others before it keep their place.
    let low = from;
    let high = rest.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(b, rest[middle]!) < 0) high = middle;
      else low = middle + 1;
    }
    out.set(rest.subarray(from, low), k);
    k += low - from;
    from = low;
    out[k++] = b;
  }
  out.set(rest.subarray(from), k);
  return out;
}

/** The chosen filters as the columns' numbers; -1 for a value no product has (nothing matches it). */
interface Chosen {
  franchise: number;
  type: number;
  expansion: number;
  rarity: number;
  condition: number;
  language: number;
  finish: number;
  graded: boolean;
  inStock: boolean;
  preorder: boolean;
  sale: boolean;
  priceMin: number;
  priceMax: number;
  /** Whether any copy filter is chosen. */
  copies: boolean;
  /** The franchise of the chosen type and expansion (0: none, or not known): choosing another franchise drops them. */
  typeFranchise: number;
  expansionFranchise: number;
}

function chosenOf(prepared: Prepared, data: ExploreData, filters: ExploreFilters): Chosen {
  const franchiseOf = (options: readonly ExploreOption[], id: string) => {
    const franchise = id ? options.find((option) => option.id === id)?.franchiseId : undefined;
    return franchise ? prepared.franchises.find(franchise) : 0;
  };
  return {
    typeFranchise: franchiseOf(data.types, filters.type),
    expansionFranchise: franchiseOf(data.expansions, filters.expansion),
    franchise: prepared.franchises.find(filters.franchise),
    type: prepared.types.find(filters.type),
    expansion: prepared.expansions.find(filters.expansion),
    rarity: prepared.rarities.find(filters.rarity),
    condition: prepared.conditions.find(filters.condition),
    language: prepared.languages.find(filters.language),
    finish: prepared.finishes.find(filters.finish),
    graded: filters.graded,
    inStock: filters.inStock,
    preorder: filters.preorder,
    sale: filters.sale,
    priceMin: filters.priceMin ?? Number.NEGATIVE_INFINITY,
    priceMax: filters.priceMax ?? Number.POSITIVE_INFINITY,
    copies: filters.condition !== '' || filters.language !== '' || filters.finish !== '' || filters.graded,
  };
}

/** The filters a product can fail, as bits; the copy filters are one (a copy must have them all at once). */
const F_FRANCHISE = 1;
const F_TYPE = 2;
const F_EXPANSION = 4;
const F_STOCK = 8;
const F_PREORDER = 16;
const F_SALE = 32;
const F_PRICE = 64;
const F_RARITY = 128;
const F_COPIES = 256;

/** Whether a copy has every chosen copy filter (condition, language, finish, a slab for 'solo graduadas'). */
function copyMatches(copy: number, chosen: Chosen, slab: number): boolean {
  const condition = copy >>> 20;
  if (chosen.graded && condition !== slab) return false;
  if (chosen.condition !== 0 && condition !== chosen.condition) return false;
  if (chosen.language !== 0 && ((copy >>> 10) & FIELD) !== chosen.language) return false;
  return chosen.finish === 0 || (copy & FIELD) === chosen.finish;
}

function anyCopyMatches(copies: Uint32Array, chosen: Chosen, slab: number): boolean {
  for (let k = 0; k < copies.length; k += 1) if (copyMatches(copies[k]!, chosen, slab)) return true;
  return false;
}

/** How many results each value of each filter gives, by the columns' numbers. */
interface Tally {
  franchise: Uint32Array;
  type: Uint32Array;
  expansion: Uint32Array;
  rarity: Uint32Array;
  condition: Uint32Array;
  language: Uint32Array;
  finish: Uint32Array;
  inStock: number;
  preorder: number;
  sale: number;
  graded: number;
  priceMin: number;
  priceMax: number;
}

function emptyTally(prepared: Prepared): Tally {
  return {
    franchise: new Uint32Array(prepared.franchises.ids.length + 1),
    type: new Uint32Array(prepared.types.ids.length + 1),
    expansion: new Uint32Array(prepared.expansions.ids.length + 1),
    rarity: new Uint32Array(prepared.rarities.ids.length + 1),
    condition: new Uint32Array(prepared.conditions.ids.length + 1),
    language: new Uint32Array(prepared.languages.ids.length + 1),
    finish: new Uint32Array(prepared.finishes.ids.length + 1),
    inStock: 0,
    preorder: 0,
    sale: 0,
    graded: 0,
    priceMin: Number.POSITIVE_INFINITY,
    priceMax: Number.NEGATIVE_INFINITY,
  };
}

interface Search {
  prepared: Prepared;
  products: readonly ExploreProduct[];
  chosen: Chosen;
  tally: Tally;
  /** Per copy filter value, the mark (position + 1) of the last card it was counted for. */
  seen: { condition: Uint32Array; language: Uint32Array; finish: Uint32Array };
}

function failures({ prepared, chosen }: Search, i: number): number {
  const flags = prepared.flags[i]!;
  const price = prepared.price[i]!;
  let failed = 0;
  if (chosen.franchise !== 0 && prepared.franchise[i] !== chosen.franchise) failed |= F_FRANCHISE;
  if (chosen.type !== 0 && prepared.type[i] !== chosen.type) failed |= F_TYPE;
  if (chosen.expansion !== 0 && prepared.expansion[i] !== chosen.expansion) failed |= F_EXPANSION;
  if (chosen.inStock && (flags & SOLD_OUT) !== 0) failed |= F_STOCK;
  if (chosen.preorder && (flags & PREORDER) === 0) failed |= F_PREORDER;
  if (chosen.sale && (flags & SALE) === 0) failed |= F_SALE;
  if (price < chosen.priceMin || price > chosen.priceMax) failed |= F_PRICE;
  if (chosen.rarity !== 0 && prepared.rarity[i] !== chosen.rarity) failed |= F_RARITY;
  return failed;
}

function countSimple({ prepared, tally }: Search, i: number, filter: number): void {
  switch (filter) {
    case F_FRANCHISE:
      tally.franchise[prepared.franchise[i]!]! += 1;
      return;
    case F_TYPE:
      tally.type[prepared.type[i]!]! += 1;
      return;
    case F_EXPANSION:
      tally.expansion[prepared.expansion[i]!]! += 1;
      return;
    case F_STOCK:
      if ((prepared.flags[i]! & SOLD_OUT) === 0) tally.inStock += 1;
      return;
    case F_PREORDER:
      if ((prepared.flags[i]! & PREORDER) !== 0) tally.preorder += 1;
      return;
    case F_SALE:
      if ((prepared.flags[i]! & SALE) !== 0) tally.sale += 1;
      return;
    case F_PRICE: {
      const price = prepared.price[i]!;
      if (price < tally.priceMin) tally.priceMin = price;
      if (price > tally.priceMax) tally.priceMax = price;
      return;
    }
    default:
      tally.rarity[prepared.rarity[i]!]! += 1;
  }
}

/**
 * With a copy filter chosen: each value of each copy filter counts once per card, over the copies
 * that have every other chosen copy filter (the filter's own choice left out, as choosing another
 * value there would bring them in); a card counts for 'solo graduadas' once, when one of its slabs
 * has the other chosen copy filters.
 */
function countChosenCopies({ prepared, chosen, tally, seen }: Search, i: number, copies: Uint32Array): void {
  // A value is counted for this card when its slot holds this card's mark (no clearing between cards).
  const mark = i + 1;
  const slab = prepared.slab;
  let graded = false;
  for (let k = 0; k < copies.length; k += 1) {
    const copy = copies[k]!;
    const condition = copy >>> 20;
    const language = (copy >>> 10) & FIELD;
    const finish = copy & FIELD;
    // The chosen copy filters this copy fails, one bit each.
    const failed =
      (chosen.condition !== 0 && condition !== chosen.condition ? 1 : 0) |
      (chosen.language !== 0 && language !== chosen.language ? 2 : 0) |
      (chosen.finish !== 0 && finish !== chosen.finish ? 4 : 0) |
      (chosen.graded && condition !== slab ? 8 : 0);
    if ((failed & ~1) === 0 && condition !== 0 && condition !== slab && seen.condition[condition] !== mark) {
      seen.condition[condition] = mark;
      tally.condition[condition]! += 1;
    }
    if ((failed & ~2) === 0 && language !== 0 && seen.language[language] !== mark) {
      seen.language[language] = mark;
      tally.language[language]! += 1;
    }
    if ((failed & ~4) === 0 && finish !== 0 && seen.finish[finish] !== mark) {
      seen.finish[finish] = mark;
      tally.finish[finish]! += 1;
    }
    if ((failed & ~8) === 0 && condition === slab) graded = true;
  }
  if (graded) tally.graded += 1;
}

function countAllCopies(search: Search, i: number): void {
  const copies = search.prepared.copies[i]!;
  if (copies.length === 0) return;
  if (search.chosen.copies) {
    countChosenCopies(search, i, copies);
    return;
  }
  // No copy filter: each of its distinct values counts once, read once when its offers changed
  // (conditions, 0, languages, 0, finishes, 0, slab).
  const { tally } = search;
  const values = search.prepared.values[i]!;
  const last = values.length - 1;
  let k = 0;
  for (; values[k] !== 0; k += 1) tally.condition[values[k]!]! += 1;
  for (k += 1; values[k] !== 0; k += 1) tally.language[values[k]!]! += 1;
  for (k += 1; k < last; k += 1) tally.finish[values[k]!]! += 1;
  tally.graded += values[last]!;
}

/** Counts a result for every filter's values but the copy filters'. */
function countResult({ prepared, tally }: Search, i: number): void {
  tally.franchise[prepared.franchise[i]!]! += 1;
  tally.type[prepared.type[i]!]! += 1;
  tally.expansion[prepared.expansion[i]!]! += 1;
  tally.rarity[prepared.rarity[i]!]! += 1;
  const flags = prepared.flags[i]!;
  if ((flags & SOLD_OUT) === 0) tally.inStock += 1;
  if ((flags & PREORDER) !== 0) tally.preorder += 1;
  if ((flags & SALE) !== 0) tally.sale += 1;
  const price = prepared.price[i]!;
  if (price < tally.priceMin) tally.priceMin = price;
  if (price > tally.priceMax) tally.priceMax = price;
}

/**
 * Counts a product that matches the words: every filter's values when it is a result, or only the
 * values of the one filter that keeps it out (choosing another value there would bring it in).
 * Returns whether it is a result. `failedFilters`: its failures(), when the caller has them already.
 */
function tallyProduct(search: Search, i: number, failedFilters = failures(search, i)): boolean {
  const { prepared, chosen } = search;
  let failed = failedFilters;
  const copies = prepared.copies[i]!;
  if (chosen.copies && !anyCopyMatches(copies, chosen, prepared.slab)) failed |= F_COPIES;
  if (failed === 0) {
    countResult(search, i);
    countAllCopies(search, i);
    return true;
  }
  // Another franchise drops the type and expansion of the one chosen: a product of another
  // franchise counts for its own, whatever type or expansion of the chosen one is kept out.
  if ((failed & F_FRANCHISE) !== 0) {
    let rest = failed & ~F_FRANCHISE;
    const own = prepared.franchise[i]!;
    if (chosen.typeFranchise !== 0 && chosen.typeFranchise !== own) rest &= ~F_TYPE;
    if (chosen.expansionFranchise !== 0 && chosen.expansionFranchise !== own) rest &= ~F_EXPANSION;
    if (rest === 0) countSimple(search, i, F_FRANCHISE);
  }
  if ((failed & (failed - 1)) !== 0 || failed === F_FRANCHISE) return false;
  if (failed === F_COPIES) countAllCopies(search, i);
  else countSimple(search, i, failed);
  return false;
}

/**
 * tallyProduct over the whole catalogue, for an address without words: the same counts, with the
 * cases most products fall in (a result without copy filters; kept out by the franchise alone;
 * kept out by two filters, which counts nowhere) counted at once, and the others left to
 * tallyProduct. Returns the results in catalogue order.
 */
function scanCatalog(search: Search): number[] {
  const { prepared, chosen, tally } = search;
  const results: number[] = [];
  for (let i = 0; i < prepared.franchise.length; i += 1) {
    const failed = failures(search, i);
    if ((failed & F_FRANCHISE) === 0 && (failed & (failed - 1)) !== 0) continue;
    if (chosen.copies || (failed !== 0 && failed !== F_FRANCHISE)) {
      if (tallyProduct(search, i, failed)) results.push(i);
    } else if (failed === F_FRANCHISE) {
      tally.franchise[prepared.franchise[i]!]! += 1;
    } else {
      results.push(i);
      countResult(search, i);
      if (prepared.values[i]!.length > 0) countAllCopies(search, i);
    }
  }
  return results;
}

/**
 * The options with results, with their counts, and the chosen one whatever its count: also when
 * it is not among `options` (a type of another franchise in an address), so the form still holds it.
 */
function counted(
  options: readonly ExploreOption[],
  all: readonly ExploreOption[],
  dictionary: Dictionary,
  counts: ArrayLike<number>,
  chosen: string,
): FacetCount[] {
  const found = options.flatMap((option) => {
    const code = dictionary.find(option.id);
    const count = code > 0 ? (counts[code] ?? 0) : 0;
    return count > 0 || option.id === chosen ? [{ id: option.id, name: option.name, count }] : [];
  });
  if (chosen && !found.some((option) => option.id === chosen))
    found.push({ id: chosen, name: all.find((option) => option.id === chosen)?.name ?? chosen, count: 0 });
  return found;
}

/** Values in the order shops list them (`order`), unknown ones last by code; the chosen one kept. */
function countedCodes(
  dictionary: Dictionary,
  counts: ArrayLike<number>,
  chosen: string,
  order: readonly string[],
  label: (code: string) => string,
): FacetCount[] {
  const codes = new Set(dictionary.ids.filter((id, k) => id !== SLAB && id !== '\u0000' && (counts[k + 1] ?? 0) > 0));
  if (chosen) codes.add(chosen);
  const rank = (code: string) => (order.includes(code) ? order.indexOf(code) : order.length);
  return [...codes]
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((code) => ({ id: code, name: label(code), count: counts[dictionary.find(code)] ?? 0 }));
}

/**
 * Each rarity's franchise: that of the first product in the catalogue with the rarity and a
 * franchise the shop knows, by the rarity's code (read once per catalogue).
 */
function franchisesOfRarities(prepared: Prepared, products: readonly ExploreProduct[]): Array<FranchiseId | undefined> {
  const found = new Array<FranchiseId | undefined>(prepared.rarities.ids.length + 1).fill(undefined);
  for (let i = 0; i < products.length; i += 1) {
    const code = prepared.rarity[i]!;
    const franchise = products[i]!.franchiseId ?? '';
    if (code > 0 && found[code] === undefined && (FRANCHISE_IDS as readonly string[]).includes(franchise)) found[code] = franchise as FranchiseId;
  }
  return found;
}

/** Each rarity's franchise among the counted singles, for its label and order. */
function rarityFranchises({ prepared, tally }: Search): Map<string, FranchiseId> {
  const found = new Map<string, FranchiseId>();
  prepared.rarities.ids.forEach((rarity, k) => {
    const franchise = prepared.rarityFranchise[k + 1];
    if (rarity !== '\u0000' && (tally.rarity[k + 1] ?? 0) > 0 && franchise) found.set(rarity, franchise);
  });
  return found;
}

function facetsOf(search: Search, data: ExploreData, filters: ExploreFilters): ExploreFacets {
  const { prepared, tally } = search;
  const franchiseOf = rarityFranchises(search);
  // The franchises' rarities in the shop's order of franchises, whatever the catalogue's order.
  const withRarities = new Set(franchiseOf.values());
  const rarityOrder = FRANCHISE_IDS.filter((franchise) => withRarities.has(franchise)).flatMap((franchise) =>
    raritiesOf(franchise).map((rarity) => rarity.code),
  );
  const rarityName = (code: string) => {
    const franchise = franchiseOf.get(code) ?? (FRANCHISE_IDS as readonly string[]).find((id) => id === filters.franchise);
    return franchise ? rarityLabel(franchise as FranchiseId, code) : code;
  };
  return {
    franchises: counted(data.franchises, data.franchises, prepared.franchises, tally.franchise, filters.franchise),
    types: counted(optionsFor(data.types, filters.franchise), data.types, prepared.types, tally.type, filters.type),
    expansions: counted(optionsFor(data.expansions, filters.franchise), data.expansions, prepared.expansions, tally.expansion, filters.expansion),
    rarities: countedCodes(prepared.rarities, tally.rarity, filters.rarity, rarityOrder, rarityName),
    conditions: countedCodes(
      prepared.conditions,
      tally.condition,
      filters.condition,
      CARD_CONDITIONS,
      (code) => CONDITION_LABELS[code as keyof typeof CONDITION_LABELS] ?? code,
    ),
    languages: countedCodes(prepared.languages, tally.language, filters.language, Object.keys(LANGUAGE_LABELS), languageLabel),
    finishes: countedCodes(prepared.finishes, tally.finish, filters.finish, Object.keys(FINISH_LABELS), finishLabel),
    inStock: tally.inStock,
    preorder: tally.preorder,
    sale: tally.sale,
    graded: tally.graded,
    price: Number.isFinite(tally.priceMin) ? { min: centavos(tally.priceMin), max: centavos(tally.priceMax) } : null,
  };
}

/** What a search finds, whatever its order and page: the results and every filter's counts. */
interface Scanned {
  /** By relevance: by rank for words, else in catalogue order. */
  results: number[];
  facets: ExploreFacets;
  /** Which positions are results, made by the first ordered page read from this scan. */
  isResult?: Uint8Array;
}

/**
 * The last scans of each catalogue, by their filters but the order: a shopper who changes only the
 * order (a third of the changes of the bench's /explore session) gets the same results and counts
 * in another order, so only the page is read again (a scan of 100,000 products takes 3-15 ms of
 * a core, docs/benchmarks.md). Dropped when the catalogue's stock or copies change (its version).
 */
const scansOf = new WeakMap<readonly ExploreProduct[], { data: ExploreData; version: number; scans: Map<string, Scanned> }>();
/** Scans kept per catalogue: the last few filter sets, up to about a megabyte each at 100,000 products. */
const SCANS_KEPT = 8;
let scansMade = 0;

/** @internal How many scans of a catalogue searchExplore has made (tests: a change of order alone makes none). */
export function scanCount(): number {
  return scansMade;
}

/** The filters but the order, as the key of a kept scan. */
function scanKey(filters: ExploreFilters): string {
  const { sort: _sort, ...rest } = filters;
  return JSON.stringify(rest);
}

/** The results and counts of `filters` over the catalogue, scanned once (tallyProduct or scanCatalog). */
function scan(data: ExploreData, prepared: Prepared, filters: ExploreFilters): Scanned {
  const products = data.products;
  scansMade += 1;
  const search: Search = {
    prepared,
    products,
    chosen: chosenOf(prepared, data, filters),
    tally: emptyTally(prepared),
    seen: {
      condition: new Uint32Array(prepared.conditions.ids.length + 1),
      language: new Uint32Array(prepared.languages.ids.length + 1),
      finish: new Uint32Array(prepared.finishes.ids.length + 1),
    },
  };
  const query = filters.q.trim() ? resolveQuery(prepared.keys, filters.q) : null;
  if (!query) return { results: scanCatalog(search), facets: facetsOf(search, data, filters) };
  const results: number[] = [];
  const ranks = new Float64Array(products.length);
  for (let i = 0; i < products.length; i += 1) {
    const rank = entryRank(prepared.keys[i]!, prepared.cards[i], query);
    if (rank < 0) continue;
    ranks[i] = rank;
    if (tallyProduct(search, i)) results.push(i);
  }
  // Equal ranks by name as the name order has them (the collator, then catalogue order).
  const byName = prepared.nameRank;
  results.sort((a, b) => ranks[a]! - ranks[b]! || byName[a]! - byName[b]!);
  return { results, facets: facetsOf(search, data, filters) };
}

/** The kept scan of `filters` over this catalogue at this version, or a new one kept. */
function scanned(data: ExploreData, prepared: Prepared, filters: ExploreFilters, version: number): Scanned {
  let kept = scansOf.get(data.products);
  if (!kept || kept.data !== data || kept.version !== version) {
    kept = { data, version, scans: new Map() };
    scansOf.set(data.products, kept);
  }
  const key = scanKey(filters);
  const known = kept.scans.get(key);
  if (known) {
    // Most recently used last: the Map's first key is the one to drop.
    kept.scans.delete(key);
    kept.scans.set(key, known);
    return known;
  }
  const made = scan(data, prepared, filters);
  kept.scans.set(key, made);
  if (kept.scans.size > SCANS_KEPT) kept.scans.delete(kept.scans.keys().next().value!);
  return made;
}

/**
 * Results `offset` to `offset + limit` for `filters`, their total and every filter's counts, in
 * one pass, kept for a change of order alone (scanned). Finds, ranks and orders exactly as
 * applyFilters (explore.ts) does, which the tests hold it to; the orders but relevance are sorted
 * once per catalogue. A catalogue whose stock or copies changed in place is passed with a new
 * `version`: its stock and copies are read again.
 */
export function searchExplore(data: ExploreData, filters: ExploreFilters, offset: number, limit: number, version = 0): ExploreAnswer {
  const products = data.products;
  const prepared = prepare(products, version);
  const found = scanned(data, prepared, filters, version);
  const { results } = found;
  const order = filters.sort === 'relevancia' ? null : prepared.orders.get(filters.sort)!;
  let page: number[];
  if (order) {
    // The chosen order read only as far as this page, keeping the results it finds.
    let isResult = found.isResult;
    if (!isResult) {
      isResult = new Uint8Array(products.length);
      for (const i of results) isResult[i] = 1;
      found.isResult = isResult;
    }
    page = [];
    const end = offset + limit;
    for (let k = 0, count = 0; k < order.length && count < end; k += 1) {
      const i = order[k]!;
      if (isResult[i] !== 1) continue;
      if (count >= offset) page.push(i);
      count += 1;
    }
  } else {
    page = results.slice(offset, offset + limit);
  }
  return {
    total: results.length,
    products: page.map((i) => products[i]!),
    facets: found.facets,
  };
}
