/**
 * What a query may cost the server: however it is written (a word repeated, one letter after
 * another, one abbreviation after another), a search of the catalogue makes at most
 * MAX_QUERY_TESTS substring tests per product, at most four times what an ordinary query makes, and
 * reads at most MAX_QUERY_WORDS words. Counted, never timed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expansions, franchises, productTypes } from '~/domain/catalog.ts';
import { EMPTY_FILTERS, parseExploreData, type ExploreData } from '~/domain/explore.ts';
import { searchExplore } from '~/domain/explore-query.ts';
import { MAX_QUERY_TESTS, MAX_QUERY_WORDS, normalize, prepareQuery, queryCost, resolveQuery, searchKey } from '~/domain/name-matching/matching.ts';
import { SEARCH_ALIASES } from '~/domain/name-matching/aliases.ts';
import { fakeCatalog } from '../domain/name-matching/fake-catalog';

/** 2,000 made-up products, as the build writes them for /explore. */
function catalog(): ExploreData {
  const products = fakeCatalog(2000, 5).map((fake) => ({
    id: fake.id,
    name: fake.name,
    priceCentavos: 10_000,
    originalPriceCentavos: null,
    stock: 3,
    preorder: false,
    sale: false,
    franchiseId: fake.franchiseId,
    expansionId: fake.expansionId,
    typeId: fake.typeId,
    image: fake.image,
    released: '2025-01-01',
  }));
  const data = parseExploreData(JSON.parse(JSON.stringify({ franchises, expansions, types: productTypes, products })));
  if (!data) throw new Error('catalogue');
  return data;
}

const data = catalog();
// The catalogue's columns are made by the first search, not counted below.
searchExplore(data, EMPTY_FILTERS, 0, 24, 1);

/** Single-word abbreviations of the alias table, each read also as a catalogue name. */
const ALIAS_WORDS = Object.keys(SEARCH_ALIASES).filter((key) => !key.includes(' '));

/** Queries written to make a search as slow as it can be: each fits the 100 characters a query is read to. */
const HOSTILE = [
  'e '.repeat(50),
  `${'e '.repeat(40)}${ALIAS_WORDS.slice(0, 4).join(' ')}`,
  `${ALIAS_WORDS.slice(0, 4).join(' ')} ${'e '.repeat(40)}`,
  'a b c d e f g h i j k l m n o p q r s t u v w x y z 0 1 2 3 4 5 6 7 8 9',
  ALIAS_WORDS.slice(0, 24).join(' '),
  `${ALIAS_WORDS.slice(0, 3).join(' ')} ${'ee '.repeat(25)}`,
  `${'pikahcu charizrd '.repeat(6)}`,
];
/** What shoppers type. */
const ORDINARY = ['pikachu', 'etb pokemon', 'elite trainer box', 'caja de sobres one piece'];

afterEach(() => {
  vi.restoreAllMocks();
});

/** The substring tests (String includes and indexOf) one /explore search of `q` makes, per product of the catalogue. */
function testsPerProduct(q: string): number {
  const includes = vi.spyOn(String.prototype, 'includes');
  const indexOf = vi.spyOn(String.prototype, 'indexOf');
  searchExplore(data, { ...EMPTY_FILTERS, q }, 0, 24, 1);
  const tests = includes.mock.calls.length + indexOf.mock.calls.length;
  vi.restoreAllMocks();
  return tests / data.products.length;
}

describe('the work a query may ask for', () => {
  it('reads each word once, leaves one-letter words beside longer ones out, and reads at most MAX_QUERY_WORDS words', () => {
    for (const query of HOSTILE) {
      const q = prepareQuery(query)!;
      const texts = q.groups.map((group) => group.text);
      expect(new Set(texts).size).toBe(texts.length);
      expect(texts.length).toBeLessThanOrEqual(MAX_QUERY_WORDS);
      if (texts.some((text) => text.length > 1)) expect(texts.every((text) => text.length > 1)).toBe(true);
      for (const variant of q.variants) {
        expect(new Set(variant.words).size).toBe(variant.words.length);
      }
      expect(queryCost(q)).toBeLessThanOrEqual(MAX_QUERY_TESTS);
    }
  });

  it('costs a search at most MAX_QUERY_TESTS substring tests per product, at most four times an ordinary query', () => {
    const ordinary = Math.max(...ORDINARY.map(testsPerProduct));
    expect(ordinary).toBeGreaterThan(0);
    for (const query of HOSTILE) {
      const tests = testsPerProduct(query);
      expect(tests, query).toBeLessThanOrEqual(MAX_QUERY_TESTS);
      expect(tests, query).toBeLessThanOrEqual(4 * ordinary);
    }
  });

  it('keeps what a query finds: repeated words and one-letter words beside longer ones change no result', () => {
    const ids = (q: string) => searchExplore(data, { ...EMPTY_FILTERS, q }, 0, 10_000, 1).products.map((product) => product.id);
    const name = normalize(data.products[7]!.name).split(' ');
    const words = name.filter((word) => word.length > 2).slice(0, 2);
    expect(words.length).toBe(2);
    const found = new Set(ids(words.join(' ')));
    expect(found.has(data.products[7]!.id)).toBe(true);
    // The same words in another order and repeated find the same products.
    expect(new Set(ids(`${words[1]} ${words[0]} ${words[1]} ${words[0]}`))).toEqual(found);
    // The query as typed still ranks first what holds it whole, a one-letter word included.
    const key = searchKey(data.products[7]!.name, undefined, data.products[7]!.tags);
    const typed = resolveQuery([key], data.products[7]!.name)!;
    expect(typed.variants[0]!.text).toBe(normalize(data.products[7]!.name).slice(0, 100).trim());
  });
});
