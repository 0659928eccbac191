/**
 * The header search and /explore?q= on a fixture catalogue: franchise, expansion and product type
 * names, the abbreviations of ./aliases.ts, one typo forgiven, and the ranking of exact matches
 * above typo matches; the sharded index and /explore answer exactly as the whole index.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { expansions, franchises, productTypes } from '~/domain/catalog.ts';
import { applyFilters, EMPTY_FILTERS, parseExploreData, toExploreProduct, type ExploreData } from '~/domain/explore.ts';
import { parseProduct, type Product } from '~/domain/product-schema.ts';
import { productCard } from '~/domain/header-search/cards.ts';
import { buildSearchIndex, parseSearchIndex, type IndexedProduct } from '~/domain/header-search/format.ts';
import {
  catalogTags,
  corrections,
  DEFAULT_LIMIT,
  oneEditApart,
  patchTypoVocabulary,
  prepareIndex,
  resolveQuery,
  searchKey,
  searchPrepared,
  searchWithTotal,
  typoVocabulary,
  type SearchEntry,
} from '~/domain/name-matching/matching.ts';
import { buildSearchShards, phrasePath, shardPath, wordsPath, type SearchShardFile } from '~/domain/header-search/shards.ts';
import { fakeCatalog, seededRandom } from '../domain/name-matching/fake-catalog';
import { searcher } from '../domain/header-search/sharded-fixture';

const STORAGE = 'https://x.supabase.co';

function product(fields: Record<string, unknown>): Product {
  const parsed = parseProduct({ price: 100, stock: 3, ...fields });
  if (!parsed) throw new Error(`producto de prueba no válido: ${JSON.stringify(fields)}`);
  return parsed;
}

const single = (id: string, name: string, franchise: string, expansion: string, type: string, number: string, nameEn: string) =>
  product({
    id,
    name,
    franchise_id: franchise,
    expansion_id: expansion,
    product_type_id: type,
    card_printings: { collector_number: number, rarity: 'SEC', name_en: nameEn, name_es: null },
    card_offers: [{ id: `${id}-lp`, condition: 'LP', language: 'en', finish: 'normal', price: 100, stock: 1 }],
  });

/** A catalogue shaped like the demo shop's: sealed products and singles of the three franchises. */
const CATALOG: Product[] = [
  product({
    id: 'etb-pre',
    name: 'Elite Trainer Box Evoluciones Prismáticas',
    franchise_id: 'pokemon',
    expansion_id: 'prismatic-evolutions',
    product_type_id: 'elite-trainer-box',
  }),
  product({
    id: 'etb-ssp',
    name: 'Elite Trainer Box Chispas Fulgurantes',
    franchise_id: 'pokemon',
    expansion_id: 'surging-sparks',
    product_type_id: 'elite-trainer-box',
  }),
  product({
    id: 'pack-pre',
    name: 'Sobre Evoluciones Prismáticas',
    franchise_id: 'pokemon',
    expansion_id: 'prismatic-evolutions',
    product_type_id: 'booster-pack',
  }),
  product({ id: 'tin-pikachu', name: 'Lata Pikachu ex', franchise_id: 'pokemon', expansion_id: 'surging-sparks', product_type_id: 'tin' }),
  single('pikachu-238', 'Pikachu ex 238/191 – Chispas Fulgurantes', 'pokemon', 'surging-sparks', 'single-card', '238/191', 'Pikachu ex'),
  single('latias-245', 'Latias ex 245/191 – Chispas Fulgurantes', 'pokemon', 'surging-sparks', 'single-card', '245/191', 'Latias ex'),
  single('latios-207', 'Latios 207/191 – Chispas Fulgurantes', 'pokemon', 'surging-sparks', 'single-card', '207/191', 'Latios'),
  single('umbreon-161', 'Umbreon ex 161/131 – Evoluciones Prismáticas', 'pokemon', 'prismatic-evolutions', 'single-card', '161/131', 'Umbreon ex'),
  product({
    id: 'box-op05',
    name: 'Caja de sobres OP-05 Awakening of the New Era (24 sobres)',
    franchise_id: 'one-piece',
    expansion_id: 'op-05',
    product_type_id: 'op-booster-box',
  }),
  product({
    id: 'tp-op05',
    name: 'Tournament Pack OP-05 Awakening of the New Era',
    franchise_id: 'one-piece',
    expansion_id: 'op-05',
    product_type_id: 'op-tournament-pack',
  }),
  product({
    id: 'box-op01',
    name: 'Caja de sobres OP-01 Romance Dawn (24 sobres)',
    franchise_id: 'one-piece',
    expansion_id: 'op-01',
    product_type_id: 'op-booster-box',
  }),
  product({ id: 'st-luffy', name: 'Starter Deck ST-08 Monkey.D.Luffy', franchise_id: 'one-piece', product_type_id: 'op-starter-deck' }),
  single('luffy-op05-119', 'Monkey.D.Luffy (OP05-119)', 'one-piece', 'op-05', 'op-single-card', 'OP05-119', 'Monkey.D.Luffy'),
  single('zoro-op01-001', 'Roronoa Zoro (OP01-001)', 'one-piece', 'op-01', 'op-single-card', 'OP01-001', 'Roronoa Zoro'),
  product({ id: 'box-ogn', name: 'Caja de sobres Origins (24 sobres)', franchise_id: 'riftbound', expansion_id: 'origins', product_type_id: 'rb-booster-box' }),
  single('jinx-ogn-030', 'Jinx, Loose Cannon (OGN-030)', 'riftbound', 'origins', 'rb-single-card', 'OGN-030', 'Jinx, Loose Cannon'),
];

