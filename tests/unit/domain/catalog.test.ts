import { describe, expect, it } from 'vitest';
import {
  collections,
  collectionsOf,
  expansions,
  expansionsOf,
  footerCatalogLinks,
  franchises,
  getExpansion,
  getProductType,
  getPseudoType,
  isFranchiseId,
  preorderType,
  productTypes,
  saleType,
  typesOf,
  isSinglesType,
} from '~/domain/catalog';
import { toCentavos } from '~/domain/money.ts';

function duplicates(ids: readonly string[]): string[] {
  return ids.filter((id, index) => ids.indexOf(id) !== index);
}

/** Expansions of a collection, in catalogue order. */
const expansionsIn = (collectionId: string) => expansions.filter((item) => item.collectionId === collectionId);

describe('catalogue data', () => {
  it('has the three franchises with names and site logos', () => {
    expect(franchises.map((f) => [f.id, f.name, f.logo])).toEqual([
      ['pokemon', 'Pokémon', '/images/franchises/pokemon.svg'],
      ['one-piece', 'One Piece', '/images/franchises/one-piece.svg'],
      ['riftbound', 'Riftbound', '/images/franchises/riftbound.svg'],
    ]);
  });

  it('has the collections of the specification per franchise', () => {
    expect(collectionsOf('pokemon').map((c) => c.id)).toEqual(['scarlet-violet', 'sword-shield', 'sun-moon', 'xy', 'black-white']);
    expect(collectionsOf('one-piece').map((c) => c.id)).toEqual(['op-01', 'op-02', 'op-03', 'op-04', 'op-05']);
    expect(collectionsOf('riftbound').map((c) => c.id)).toEqual(['rift-alpha', 'rift-dawn']);
    expect(collections.find((c) => c.id === 'op-02')?.name).toBe('OP-02 Paramount War');
  });

  it('has the eight Scarlet & Violet expansions with their market names', () => {
    expect(expansionsIn('scarlet-violet').map((e) => [e.id, e.name])).toEqual([
      ['temporal-forces', 'Fuerzas Temporales'],
      ['twilight-masquerade', 'Máscaras del Crepúsculo'],
      ['shrouded-fable', 'Fábula Sombría'],
      ['stellar-crown', 'Corona Astral'],
      ['surging-sparks', 'Chispas Fulgurantes'],
      ['prismatic-evolutions', 'Evoluciones Prismáticas'],
      ['journey-together', 'Journey Together'],
      ['destined-rivals', 'Destined Rivals'],
    ]);
  });

  it('gives every collection at least one expansion, consistent with its franchise', () => {
    for (const collection of collections) {
      const own = expansionsIn(collection.id);
      expect(own.length, collection.id).toBeGreaterThan(0);
      for (const item of own) expect(item.franchiseId).toBe(collection.franchiseId);
    }
    expect(expansionsIn('rift-alpha')).toHaveLength(2);
    expect(expansionsIn('rift-dawn')).toHaveLength(2);
  });

  it('uses unique ids and relative storage paths for expansion and type images', () => {
    expect(duplicates(expansions.map((e) => e.id))).toEqual([]);
    expect(duplicates(productTypes.map((t) => t.id))).toEqual([]);
    expect(duplicates(collections.map((c) => c.id))).toEqual([]);
    for (const item of expansions) expect(item.image).toBe(`expansions/${item.id}.svg`);
    for (const type of productTypes) expect(type.image).toBe(`product-types/${type.id}.svg`);
    for (const item of expansions) {
      if (item.releaseDate !== undefined) expect(item.releaseDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('has 23 Pokémon product types, 5 for One Piece and 5 for Riftbound, each game with one singles type', () => {
    expect(typesOf('pokemon')).toHaveLength(23);
    expect(typesOf('one-piece')).toHaveLength(5);
    expect(typesOf('riftbound')).toHaveLength(5);
    for (const franchise of ['pokemon', 'one-piece', 'riftbound']) {
      expect(
        typesOf(franchise)
          .filter((type) => isSinglesType(type.id))
          .map((type) => type.name),
      ).toEqual(['Carta individual']);
    }
    expect(isSinglesType('booster-box')).toBe(false);
    expect(isSinglesType(null)).toBe(false);
    expect(typesOf('nope')).toEqual([]);
    const names = Object.fromEntries(typesOf('pokemon').map((t) => [t.id, t.name]));
    expect(names).toMatchObject({
      'elite-trainer-box': 'Elite Trainer Box',
      'booster-pack': 'Sobre',
      'booster-box': 'Caja de sobres',
      'single-card': 'Carta individual',
      'digital-code': 'Código digital',
    });
    expect(names['booster-display']).toBeDefined();
  });

  it('references only known franchises and collections', () => {
    for (const item of expansions) {
      expect(isFranchiseId(item.franchiseId), item.id).toBe(true);
      expect(collections.some((c) => c.id === item.collectionId)).toBe(true);
    }
    for (const type of productTypes) expect(isFranchiseId(type.franchiseId)).toBe(true);
  });
});

describe('lookups', () => {
  it('finds by id and returns undefined for unknown ids', () => {
    expect(getExpansion('journey-together')?.collectionId).toBe('scarlet-violet');
    expect(getExpansion('x')).toBeUndefined();
    expect(getProductType('op-starter-deck')?.franchiseId).toBe('one-piece');
    expect(getProductType('preorder')).toBeUndefined();
    expect(isFranchiseId('riftbound')).toBe(true);
    expect(isFranchiseId('Riftbound')).toBe(false);
  });

  it('filters expansions by franchise', () => {
    expect(expansionsOf('one-piece').map((e) => e.id)).toEqual(['op-01', 'op-02', 'op-03', 'op-04', 'op-05']);
    expect(expansionsOf('pokemon').every((e) => e.franchiseId === 'pokemon')).toBe(true);
    expect(expansionsOf('unknown')).toEqual([]);
  });
});

describe('pseudo-types', () => {
  it('are named Preventa and Ofertas and found by id', () => {
    expect(getPseudoType('preorder')?.name).toBe('Preventa');
    expect(getPseudoType('sale')?.name).toBe('Ofertas');
    expect(getPseudoType('booster-box')).toBeUndefined();
  });

  it('preorder matches only products flagged preorder', () => {
    expect(preorderType.matches({ priceCentavos: toCentavos(10), preorder: true })).toBe(true);
    expect(preorderType.matches({ priceCentavos: toCentavos(10), preorder: false })).toBe(false);
    expect(preorderType.matches({ priceCentavos: toCentavos(10) })).toBe(false);
  });

  it('sale matches a higher original price or the discount flag', () => {
    expect(saleType.matches({ priceCentavos: toCentavos(100), originalPriceCentavos: toCentavos(120) })).toBe(true);
    expect(saleType.matches({ priceCentavos: toCentavos(100), originalPriceCentavos: toCentavos(100.01) })).toBe(true);
    expect(saleType.matches({ priceCentavos: toCentavos(100), discount: true })).toBe(true);
    expect(saleType.matches({ priceCentavos: toCentavos(100), originalPriceCentavos: toCentavos(100) })).toBe(false);
    expect(saleType.matches({ priceCentavos: toCentavos(100), originalPriceCentavos: toCentavos(80) })).toBe(false);
    expect(saleType.matches({ priceCentavos: toCentavos(100), originalPriceCentavos: null, discount: false })).toBe(false);
  });
});

describe('footer links', () => {
  it('lists the fixed links of the specification in order', () => {
    expect(footerCatalogLinks.map((l) => l.href)).toEqual([
      '/franchise/pokemon/expansions/destined-rivals/products',
      '/franchise/pokemon/expansions/journey-together/products',
      '/franchise/pokemon/expansions/prismatic-evolutions/products',
      '/franchise/pokemon/product-types',
      '/franchise/pokemon/expansions',
      '/franchise/pokemon/product-types/preorder/products',
      '/franchise/pokemon/product-types/sale/products',
    ]);
    for (const link of footerCatalogLinks) expect(link.label.trim()).not.toBe('');
  });
});
