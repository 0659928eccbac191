import { describe, expect, it } from 'vitest';
import { parseProduct, type Product } from '~/domain/product-schema.ts';
import { applyFilters, EMPTY_FILTERS, EXPLORE_PAGE, filtersFromQuery, parseExploreData, resultsLabel, toExploreProduct } from '~/domain/explore.ts';
import { searchExplore } from '~/domain/explore-query.ts';

function product(fields: Record<string, unknown>): Product {
  const parsed = parseProduct({ price: 100, stock: 3, franchise_id: 'one-piece', ...fields });
  if (!parsed) throw new Error('producto de prueba no válido');
  return parsed;
}

const luffy = product({
  id: 'op-luffy-119',
  name: 'Monkey.D.Luffy (OP05-119)',
  product_type_id: 'op-single-card',
  card_printings: { collector_number: 'OP05-119', rarity: 'SEC', name_en: 'Monkey.D.Luffy', name_es: null },
  card_offers: [
    { id: 'a', condition: 'LP', language: 'en', finish: 'parallel', price: 900, stock: 1 },
    { id: 'b', condition: 'NM', language: 'ja', finish: 'normal', price: 1200, stock: 0 },
    { id: 'c', condition: null, language: 'en', finish: 'normal', price: 5000, stock: 1, grading_company: 'PSA', grade: 10, certificate_number: '1' },
  ],
});
const zoro = product({
  id: 'op-zoro-001',
  name: 'Roronoa Zoro (OP01-001)',
  product_type_id: 'op-single-card',
  card_printings: { collector_number: 'OP01-001', rarity: 'L', name_en: null, name_es: null },
  card_offers: [{ id: 'd', condition: 'NM', language: 'ja', finish: 'normal', price: 100, stock: 2 }],
});
const box = product({ id: 'op-box-05', name: 'Caja de sobres OP05-119 Luffy', product_type_id: 'op-booster-box' });
// Through JSON, as the island reads the file.
const data = parseExploreData(JSON.parse(JSON.stringify({ products: [box, zoro, luffy].map((p) => toExploreProduct(p, '')) })))!;
const ids = (list: ReadonlyArray<{ id: string }>) => list.map((p) => p.id);

describe('the explore JSON of a single', () => {
  it('carries its card text and facets, and a sealed product none', () => {
    const [sealed, , single] = data.products;
    expect(single).toMatchObject({ card: '#op05119 ~3', rarity: 'SEC', offers: 'LP.en.parallel G.en.normal' });
    expect(sealed).not.toHaveProperty('card');
    expect(sealed).not.toHaveProperty('offers');
    // Copies in stock at $900 and $5,000: 'Desde'; Zoro's one copy has one price.
    expect(single!.from).toBe(true);
    expect(data.products[1]).not.toHaveProperty('from');
  });
});

describe('explore search and singles filters', () => {
  it('finds a single by its collector number first, like the header search', () => {
    expect(ids(applyFilters(data.products, { ...EMPTY_FILTERS, q: 'op05 119' }))).toEqual(['op-luffy-119', 'op-box-05']);
    expect(ids(applyFilters(data.products, { ...EMPTY_FILTERS, q: 'luffy' }))).toEqual(['op-luffy-119', 'op-box-05']);
  });

  it('filters by rarity, condition, language, finish and graded, over offers in stock', () => {
    const run = (query: string) => ids(applyFilters(data.products, filtersFromQuery(query)));
    expect(run('?condicion=LP&idioma=en')).toEqual(['op-luffy-119']);
    expect(run('?condicion=NM')).toEqual(['op-zoro-001']);
    expect(run('?rareza=L')).toEqual(['op-zoro-001']);
    expect(run('?graduadas=1')).toEqual(['op-luffy-119']);
    expect(run('?acabado=manga')).toEqual([]);
  });

  it('offers the singles filters only when singles are among the results, with their values and counts', () => {
    const sealed = searchExplore(data, { ...EMPTY_FILTERS, type: 'op-booster-box' }, 0, 24).facets;
    expect([sealed.rarities, sealed.conditions, sealed.languages, sealed.finishes]).toEqual([[], [], [], []]);
    expect(sealed.graded).toBe(0);
    const options = searchExplore(data, EMPTY_FILTERS, 0, 24).facets;
    // In the game's own order of rarities.
    expect(options.rarities).toEqual([
      { id: 'SEC', name: 'SEC · Secret Rare', count: 1 },
      { id: 'L', name: 'L · Leader', count: 1 },
    ]);
    expect(options.conditions.map((c) => `${c.name} ${c.count}`)).toEqual(['Casi nueva (NM) 1', 'Poco jugada (LP) 1']);
    expect(options.languages.map((c) => `${c.name} ${c.count}`)).toEqual(['Inglés 1', 'Japonés 1']);
    expect(options.graded).toBe(1);
  });
});

describe('explore presentation', () => {
  it('announces the count of results in Spanish, singular for one', () => {
    expect(resultsLabel(0)).toBe('0 resultados');
    expect(resultsLabel(1)).toBe('1 resultado');
    expect(resultsLabel(24)).toBe('24 resultados');
  });

  it('shows 24 results at first', () => {
    expect(EXPLORE_PAGE).toBe(24);
  });
});
