/**
 * /explore's catalogue as the running server writes it after an edit (exploreJson, each product's
 * entry kept) is the same text as the build's JSON.stringify of exploreDataWith.
 */
import { describe, expect, it } from 'vitest';
import { demoProductRows } from '../../../support/demo-rows.ts';
import { exploreDataWith, exploreJson } from '~/server/snapshot/catalog-files.ts';
import { mergeSnapshot } from '~/server/snapshot/model.ts';
import { centavos } from '~/domain/money.ts';

const STORAGE = 'https://proyecto.test';

describe("/explore's catalogue text", () => {
  it('is JSON.stringify of the catalogue, with and without readFrom, before and after a product changes', () => {
    const snapshot = mergeSnapshot({ franchises: [], collections: [], expansions: [], productTypes: [], products: demoProductRows() }, null).snapshot;
    const catalog = { ...snapshot, readFrom: null };
    expect(exploreJson(catalog, STORAGE)).toBe(JSON.stringify(exploreDataWith(catalog, STORAGE)));
    const read = { ...catalog, readFrom: '2026-11-30T07:00:00.000Z' };
    expect(exploreJson(read, STORAGE)).toBe(JSON.stringify(exploreDataWith(read, STORAGE)));
    // An edit replaces one product object; the others' kept entries are reused.
    const [first, ...rest] = catalog.products;
    const edited = { ...catalog, products: [{ ...first!, name: 'Nombre nuevo', priceCentavos: centavos(12_345) }, ...rest] };
    const text = exploreJson(edited, STORAGE);
    expect(text).toBe(JSON.stringify(exploreDataWith(edited, STORAGE)));
    expect(text).toContain('Nombre nuevo');
    // Another storage URL is not served from the kept entries.
    expect(exploreJson(edited, 'https://otro.test')).toBe(JSON.stringify(exploreDataWith(edited, 'https://otro.test')));
  });
});
