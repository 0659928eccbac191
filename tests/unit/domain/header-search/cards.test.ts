import { describe, expect, it } from 'vitest';
import { parseProduct, type Product } from '~/domain/product-schema.ts';
import { isSingle, productCard, productFacets } from '~/domain/header-search/cards.ts';

function product(fields: Record<string, unknown>): Product {
  const parsed = parseProduct({ id: 'p', price: 100, stock: 1, franchise_id: 'one-piece', ...fields });
  if (!parsed) throw new Error('producto de prueba no válido');
  return parsed;
}

const luffy = product({
  id: 'op-luffy',
  name: 'Monkey.D.Luffy (OP05-119)',
  product_type_id: 'op-single-card',
  card_printings: { collector_number: 'OP05-119', rarity: 'SEC', name_en: 'Monkey.D.Luffy', name_es: null },
  card_offers: [
    { id: 'a', condition: 'LP', language: 'en', finish: 'parallel', price: 900, stock: 3 },
    { id: 'b', condition: 'NM', language: 'en', finish: 'parallel', price: 950, stock: 0 },
    { id: 'c', condition: 'LP', language: 'en', finish: 'parallel', price: 990, stock: 1 },
    { id: 'd', condition: null, language: 'ja', finish: 'parallel', price: 9000, stock: 1, grading_company: 'PSA', grade: 10, certificate_number: '1' },
  ],
});
const charizard = product({
  id: 'pk-charizard',
  name: 'Charizard ex 199/165 – Escarlata y Púrpura 151',
  product_type_id: 'single-card',
  card_printings: { collector_number: '199/165', rarity: 'special-illustration-rare', name_en: 'Charizard ex', name_es: 'Charizard ex' },
  card_offers: [],
});
const graded = product({ id: 'pk-graded', name: 'Pikachu & Zekrom GX PSA 10 (Unión de Aliados)', product_type_id: 'graded-card' });
const box = product({ id: 'op-box', name: 'Caja de sobres OP-05', product_type_id: 'op-booster-box' });

describe('what the build writes for a card', () => {
  it('tells singles from other products', () => {
    expect([luffy, charizard, graded, box].map(isSingle)).toEqual([true, true, false, false]);
  });

  it('gives a single its rarity and its offers in stock, once per condition, language and finish', () => {
    expect(productFacets(luffy)).toEqual({ rarity: 'SEC', offers: 'LP.en.parallel G.ja.parallel' });
    expect(productFacets(charizard)).toEqual({ rarity: 'special-illustration-rare', offers: '' });
    expect(productFacets(graded)).toBeNull();
    expect(productFacets(box)).toBeNull();
  });

  it('gives the header search the collector key and the card names, a graded card its name without the expansion note', () => {
    expect(productCard(luffy)).toBe('#op05119 ~3');
    expect(productCard(charizard)).toBe('#199165 ~2');
    expect(productCard(graded)).toBe('# ~5');
    expect(productCard(box)).toBe('');
  });
});
