/**
 * The /explore addresses that shoppers who explore ask for in `npm run load`: a fixed list made
 * from the build's own catalogue (`<outDir>/client/explore/catalog.json`), so every filter value
 * exists and most addresses have results. It mixes what a shopper does on the page: one filter,
 * two or three at once, each order, a price range, a few words (a typo among them), 'Ver más' and
 * a word that finds nothing; each as the page (`/explore?…`, opened or shared) and as the results
 * its script asks for after a filter change (`/explore/resultados?…`). Pure: the same catalogue
 * always gives the same list.
 */

/** A named option of the catalogue (franchise, expansion, type). */
export interface CatalogOption {
  id: string;
  name: string;
  franchiseId?: string;
}

/** What the list needs of a product of the catalogue. */
export interface CatalogProduct {
  id: string;
  name: string;
  franchiseId: string | null;
  expansionId: string | null;
  typeId: string | null;
  priceCentavos?: number;
  /** A single's rarity code and in-stock offer tokens ('NM.en.normal'), when the catalogue has singles. */
  rarity?: string;
  offers?: string;
}

/** The parts of catalog.json the list is made from. */
export interface ExploreCatalog {
  franchises: CatalogOption[];
  expansions: CatalogOption[];
  types: CatalogOption[];
  products: CatalogProduct[];
}

/** What an address exercises. */
export type AddressKind = 'todo' | 'un-filtro' | 'filtros-combinados' | 'orden' | 'precio' | 'palabras' | 'ver-mas' | 'sin-resultados';

export interface ExploreAddress {
  kind: AddressKind;
  /** The path and query string, as a browser asks for it ('/explore?franquicia=pokemon'). */
  path: string;
}

/** The sorts of /explore besides relevance (src/domain/explore.ts SORTS). */
export const EXPLORE_SORTS = ['precio-asc', 'precio-desc', 'nuevos', 'nombre'] as const;

/** A word no product has: its search finds nothing. */
export const NONSENSE_WORD = 'xqzvbnwtk';

type Query = Array<[string, string]>;

/** The values of `key` among items, the most frequent first (ties in code-point order), at most `limit`. */
function mostUsed<T>(items: readonly T[], key: (item: T) => string | null | undefined, limit: number): string[] {
  const counts = new Map<string, number>();
  for (const item of items) {
    const value = key(item);
    if (value) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, limit)
    .map(([value]) => value);
}

/** The words of a product name a shopper might type: lower case, four letters or more, not a number. */
function wordsOf(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 4 && !/^\d+$/.test(word));
}

/**
 * A shopper's typo the search forgives (src/domain/name-matching/matching.ts: a word of five letters or
 * more, the first two right): the third and fourth letters swapped ('sobres' → 'sorbes').
 */
function typo(word: string): string {
  const letters = [...word];
  [letters[2], letters[3]] = [letters[3]!, letters[2]!];
  return letters.join('');
}

/** Price limits in whole pesos from the catalogue's prices: its quartiles, rounded to tens. */
function priceLimits(products: CatalogProduct[]): { low: number; middle: number; high: number } {
  const pesos = products
    .map((product) => product.priceCentavos)
    .filter((value): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0)
    .map((value) => value / 100)
    .sort((a, b) => a - b);
  const at = (share: number, fallback: number) =>
    pesos.length > 0 ? Math.max(10, Math.round(pesos[Math.floor(share * (pesos.length - 1))]! / 10) * 10) : fallback;
  return { low: at(0.25, 100), middle: at(0.5, 500), high: at(0.75, 1000) };
}

const queryString = (query: Query) => (query.length > 0 ? `?${new URLSearchParams(query).toString()}` : '');

/**
 * The list of addresses for a catalogue: at least 40 distinct ones (fewer only for a catalogue
 * with almost nothing in it), each starting with /explore, covering every AddressKind.
 */
