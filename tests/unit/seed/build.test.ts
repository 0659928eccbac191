/**
 * The demo seed (scripts/seed/build.ts): the demo orders (the shop shows an order as '#' + the last
 * six characters of its id, so no two may share them) and the singles section, printings with
 * their offers, as the product pages, the offer picker and the shopper journeys expect them.
 */
import { describe, expect, it } from 'vitest';
import { isSinglesType } from '~/domain/catalog.ts';
import { orderDisplayId } from '~/domain/orders.ts';
import { CARD_CONDITIONS, finishesOf, languagesOf, offerLabel, raritiesOf } from '~/domain/singles.ts';
import { buildSeed, customerOrders, demoOrders } from '../../../scripts/seed/build.ts';
import { demoProducts, scaledProducts } from '../../../scripts/seed/products.ts';
import { SINGLES_TYPE, offerId, offerIdKey } from '../../../scripts/seed/singles.ts';
import { DEMO_CUSTOMER_ORDER_COUNT, DEMO_ORDER_COUNT } from '../../../scripts/seed/constants.ts';

const products = demoProducts();
const orders = [...demoOrders(products), ...customerOrders(products)];

describe('demo orders', () => {
  it('are every order of both demo accounts', () => {
    expect(orders).toHaveLength(DEMO_ORDER_COUNT + DEMO_CUSTOMER_ORDER_COUNT);
    expect(new Set(orders.map((o) => o.id)).size).toBe(orders.length);
  });

  it('have ids whose last six characters differ, so their numbers on screen never repeat', () => {
    const lastSix = orders.map((o) => o.id.slice(-6));
    expect(new Set(lastSix).size).toBe(orders.length);
    expect(new Set(orders.map((o) => orderDisplayId(o.id))).size).toBe(orders.length);
  });

  it('are the orders the demo accounts file inserts', () => {
    const { demoSql } = buildSeed();
    for (const order of orders) expect(demoSql).toContain(`'${order.id}'`);
  });
});

