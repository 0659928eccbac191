import { describe, expect, it } from 'vitest';
import { activeFilterCount, EMPTY_FILTERS, filtersFromQuery, filtersToQuery, MAX_PAGES, pageOf, PRICE_PARAMS } from '~/domain/explore-url.ts';

describe("/explore's address", () => {
  it('keeps the singles filters in the query string', () => {
    const filters = { ...EMPTY_FILTERS, type: 'op-single-card', condition: 'LP', language: 'en', graded: true };
    const query = filtersToQuery(filters);
    expect(query).toBe('?tipo=op-single-card&condicion=LP&idioma=en&graduadas=1');
    expect(filtersFromQuery(query)).toEqual(filters);
  });

  it('writes nothing for no filters, and the same query whatever order the address had', () => {
    expect(filtersToQuery(EMPTY_FILTERS)).toBe('');
    expect(filtersFromQuery('')).toEqual(EMPTY_FILTERS);
    const a = filtersToQuery(filtersFromQuery('?orden=nombre&disponible=1&franquicia=pokemon&q=%20pikachu%20'));
    const b = filtersToQuery(filtersFromQuery('?q=pikachu&franquicia=pokemon&disponible=true&orden=nombre'));
    expect(a).toBe('?q=pikachu&franquicia=pokemon&disponible=1&orden=nombre');
    expect(b).toBe(a);
  });

  it('reads the price range in whole pesos as centavos, and writes it back in pesos', () => {
    const filters = filtersFromQuery(`?${PRICE_PARAMS.min}=100&${PRICE_PARAMS.max}=500`);
    expect([filters.priceMin, filters.priceMax]).toEqual([10_000, 50_000]);
    expect(filtersToQuery(filters)).toBe('?precio_min=100&precio_max=500');
  });

  it('ignores malformed values: slugs, prices, flags and orders it does not know', () => {
    const filters = filtersFromQuery('?franquicia=Pok%C3%A9mon!&tipo=-x&precio_min=12.5&precio_max=99999999&disponible=si&orden=barato');
    expect(filters).toEqual(EMPTY_FILTERS);
    expect(filtersFromQuery(`?q=${'a'.repeat(150)}`).q).toHaveLength(100);
  });

  it('reads the page number, 1 when absent or junk, never past MAX_PAGES', () => {
    expect(pageOf('')).toBe(1);
    expect(pageOf('?pagina=3')).toBe(3);
    expect(pageOf('?pagina=0')).toBe(1);
    expect(pageOf('?pagina=2.5')).toBe(1);
    expect(pageOf('?pagina=dos')).toBe(1);
    expect(pageOf('?pagina=500')).toBe(MAX_PAGES);
  });

  it('counts the filters that narrow the results, not the words searched nor the order', () => {
    expect(activeFilterCount(EMPTY_FILTERS)).toBe(0);
    expect(activeFilterCount({ ...EMPTY_FILTERS, q: 'luffy', sort: 'precio-asc' })).toBe(0);
    expect(activeFilterCount(filtersFromQuery('?franquicia=one-piece&condicion=LP&idioma=en&disponible=1&graduadas=1'))).toBe(5);
    // The price range counts once, whichever ends are set.
    expect(activeFilterCount(filtersFromQuery('?precio_min=10&precio_max=20'))).toBe(1);
  });
});
