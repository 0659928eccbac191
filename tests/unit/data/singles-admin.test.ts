import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from '../../support/fake-supabase.ts';
import { centavos } from '~/domain/money.ts';

let fake = fakeSupabase();
vi.mock('astro:env/client', () => ({ PUBLIC_SUPABASE_URL: undefined, PUBLIC_SUPABASE_ANON_KEY: undefined }));
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => fake.client,
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const data = await import('~/data/singles-admin.ts');

beforeEach(() => {
  fake = fakeSupabase();
});

const offerRow = (over: Record<string, unknown> = {}) => ({
  id: 'o1',
  product_id: 'op-luffy',
  condition: 'LP',
  language: 'en',
  finish: 'parallel',
  price: '3849.00',
  original_price: null,
  stock: 3,
  grading_company: null,
  grade: null,
  certificate_number: null,
  images: [],
  position: 2,
  created_at: '',
  updated_at: '',
  ...over,
});

describe('reading a single', () => {
  it('reads the printing and the offers in the shop’s order, prices as centavos', async () => {
    fake = fakeSupabase({
      card_printings: [
        {
          data: { product_id: 'op-luffy', expansion: 'OP05', collector_number: 'OP05-119', rarity: 'SEC', name_en: 'Monkey.D.Luffy', name_es: null },
          error: null,
        },
      ],
      card_offers: [
        {
          data: [
            offerRow({ id: 'slab', condition: null, grading_company: 'PSA', grade: '10.0', certificate_number: '18901250', price: 11290, position: 0 }),
            offerRow(),
          ],
          error: null,
        },
      ],
    });
    const single = await data.loadSingle('op-luffy');
    expect(single?.printing).toEqual({ setCode: 'OP05', collectorNumber: 'OP05-119', rarity: 'SEC', nameEn: 'Monkey.D.Luffy', nameEs: '' });
    expect(single?.offers.map((o) => [o.id, o.priceCentavos, o.grade])).toEqual([
      ['o1', 384900, null],
      ['slab', 1129000, 10],
    ]);
  });

  it('is null when either table cannot be read; a product without a printing yet has none', async () => {
    fake = fakeSupabase({ card_printings: [{ data: null, error: null }], card_offers: [{ data: null, error: { message: 'x' } }] });
    expect(await data.loadSingle('x')).toBeNull();
    fake = fakeSupabase({ card_printings: [{ data: null, error: null }], card_offers: [{ data: [], error: null }] });
    expect(await data.loadSingle('x')).toEqual({ printing: null, offers: [] });
  });
});

describe('writing a single', () => {
  it('saves the printing as an upsert by product, blanks as null', async () => {
    const result = await data.savePrinting('op-luffy', 'one-piece', {
      setCode: ' ',
      collectorNumber: ' OP05-119 ',
      rarity: 'SEC',
      nameEn: 'Luffy',
      nameEs: '',
    });
    expect(result).toEqual({ ok: true });
    const upsert = fake.calls[0]!.steps.find((s) => s.method === 'upsert')!;
    expect(upsert.args).toEqual([
      { product_id: 'op-luffy', franchise: 'one-piece', expansion: null, collector_number: 'OP05-119', rarity: 'SEC', name_en: 'Luffy', name_es: null },
      { onConflict: 'product_id' },
    ]);
  });

  it('writes a slab without a condition and a raw copy without slab fields', () => {
    expect(
      data.offerColumns({
        kind: 'slab',
        gradingCompany: 'CGC',
        grade: 9.5,
        certificateNumber: ' 42 ',
        language: 'en',
        finish: 'holo',
        priceCentavos: centavos(90000),
        originalPriceCentavos: null,
        stock: 1,
        images: ['p.webp'],
      }),
    ).toEqual({
      language: 'en',
      finish: 'holo',
      price: 900,
      original_price: null,
      condition: null,
      grading_company: 'CGC',
      grade: 9.5,
      certificate_number: '42',
      images: ['p.webp'],
    });
    expect(
      data.offerColumns({
        kind: 'raw',
        condition: 'NM',
        language: 'es',
        finish: 'holo',
        priceCentavos: centavos(1000),
        originalPriceCentavos: centavos(1200),
        stock: 4,
      }),
    ).toEqual({
      language: 'es',
      finish: 'holo',
      price: 10,
      original_price: 12,
      condition: 'NM',
      grading_company: null,
      grade: null,
      certificate_number: null,
      images: [],
    });
  });

  it('adds an offer with its stock and position', async () => {
    fake = fakeSupabase({ card_offers: [{ data: offerRow({ id: 'new', stock: 5, price: 30 }), error: null }] });
    const result = await data.addOffer(
      'op-luffy',
      { kind: 'raw', condition: 'LP', language: 'en', finish: 'normal', priceCentavos: centavos(3000), originalPriceCentavos: null, stock: 5 },
      4,
    );
    expect(result).toMatchObject({ ok: true, offer: { id: 'new', priceCentavos: 3000, stock: 5 } });
    expect(fake.calls[0]!.steps.find((s) => s.method === 'insert')!.args[0]).toMatchObject({ product_id: 'op-luffy', stock: 5, position: 4 });
  });

  it('names the database’s refusals', () => {
    expect(data.failureOf({ code: '42501', message: 'new row violates row-level security policy' }).kind).toBe('forbidden');
    expect(data.failureOf({ code: '23505', message: 'duplicate key value violates unique constraint "card_offers_certificate_number_key"' }).kind).toBe(
      'duplicate_certificate',
    );
    expect(data.failureOf({ code: '23505', message: 'duplicate key value violates unique constraint "card_offers_raw_unique_idx"' }).kind).toBe(
      'duplicate_offer',
    );
    expect(data.failureOf({ code: '23514', message: 'check' }).kind).toBe('failed');
  });

  it('sets the stock through admin_set_offer_stock and tells a refusal from a save', async () => {
    fake = fakeSupabase({
      'rpc:admin_set_offer_stock': [
        { data: { saved: false, stock: 1 }, error: null },
        { data: { saved: true, stock: 6 }, error: null },
      ],
    });
    expect(await data.setOfferStock('o1', 3, 6)).toEqual({ status: 'stock_changed', stock: 1 });
    expect(await data.setOfferStock('o1', 1, 6)).toEqual({ status: 'saved', stock: 6 });
    expect(fake.calls[1]!.steps[0]!.args[0]).toEqual({ p_offer_id: 'o1', p_stock_read: 1, p_stock: 6 });
    fake = fakeSupabase({ 'rpc:admin_set_offer_stock': [{ data: 'raro', error: null }] });
    expect(await data.setOfferStock('o1', 1, 6)).toEqual({ status: 'failed', message: '' });
  });
});

describe('the product list’s summary of a single', () => {
  it('counts the offers, the cheapest and every unit', () => {
    expect(
      data.summarizeOffers([
        { price: '969.00', stock: 0 },
        { price: 3849, stock: 3 },
        { price: '4749.00', stock: 2 },
      ]),
    ).toEqual({ count: 3, fromCentavos: 96900, stock: 5 });
    expect(data.summarizeOffers([])).toEqual({ count: 0, fromCentavos: null, stock: 0 });
  });
});