const franchiseName = new Map(franchises.map((item) => [item.id as string, item.name]));
const expansionName = new Map(expansions.map((item) => [item.id, item.name]));
const typeName = new Map(productTypes.map((item) => [item.id, item.name]));

/** A product as the build indexes it (src/server/snapshot/catalog.ts searchShards). */
function indexed(p: Product): IndexedProduct {
  return {
    id: p.id,
    name: p.name,
    image: '',
    card: productCard(p),
    tags: catalogTags(p.name, [franchiseName.get(p.franchise_id ?? ''), expansionName.get(p.expansion_id ?? ''), typeName.get(p.product_type_id ?? '')]),
  };
}

/** The whole index as the browser reads it. */
const index = prepareIndex(parseSearchIndex(JSON.parse(JSON.stringify(buildSearchIndex(CATALOG.map(indexed), STORAGE))))!.entries);

/** The /explore catalogue as the island reads it (src/pages/explore/catalog.json.ts). */
const explore: ExploreData = parseExploreData(
  JSON.parse(
    JSON.stringify({
      franchises: franchises.map(({ id, name }) => ({ id, name })),
      expansions: expansions.map(({ id, name, franchiseId }) => ({ id, name, franchiseId })),
      types: productTypes.map(({ id, name, franchiseId }) => ({ id, name, franchiseId })),
      products: CATALOG.map((p) => toExploreProduct(p, '')),
    }),
  ),
)!;

const ids = (results: readonly SearchEntry[]) => results.map((entry) => entry[0]);
const all = (query: string) => searchWithTotal(index, query, Infinity);
const ofFranchise = (id: string) => CATALOG.filter((p) => p.franchise_id === id).map((p) => p.id);