export function exploreAddresses(catalog: ExploreCatalog): ExploreAddress[] {
  const { products } = catalog;
  const known = (options: CatalogOption[]) => new Set(options.map((option) => option.id));
  const franchiseIds = known(catalog.franchises);
  const typeIds = known(catalog.types);
  const expansionIds = known(catalog.expansions);
  const franchises = mostUsed(products, (p) => (p.franchiseId && franchiseIds.has(p.franchiseId) ? p.franchiseId : null), 4);
  const types = mostUsed(products, (p) => (p.typeId && typeIds.has(p.typeId) ? p.typeId : null), 4);
  const expansions = mostUsed(products, (p) => (p.expansionId && expansionIds.has(p.expansionId) ? p.expansionId : null), 4);
  const top = franchises[0];
  // In the most used franchise: its most used type and expansion, so combinations have results.
  const inTop = products.filter((p) => p.franchiseId === top);
  const topType = mostUsed(inTop, (p) => (p.typeId && typeIds.has(p.typeId) ? p.typeId : null), 1)[0];
  const topExpansion = mostUsed(inTop, (p) => (p.expansionId && expansionIds.has(p.expansionId) ? p.expansionId : null), 1)[0];
  // A type in the most used expansion (a box of that set), for a three-filter combination.
  const typeInExpansion = mostUsed(
    inTop.filter((p) => p.expansionId === topExpansion),
    (p) => (p.typeId && typeIds.has(p.typeId) ? p.typeId : null),
    1,
  )[0];
  // The words most product names have (each name counted once per word).
  const words = mostUsed(
    products.flatMap((p) => [...new Set(wordsOf(p.name))]),
    (word) => word,
    5,
  );
  // Two words as a product's name has them ('romance dawn'), from a product halfway down the list.
  const phrase = products
    .slice(Math.floor(products.length / 2))
    .concat(products)
    .map((p) => wordsOf(p.name))
    .find((list) => list.length >= 2);
  const prices = priceLimits(products);
  // The singles filters, when the catalogue has singles: the most common value of each among the
  // offers in stock ('NM.en.normal'; a slab's condition is 'G', which 'Solo graduadas' chooses).
  const rarity = mostUsed(products, (p) => p.rarity, 1)[0];
  const tokens = products.flatMap((p) =>
    (p.offers ?? '')
      .split(' ')
      .filter(Boolean)
      .map((token) => token.split('.')),
  );
  const condition = mostUsed(tokens, ([c]) => (c === 'G' ? null : c), 1)[0];
  const language = mostUsed(tokens, ([, l]) => l, 1)[0];
  const finish = mostUsed(tokens, ([, , f]) => f, 1)[0];
  const graded = tokens.some(([c]) => c === 'G');

  const queries: Array<{ kind: AddressKind; query: Query }> = [{ kind: 'todo', query: [] }];
  const add = (kind: AddressKind, ...pairs: Array<[string, string | undefined]>) => {
    if (pairs.some(([, value]) => !value)) return;
    queries.push({ kind, query: pairs as Query });
  };
  // One filter.
  for (const id of franchises) add('un-filtro', ['franquicia', id]);
  for (const id of types) add('un-filtro', ['tipo', id]);
  for (const id of expansions) add('un-filtro', ['expansion', id]);
  add('un-filtro', ['disponible', '1']);
  add('un-filtro', ['preventa', '1']);
  add('un-filtro', ['oferta', '1']);
  add('un-filtro', ['rareza', rarity]);
  add('un-filtro', ['condicion', condition]);
  add('un-filtro', ['idioma', language]);
  add('un-filtro', ['acabado', finish]);
  if (graded) add('un-filtro', ['graduadas', '1']);
  // Two or three at once.
  add('filtros-combinados', ['franquicia', top], ['tipo', topType]);
  add('filtros-combinados', ['franquicia', top], ['expansion', topExpansion]);
  add('filtros-combinados', ['franquicia', top], ['disponible', '1']);
  add('filtros-combinados', ['franquicia', top], ['oferta', '1']);
  add('filtros-combinados', ['franquicia', top], ['tipo', topType], ['disponible', '1']);
  add('filtros-combinados', ['franquicia', top], ['expansion', topExpansion], ['tipo', typeInExpansion]);
  add('filtros-combinados', ['franquicia', franchises[1]], ['disponible', '1'], ['oferta', '1']);
  add('filtros-combinados', ['tipo', types[1]], ['disponible', '1']);
  add('filtros-combinados', ['franquicia', top], ['condicion', condition], ['idioma', language]);
  // Each order, alone and with a filter.
  for (const sort of EXPLORE_SORTS) add('orden', ['orden', sort]);
  add('orden', ['franquicia', top], ['orden', 'precio-asc']);
  add('orden', ['expansion', topExpansion], ['orden', 'nuevos']);
  add('orden', ['tipo', topType], ['orden', 'precio-desc']);
  // Price ranges, in whole pesos.
  add('precio', ['precio_min', String(prices.low)], ['precio_max', String(prices.middle)]);
  add('precio', ['precio_max', String(prices.low)]);
  add('precio', ['precio_min', String(prices.high)]);
  add('precio', ['franquicia', top], ['precio_min', String(prices.middle)], ['precio_max', String(prices.high)]);
  add('precio', ['precio_min', String(prices.low)], ['orden', 'precio-asc']);
  // Words.
  for (const word of words) add('palabras', ['q', word]);
  if (phrase) add('palabras', ['q', `${phrase[0]} ${phrase[1]}`]);
  const typed = words.find((word) => /^\p{L}{6,}$/u.test(word) && word[2] !== word[3]);
  add('palabras', ['q', typed && typo(typed)]);
  add('palabras', ['q', words[1]], ['franquicia', top]);
  add('palabras', ['q', words[0]], ['orden', 'precio-asc']);
  // A word that finds nothing, alone and with a filter.
  add('sin-resultados', ['q', NONSENSE_WORD]);
  add('sin-resultados', ['q', NONSENSE_WORD], ['franquicia', top]);

  const seen = new Set<string>();
  const addresses: ExploreAddress[] = [];
  const push = (kind: AddressKind, path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    addresses.push({ kind, path });
  };
  // Each as the page and as the results its script asks for after a change.
  for (const { kind, query } of queries) {
    push(kind, `/explore${queryString(query)}`);
    push(kind, `/explore/resultados${queryString(query)}`);
  }
  // 'Ver más': the page with two pages of results (its link), and the next cards alone (its script).
  for (const query of [[], [['franquicia', top]], [['orden', 'precio-asc']], [['q', words[0]]]] as Array<Array<[string, string | undefined]>>) {
    if (query.some(([, value]) => !value)) continue;
    const pairs = query as Query;
    push('ver-mas', `/explore${queryString([...pairs, ['pagina', '2']])}`);
    push('ver-mas', `/explore/resultados${queryString([...pairs, ['pagina', '2'], ['solo', 'mas']])}`);
  }
  return addresses;
}