describe('the singles section of the demo catalogue', () => {
  const singles = products.filter((p) => p.printing);
  const offers = singles.flatMap((p) => p.offers ?? []);

  it('has about 200 printings across the three games, each a product of its singles type', () => {
    expect(singles.length).toBeGreaterThanOrEqual(180);
    expect(singles.length).toBeLessThanOrEqual(220);
    for (const franchise of ['pokemon', 'one-piece', 'riftbound'] as const) {
      expect(singles.filter((p) => p.franchiseId === franchise).length).toBeGreaterThanOrEqual(20);
    }
    for (const p of singles) expect(p.productTypeId).toBe(SINGLES_TYPE[p.franchiseId]);
    // Every product of a singles type is a printing: no single is left selling one implicit copy.
    expect(products.filter((p) => isSinglesType(p.productTypeId))).toHaveLength(singles.length);
  });

  it('prints rarities of its game, collector numbers as printed, and no collector number twice in a set', () => {
    const seen = new Set<string>();
    for (const p of singles) {
      const printing = p.printing!;
      expect(raritiesOf(p.franchiseId).map((r) => r.code)).toContain(printing.rarity);
      const format = { pokemon: /^[A-Z]{0,2}\d{1,3}\/[A-Z]{0,2}\d{2,3}$/, 'one-piece': /^OP\d{2}-\d{3}$/, riftbound: /^[A-Z]{3}-\d{3}$/ }[p.franchiseId];
      expect(printing.collectorNumber).toMatch(format);
      const key = `${printing.setCode}:${printing.collectorNumber}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
  });

  it('sells each printing as 2 to 6 offers its game prints, one per condition, language and finish', () => {
    for (const p of singles) {
      const list = p.offers!;
      expect(list.length, p.id).toBeGreaterThanOrEqual(2);
      expect(list.length, p.id).toBeLessThanOrEqual(6);
      const languages = languagesOf(p.franchiseId).map((c) => c.code);
      const finishes = finishesOf(p.franchiseId).map((c) => c.code);
      for (const offer of list) {
        expect(languages).toContain(offer.language);
        expect(finishes).toContain(offer.finish);
        expect(offer.stock).toBeGreaterThanOrEqual(0);
        expect(offer.stock).toBeLessThanOrEqual(8);
        if (offer.originalPrice !== null) expect(offer.originalPrice).toBeGreaterThan(offer.price);
      }
      const raw = list.filter((o) => !o.gradingCompany).map((o) => offerLabel(o));
      expect(new Set(raw).size).toBe(raw.length);
    }
    expect(new Set(offers.map((o) => o.id)).size).toBe(offers.length);
    expect(offers.filter((o) => o.stock === 0).length).toBeGreaterThan(20);
    expect(offers.filter((o) => o.originalPrice !== null).length).toBeGreaterThan(20);
  });

  it('prices a better condition above a worse one of the same language and finish', () => {
    for (const p of singles) {
      const raw = p.offers!.filter((o) => o.condition);
      for (const a of raw) {
        for (const b of raw) {
          if (a.language !== b.language || a.finish !== b.finish) continue;
          if (CARD_CONDITIONS.indexOf(a.condition!) < CARD_CONDITIONS.indexOf(b.condition!)) {
            expect(a.originalPrice ?? a.price, `${p.id} ${offerLabel(a)}`).toBeGreaterThan(b.originalPrice ?? b.price);
          }
        }
      }
    }
  });

  it('shows on the product row the cheapest copy in stock and the stock of all copies', () => {
    for (const p of singles) {
      const inStock = p.offers!.filter((o) => o.stock > 0);
      const pool = inStock.length > 0 ? inStock : p.offers!;
      expect(p.price).toBe(Math.min(...pool.map((o) => o.price)));
      expect(p.stock).toBe(p.offers!.reduce((sum, o) => sum + o.stock, 0));
      expect(p.description).not.toMatch(/Near Mint|en condición/);
    }
  });

  it('has a few graded slabs, each with a grade in halves and a certificate of its own', () => {
    const slabs = offers.filter((o) => o.gradingCompany);
    expect(slabs.length).toBeGreaterThanOrEqual(8);
    expect(new Set(slabs.map((o) => o.gradingCompany))).toEqual(new Set(['PSA', 'BGS', 'CGC']));
    for (const slab of slabs) {
      expect(slab.condition).toBeNull();
      expect(slab.grade! * 2).toBe(Math.floor(slab.grade! * 2));
      expect(slab.certificateNumber).toMatch(/^\d{8,10}$/);
      expect(slab.images).toHaveLength(1);
    }
    expect(new Set(slabs.map((o) => o.certificateNumber)).size).toBe(slabs.length);
  });

  it('sells Monkey.D.Luffy OP05-119 in the copies the shopper journeys use', () => {
    const luffy = singles.find((p) => p.printing!.collectorNumber === 'OP05-119')!;
    expect(luffy).toMatchObject({ name: 'Monkey.D.Luffy (OP05-119)', expansionId: 'op-05', productTypeId: 'op-single-card' });
    expect(luffy.printing!.rarity).toBe('SEC');
    const byLabel = new Map(luffy.offers!.map((o) => [offerLabel(o), o]));
    expect(byLabel.get('NM · Inglés · Parallel')!.stock).toBeGreaterThanOrEqual(2);
    expect(byLabel.get('LP · Inglés · Parallel')!.stock).toBeGreaterThanOrEqual(3);
    expect(byLabel.get('MP · Japonés · Normal')!.stock).toBe(0);
    expect(byLabel.get('PSA 10 · Japonés')).toMatchObject({ gradingCompany: 'PSA', grade: 10 });
  });

  it('has Charizard ex 199/165 with a Spanish copy and Umbreon ex', () => {
    const charizard = singles.find((p) => p.printing!.collectorNumber === '199/165')!;
    expect(charizard.printing).toMatchObject({ nameEn: 'Charizard ex', rarity: 'special-illustration-rare' });
    expect(charizard.name).toBe('Charizard ex 199/165 – Escarlata y Púrpura 151');
    expect(charizard.offers!.some((o) => o.language === 'es' && o.stock > 0)).toBe(true);
    expect(singles.some((p) => p.printing!.nameEn === 'Umbreon ex')).toBe(true);
  });

  it('writes every printing and offer after the products, and the same file on every run', () => {
    const { sql } = buildSeed();
    const productsAt = sql.indexOf('insert into public.products');
    expect(sql.indexOf('insert into public.card_printings')).toBeGreaterThan(productsAt);
    expect(sql.indexOf('insert into public.card_offers')).toBeGreaterThan(sql.indexOf('insert into public.card_printings'));
    // One packed row per single (tests/db/seed-singles.test.ts checks the database unpacks it).
    for (const p of singles) expect(sql).toContain(`('${p.id}', '${p.printing!.setCode}|${p.printing!.collectorNumber}|`);
    for (const offer of offers) expect(offer.id).toBe(offerId(singles.find((p) => p.offers!.includes(offer))!.id, offerIdKey(offer)));
    expect(buildSeed().sql).toBe(sql);
  });
});

describe('the large catalogue of the benchmark', () => {
  it('is four fifths singles, each with 2 to 6 offers and unique certificates', () => {
    const large = scaledProducts(5000);
    expect(new Set(large.map((p) => p.id)).size).toBe(5000);
    const added = large.slice(products.length);
    const singles = added.filter((p) => p.printing);
    expect(singles.length / added.length).toBeCloseTo(0.8, 1);
    for (const p of singles) {
      expect(p.offers!.length).toBeGreaterThanOrEqual(2);
      expect(p.offers!.length).toBeLessThanOrEqual(6);
      expect(p.images).toEqual([`product-types/${p.productTypeId}.svg`]);
    }
    const certificates = large.flatMap((p) => p.offers ?? []).flatMap((o) => (o.certificateNumber ? [o.certificateNumber] : []));
    expect(new Set(certificates).size).toBe(certificates.length);
  });
});