describe('franchise, expansion and product type names', () => {
  it("'one piece' finds every One Piece product, though no name says it", () => {
    expect(new Set(ids(all('one piece').results))).toEqual(new Set(ofFranchise('one-piece')));
    expect(new Set(ids(all('ONE PIECE').results))).toEqual(new Set(ofFranchise('one-piece')));
  });

  it("'pokemon', 'Pokémon' and 'pkm' find every Pokémon product", () => {
    for (const query of ['pokemon', 'Pokémon', 'pkm']) expect(new Set(ids(all(query).results)), query).toEqual(new Set(ofFranchise('pokemon')));
  });

  it("'etb' finds the Elite Trainer Boxes, as their name does", () => {
    expect(ids(all('etb').results)).toEqual(ids(all('elite trainer box').results));
    expect(ids(all('etb').results)).toEqual(['etb-ssp', 'etb-pre']);
    expect(ids(all('etb prismaticas').results)).toEqual(['etb-pre']);
  });

  it("'op05', 'OP-05' and 'op 05' find the OP-05 expansion's products, sealed and singles; the cards first", () => {
    const op05 = CATALOG.filter((p) => p.expansion_id === 'op-05').map((p) => p.id);
    for (const query of ['op05', 'OP-05', 'op 05']) {
      const found = all(query);
      expect(new Set(ids(found.results)), query).toEqual(new Set(op05));
      expect(found.results[0]![0], query).toBe('luffy-op05-119');
    }
  });

  it('finds a product by its expansion or type name when its own name lacks it, and by a set code', () => {
    expect(ids(all('carta individual').results)).toEqual(expect.arrayContaining(['pikachu-238', 'luffy-op05-119', 'jinx-ogn-030']));
    expect(ids(all('ogn').results)).toEqual(['jinx-ogn-030', 'box-ogn']);
    expect(ids(all('surging sparks').results)).toEqual(ids(all('chispas fulgurantes').results));
  });

  it('ignores accents and case: evolucion prismatica', () => {
    expect(new Set(ids(all('evolucion prismatica').results))).toEqual(new Set(['etb-pre', 'pack-pre', 'umbreon-161']));
    expect(ids(all('EVOLUCIÓN PRISMÁTICA').results)).toEqual(ids(all('evolucion prismatica').results));
  });

  it('keeps collector numbers first, typed any way', () => {
    for (const query of ['OP05-119', 'op05 119', 'op05119']) expect(all(query).results[0]![0], query).toBe('luffy-op05-119');
    expect(all('245/191').results[0]![0]).toBe('latias-245');
  });

  it('writes each distinct tag text once in the index file', () => {
    const file = buildSearchIndex(CATALOG.map(indexed), STORAGE);
    expect(file.tagTexts).toContain('one piece op 05 awakening of the new era carta individual');
    expect(new Set(file.tagTexts).size).toBe(file.tagTexts!.length);
    expect(file.tags).toHaveLength(CATALOG.length);
    expect(parseSearchIndex({ ...file, tags: file.tags!.slice(1) })).toBeNull();
  });
});

describe('typos', () => {
  it('are one substitution, insertion, deletion or swap of neighbouring letters', () => {
    expect(oneEditApart('pikahcu', 'pikachu')).toBe(true);
    expect(oneEditApart('pikachu', 'pikachu')).toBe(true);
    expect(oneEditApart('pikachi', 'pikachu')).toBe(true);
    expect(oneEditApart('pikacu', 'pikachu')).toBe(true);
    expect(oneEditApart('pikkachu', 'pikachu')).toBe(true);
    expect(oneEditApart('pikahcuu', 'pikachu')).toBe(false);
    expect(oneEditApart('pkiahcu', 'pikachu')).toBe(false);
  });

  it('are corrected to catalogue words sharing the first two letters, also while the word is being typed', () => {
    const words = ['pikachu', 'pichu', 'latias', 'latios', 'charizard'];
    expect(corrections('pikahcu', words)).toEqual(['pikachu']);
    expect(corrections('pikahc', words)).toEqual(['pikachu']);
    expect(corrections('charizrd', words)).toEqual(['charizard']);
    // The first two letters must be right.
    expect(corrections('ipkachu', words)).toEqual([]);
    // A word holding the typed text matches it already: no correction.
    expect(corrections('latia', words)).toEqual(['latios']);
  });

  it("'pikahcu' finds Pikachu, ignoring case", () => {
    const expected = ['pikachu-238', 'tin-pikachu'];
    expect(ids(all('pikahcu').results)).toEqual(expected);
    expect(ids(all('PIKAHCU').results)).toEqual(expected);
    expect(ids(all('lata pikahcu').results)).toEqual(['tin-pikachu']);
    // Still being typed.
    expect(ids(all('pikahc').results)).toEqual(expected);
  });

  it('are forgiven only in words of five letters or more, and never in numbers', () => {
    expect(all('pikc').total).toBe(0);
    expect(all('latoas').total).toBe(1);
    expect(all('238/192').total).toBe(0);
    expect(all('op06').total).toBe(0);
  });

  it("are read from a catalogue's words made from the last catalogue's when a few names changed, as if made whole", () => {
    const before = ['caja pikachu latias', 'sobre charizard', 'lata zorua', 'sobre pikachu'];
    // Made once, so the next catalogue's is patched from it.
    typoVocabulary(before);
    // Renamed: 'charizard' (still part of a word) and 'latias' leave the catalogue, 'pikachu' stays in another key, 'mewtwo' comes.
    const after = ['caja pikachu', 'sobre mewtwo charizardex', 'lata zorua', 'sobre pikachu'];
    patchTypoVocabulary(before, after, [0, 1]);
    const sorted = (vocabulary: Map<string, string[]>) => Object.fromEntries([...vocabulary].map(([prefix, words]) => [prefix, [...words].sort()]));
    const patched = sorted(typoVocabulary(after));
    expect(patched.ch).toEqual(['charizardex']);
    expect(patched.la).toBeUndefined();
    expect(patched.me).toEqual(['mewtwo']);
    expect(patched.pi).toEqual(['pikachu']);
    expect(patched).toEqual(sorted(typoVocabulary([...after])));
    // Patched, not made again: a prefix no change touched keeps its list.
    expect(typoVocabulary(after).get('zo')).toBe(typoVocabulary(before).get('zo'));
    // The catalogue before keeps its own.
    expect(typoVocabulary(before).get('ch')).toEqual(['charizard']);
    expect(typoVocabulary(before).get('la')).toEqual(['latias']);
  });

  it('rank after every exact match', () => {
    // 'latia' is in Latias's name; Latios is one letter away.
    expect(ids(all('latia').results)).toEqual(['latias-245', 'latios-207']);
    // A word of the catalogue is taken as meant: no typo matches.
    expect(ids(all('latias').results)).toEqual(['latias-245']);
  });
});

