import { describe, expect, it } from 'vitest';
import { parseProduct, type Product } from '~/domain/product-schema.ts';
import { facetOptions, facetsFromQuery, facetsToParams, hasFacetFilter, matchesFacets, NO_FACETS, type FacetFilters } from '~/domain/singles-facets.ts';
import { productFacets } from '~/domain/header-search/cards.ts';
import { rarityLabel } from '~/domain/singles.ts';

let offerId = 0;
function offer(fields: Record<string, unknown>) {
  offerId += 1;
  return { id: `o${offerId}`, condition: 'NM', language: 'en', finish: 'normal', price: 100, stock: 1, ...fields };
}

function single(id: string, rarity: string, offers: Array<Record<string, unknown>>, printing: Record<string, unknown> = {}): Product {
  const parsed = parseProduct({
    id,
    name: `Carta ${id}`,
    price: 100,
    stock: 1,
    franchise_id: 'one-piece',
    product_type_id: 'op-single-card',
    card_printings: { collector_number: `OP05-${id}`, rarity, name_en: `Card ${id}`, name_es: null, ...printing },
    card_offers: offers.map(offer),
  });
  if (!parsed) throw new Error('producto de prueba no válido');
  return parsed;
}

const sealed = parseProduct({ id: 'box', name: 'Caja de sobres OP05', price: 2000, stock: 3, franchise_id: 'one-piece' })!;
// Luffy: LP English parallel in stock, NM English parallel sold out, a PSA 10 slab.
const luffy = single('119', 'SEC', [
  { condition: 'LP', finish: 'parallel' },
  { condition: 'NM', finish: 'parallel', stock: 0 },
  { condition: null, grading_company: 'PSA', grade: 10, certificate_number: '123', language: 'ja' },
]);
// Zoro: NM Japanese normal, LP Japanese manga.
const zoro = single('001', 'SR', [
  { condition: 'NM', language: 'ja' },
  { condition: 'LP', language: 'ja', finish: 'manga' },
]);
// Nami: every offer sold out.
const nami = single('050', 'R', [{ condition: 'LP', stock: 0 }]);
const all = [luffy, zoro, nami, sealed];

const matching = (filters: Partial<FacetFilters>) =>
  all.filter((product) => matchesFacets(productFacets(product), { ...NO_FACETS, ...filters })).map((p) => p.id);

describe('the singles filters', () => {
  it('let everything through when none is chosen', () => {
    expect(hasFacetFilter(NO_FACETS)).toBe(false);
    expect(matching({})).toEqual(['119', '001', '050', 'box']);
  });

  it('match a rarity exactly, and never a sealed product', () => {
    expect(matching({ rarity: 'SEC' })).toEqual(['119']);
    expect(matching({ rarity: 'R' })).toEqual(['050']);
  });

  it('need an offer in stock with the condition, language or finish', () => {
    expect(matching({ condition: 'LP' })).toEqual(['119', '001']);
    // Luffy's NM is sold out; Nami's LP too.
    expect(matching({ condition: 'NM' })).toEqual(['001']);
    expect(matching({ language: 'en' })).toEqual(['119']);
    expect(matching({ finish: 'manga' })).toEqual(['001']);
  });

  it('need one offer with every chosen value at once', () => {
    expect(matching({ condition: 'LP', language: 'en' })).toEqual(['119']);
    // Zoro has an LP and a normal finish, but not on the same copy.
    expect(matching({ condition: 'LP', finish: 'normal' })).toEqual([]);
    expect(matching({ condition: 'NM', language: 'ja', finish: 'normal' })).toEqual(['001']);
  });

  it("'Solo graduadas' keeps cards with a slab in stock, in the chosen language", () => {
    expect(matching({ graded: true })).toEqual(['119']);
    expect(matching({ graded: true, language: 'ja' })).toEqual(['119']);
    expect(matching({ graded: true, language: 'en' })).toEqual([]);
    expect(matching({ graded: true, condition: 'LP' })).toEqual([]);
  });
});

describe('the filters in the address', () => {
  it('round-trip and keep other parameters', () => {
    const filters: FacetFilters = { rarity: 'SEC', condition: 'LP', language: 'en', finish: 'parallel', graded: true };
    const params = facetsToParams(filters, new URLSearchParams('q=luffy'));
    expect(params.toString()).toBe('q=luffy&rareza=SEC&condicion=LP&idioma=en&acabado=parallel&graduadas=1');
    expect(facetsFromQuery(params)).toEqual(filters);
    expect(facetsToParams(NO_FACETS, params).toString()).toBe('q=luffy');
  });

  it('ignore values that are not codes', () => {
    expect(facetsFromQuery(new URLSearchParams('condicion=XX&idioma=<b>&rareza=&graduadas=si&acabado=a%20b'))).toEqual(NO_FACETS);
    expect(facetsFromQuery(new URLSearchParams('condicion=lp&idioma=EN')).condition).toBe('LP');
    expect(facetsFromQuery(new URLSearchParams('condicion=lp&idioma=EN')).language).toBe('en');
  });
});

describe('the values offered', () => {
  it('are those present in stock, labelled in Spanish, in the order shops list them', () => {
    const options = facetOptions(all.map(productFacets), (code) => rarityLabel('one-piece', code), ['C', 'UC', 'R', 'SR', 'SEC']);
    expect(options.rarities).toEqual([
      { code: 'R', label: 'R · Rare' },
      { code: 'SR', label: 'SR · Super Rare' },
      { code: 'SEC', label: 'SEC · Secret Rare' },
    ]);
    expect(options.conditions).toEqual([
      { code: 'NM', label: 'Casi nueva (NM)' },
      { code: 'LP', label: 'Poco jugada (LP)' },
    ]);
    expect(options.languages).toEqual([
      { code: 'en', label: 'Inglés' },
      { code: 'ja', label: 'Japonés' },
    ]);
    expect(options.finishes.map((f) => f.label)).toEqual(['Normal', 'Parallel', 'Manga']);
    expect(options.graded).toBe(true);
    expect(facetOptions([productFacets(zoro)], (c) => c).graded).toBe(false);
  });
});
