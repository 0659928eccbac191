import { describe, expect, it } from 'vitest';
import { buylistSearchIndex, entryFor, sameCopies, searchBuylist, sellTotals } from '~/domain/buylist';
import { centavos } from '~/domain/money';
import { prepareIndex, searchWithTotal } from '~/domain/name-matching/matching';
import { productCard } from '~/domain/header-search/cards';

const CARDS = [
  { key: 'op-luffy-op05-119', name: 'Monkey.D.Luffy (OP05-119)', collectorNumber: 'OP05-119', nameEn: 'Monkey.D.Luffy', nameEs: null },
  { key: 'op-luffy-op01-024', name: 'Monkey.D.Luffy (OP01-024)', collectorNumber: 'OP01-024', nameEn: 'Monkey.D.Luffy', nameEs: null },
  { key: 'op-zoro-op01-025', name: 'Roronoa Zoro (OP01-025)', collectorNumber: 'OP01-025', nameEn: 'Roronoa Zoro', nameEs: null },
  { key: 'pk-clefairy', name: 'Clefairy ex de Lillie 056/159', collectorNumber: '056/159', nameEn: "Lillie's Clefairy ex", nameEs: 'Clefairy ex de Lillie' },
];

describe('searchBuylist', () => {
  const index = buylistSearchIndex(CARDS);

  it('finds a card by its collector number however it is written', () => {
    for (const query of ['OP05-119', 'op05119', 'op05 119']) expect(searchBuylist(index, query).keys[0]).toBe('op-luffy-op05-119');
  });

  it('finds every printing of a name, and by its other language name', () => {
    const luffy = searchBuylist(index, 'luffy');
    expect(new Set(luffy.keys)).toEqual(new Set(['op-luffy-op05-119', 'op-luffy-op01-024']));
    expect(luffy.total).toBe(2);
    expect(searchBuylist(index, "lillie's clefairy").keys).toEqual(['pk-clefairy']);
  });

  it('answers as the header search answers over the same cards', () => {
    // The header search's index of the same products (its card text from productCard).
    const header = prepareIndex(
      CARDS.map((card) => [
        card.key,
        card.name,
        '',
        productCard({ name: card.name, printing: { collectorNumber: card.collectorNumber, nameEn: card.nameEn, nameEs: card.nameEs } as never, offers: [] }),
      ]),
    );
    for (const query of ['zoro', 'OP01', 'luffy op05', 'clefairy', 'roronoa zorro', 'nada']) {
      const expected = searchWithTotal(header, query);
      const found = searchBuylist(index, query);
      expect(found.keys, query).toEqual(expected.results.map((entry) => entry[0]));
      expect(found.total, query).toBe(expected.total);
    }
  });

  it('finds nothing for an empty query or a card it does not buy', () => {
    expect(searchBuylist(index, '   ')).toEqual({ keys: [], total: 0 });
    expect(searchBuylist(index, 'pikachu')).toEqual({ keys: [], total: 0 });
  });

  it('stops at the limit but counts every match', () => {
    const found = searchBuylist(index, 'op01', 1);
    expect(found.keys).toHaveLength(1);
    expect(found.total).toBe(2);
  });
});

describe('sellTotals', () => {
  it('adds each line times its quantity, both ways', () => {
    const lines = [
      { quantity: 2, transferEach: centavos(152_000), creditEach: centavos(190_000) },
      { quantity: 1, transferEach: centavos(1_999), creditEach: centavos(2_499) },
    ];
    expect(sellTotals(lines)).toEqual({ transfer: 2 * 152_000 + 1_999, credit: 2 * 190_000 + 2_499 });
  });

  it('is zero for an empty list', () => {
    expect(sellTotals([])).toEqual({ transfer: 0, credit: 0 });
  });
});

describe('sameCopies', () => {
  it('compares card, condition, language and finish', () => {
    const line = { productId: 'p', condition: 'LP', language: 'en', finish: 'parallel' };
    expect(sameCopies(line, { ...line })).toBe(true);
    expect(sameCopies(line, { ...line, condition: 'MP' })).toBe(false);
    expect(sameCopies(line, { ...line, language: 'ja' })).toBe(false);
    expect(sameCopies(line, { ...line, finish: 'normal' })).toBe(false);
    expect(sameCopies(line, { ...line, productId: 'q' })).toBe(false);
  });
});

describe('entryFor', () => {
  const entries = [
    { id: 'any', productId: 'p', language: null, finish: null },
    { id: 'en', productId: 'p', language: 'en', finish: null },
    { id: 'parallel', productId: 'p', language: null, finish: 'parallel' },
    { id: 'en-parallel', productId: 'p', language: 'en', finish: 'parallel' },
    { id: 'other', productId: 'q', language: null, finish: null },
  ];

  it('picks the most specific entry of the card', () => {
    expect(entryFor(entries, { productId: 'p', language: 'en', finish: 'parallel' })?.id).toBe('en-parallel');
    expect(entryFor(entries, { productId: 'p', language: 'en', finish: 'normal' })?.id).toBe('en');
    expect(entryFor(entries, { productId: 'p', language: 'ja', finish: 'parallel' })?.id).toBe('parallel');
    expect(entryFor(entries, { productId: 'p', language: 'ja', finish: 'normal' })?.id).toBe('any');
    expect(entryFor(entries, { productId: 'q', language: 'ja', finish: 'normal' })?.id).toBe('other');
  });

  it('finds none for a card or copies no entry buys', () => {
    expect(entryFor(entries, { productId: 'z', language: 'en', finish: 'normal' })).toBeUndefined();
    const onlyEnglish = [{ id: 'en', productId: 'p', language: 'en', finish: null }];
    expect(entryFor(onlyEnglish, { productId: 'p', language: 'ja', finish: 'normal' })).toBeUndefined();
  });
});