// Every query of the tests above, and more: /explore?q= and the sharded index answer them alike.
const QUERIES = [
  'one piece',
  'pokemon',
  'pkm',
  'etb',
  'etb prismaticas',
  'elite trainer box',
  'op05',
  'OP-05',
  'op 05',
  'op05 119',
  'OP05-119',
  'carta individual',
  'ogn',
  'surging sparks',
  'evolucion prismatica',
  'pikahcu',
  'pikahc',
  'lata pikahcu',
  'latia',
  'latias',
  'latoas',
  'charizrd',
  'luffy',
  'sobres',
  'sobre',
  'zzzzz',
];

describe('/explore?q=', () => {
  it('finds the same products in the same order as the header search', () => {
    for (const query of QUERIES) {
      const found = applyFilters(explore.products, { ...EMPTY_FILTERS, q: query });
      expect(
        found.map((p) => p.id),
        query,
      ).toEqual(ids(all(query).results));
    }
  });

  it('counts what the header search counts for Ver todos los resultados', () => {
    for (const query of QUERIES) expect(applyFilters(explore.products, { ...EMPTY_FILTERS, q: query }).length, query).toBe(searchWithTotal(index, query).total);
  });
});

describe('the sharded index', () => {
  // A catalogue past one shard: the fixture plus made-up products of every franchise.
  const fake = fakeCatalog(3000, 11).map((p): IndexedProduct => ({
    id: p.id,
    name: p.name,
    image: p.image,
    tags: catalogTags(p.name, [franchiseName.get(p.franchiseId), expansionName.get(p.expansionId), typeName.get(p.typeId)]),
  }));
  const products = [...CATALOG.map(indexed), ...fake];
  const names = [...franchises, ...expansions, ...productTypes].map((item) => item.name);
  const files = buildSearchShards(products, STORAGE, 200, names);
  const whole = prepareIndex(parseSearchIndex(JSON.parse(JSON.stringify(buildSearchIndex(products, STORAGE))))!.entries);

  it('answers names, aliases and typos exactly like the whole index', async () => {
    const { search } = searcher(files);
    const extra = [
      'pikachu',
      'pika',
      'charizard',
      'chispas',
      'fuerzas',
      'fuerzsa',
      'fuerza',
      'temporales',
      'individaul',
      'romance',
      'riftbound',
      'riftbuond',
      'tef',
      'ssp sobre',
    ];
    for (const query of [...QUERIES, ...extra]) {
      const expected = searchWithTotal(whole, query, DEFAULT_LIMIT);
      const got = await search.search(query);
      expect({ query, ids: ids(got.results), total: got.total }).toEqual({ query, ids: ids(expected.results), total: expected.total });
    }
  });

  it('answers misspelt and half-typed words of the catalogue exactly like the whole index', async () => {
    const random = seededRandom(3);
    const vocabulary = [...new Set(whole.keys.flatMap((key) => key.split(' ')))].filter((word) => /^[a-z]{5,}$/.test(word)).sort();
    const queries: string[] = [];
    for (let n = 0; n < 150; n++) {
      const word = vocabulary[Math.floor(random() * vocabulary.length)]!;
      const at = 1 + Math.floor(random() * (word.length - 2));
      const edits = [
        word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2),
        word.slice(0, at) + word.slice(at + 1),
        word.slice(0, at) + 'x' + word.slice(at),
        word.slice(0, at) + 'q' + word.slice(at + 1),
        word.slice(0, Math.max(5, at + 1)),
      ];
      queries.push(edits[n % edits.length]!);
      if (n % 5 === 0) queries.push(`${edits[n % edits.length]} ${vocabulary[Math.floor(random() * vocabulary.length)]!.slice(0, 4)}`);
    }
    const { search } = searcher(files);
    let corrected = 0;
    for (const query of queries) {
      const expected = searchWithTotal(whole, query, DEFAULT_LIMIT);
      if (searchPrepared(whole, resolveQuery(whole.keys, query)!, DEFAULT_LIMIT, true).total > 0) corrected += 1;
      const got = await search.search(query);
      expect({ query, ids: ids(got.results), total: got.total }).toEqual({ query, ids: ids(expected.results), total: expected.total });
    }
    // Most of them find products only through a correction.
    expect(corrected).toBeGreaterThan(queries.length / 2);
  });

  it('corrects a typo from the word list of its first two letters, without the whole index', async () => {
    const { search, loaded } = searcher(files);
    const answer = await search.search('pikahcu');
    expect(ids(answer.results)).toEqual(ids(searchWithTotal(whole, 'pikahcu').results));
    expect(answer.total).toBeGreaterThan(0);
    expect(loaded.some((path) => path.startsWith('/search/all-'))).toBe(false);
    // 'pi' is too common for a leaf here, so its word list was read.
    expect((files.get(shardPath('pi')) as SearchShardFile).v).toBe(2);
    expect(loaded).toContain(wordsPath('pi'));
  });

  it("answers an abbreviation of a common name from that name's answer, without the whole index", async () => {
    for (const [query, name] of [
      ['pkm', 'pokemon'],
      ['optcg', 'one piece'],
    ]) {
      const { search, loaded } = searcher(files);
      const got = await search.search(query!);
      const expected = searchWithTotal(whole, query!);
      expect({ query, ids: ids(got.results), total: got.total }).toEqual({ query, ids: ids(expected.results), total: expected.total });
      expect(got.total, query).toBe(searchWithTotal(whole, name!).total);
      expect(
        loaded.some((path) => path.startsWith('/search/all-')),
        query,
      ).toBe(false);
    }
  });

  it('answers a catalogue name of several common words from a file of its own, without the whole index', async () => {
    const root = files.get(shardPath('')) as { phrases?: string[] };
    expect(root.phrases).toContain('one piece');
    for (const name of root.phrases!) {
      expect(name.split(' ').every((word) => files.get(shardPath(word))?.v === 2)).toBe(true);
      const { search, loaded } = searcher(files);
      const expected = searchWithTotal(whole, name);
      const got = await search.search(name);
      expect({ name, ids: ids(got.results), total: got.total }).toEqual({ name, ids: ids(expected.results), total: expected.total });
      expect(loaded).toContain(phrasePath(name));
      expect(loaded.some((path) => path.startsWith('/search/all-'))).toBe(false);
    }
  });
});

describe('the word lists', () => {
  it('stay small at 100,000 products: a few KB gzipped for any two letters', () => {
    const catalog = fakeCatalog(100_000, 5);
    const keys = catalog.map((p) =>
      searchKey(p.name, undefined, catalogTags(p.name, [franchiseName.get(p.franchiseId), expansionName.get(p.expansionId), typeName.get(p.typeId)])),
    );
    let largest = 0;
    for (const words of typoVocabulary(keys).values()) largest = Math.max(largest, gzipSync(JSON.stringify({ v: 3, words: [...words].sort() })).byteLength);
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThanOrEqual(4 * 1024);
  });
});
