import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from '../../../support/fake-supabase.ts';
import { centavos, toCentavos } from '~/domain/money.ts';
import type { SingleOffer } from '~/domain/singles.ts';
import { ADMIN_SINGLE_EDIT_TEXT as SINGLE_MESSAGES } from '~/i18n/admin.ts';

let fake = fakeSupabase();
vi.mock('astro:env/client', () => ({ PUBLIC_SUPABASE_URL: undefined, PUBLIC_SUPABASE_ANON_KEY: undefined }));
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => fake.client,
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));
const requestRebuild = vi.fn(async () => true);
vi.mock('~/data/admin.ts', () => ({ requestRebuild }));

const edit = await import('~/islands/admin/single-edit.ts');
const { emptyOfferForm, offerFormOf, parseGrade, saveOfferEdit, validateOffer, validatePrinting } = edit;

beforeEach(() => {
  fake = fakeSupabase();
  requestRebuild.mockClear();
});

function offer(over: Partial<SingleOffer> = {}): SingleOffer {
  return {
    id: 'o-lp-en',
    condition: 'LP',
    language: 'en',
    finish: 'normal',
    priceCentavos: toCentavos(29),
    originalPriceCentavos: null,
    stock: 3,
    gradingCompany: null,
    grade: null,
    certificateNumber: null,
    images: [],
    position: 0,
    ...over,
  };
}

const slab = offer({ id: 'o-psa', condition: null, gradingCompany: 'PSA', grade: 10, certificateNumber: '18901250', finish: 'parallel', language: 'ja' });

describe('the printing of a single', () => {
  it('accepts a collector number and a rarity of the franchise, and trims', () => {
    expect(validatePrinting('one-piece', { setCode: ' OP05 ', collectorNumber: ' OP05-119 ', rarity: 'SEC', nameEn: 'Monkey.D.Luffy', nameEs: '' })).toEqual({
      ok: true,
      data: { setCode: 'OP05', collectorNumber: 'OP05-119', rarity: 'SEC', nameEn: 'Monkey.D.Luffy', nameEs: '' },
    });
  });

  it('asks for the collector number and a rarity the franchise prints', () => {
    const result = validatePrinting('pokemon', { setCode: '', collectorNumber: '  ', rarity: 'SEC', nameEn: '', nameEs: '' });
    expect(result).toEqual({
      ok: false,
      formError: 'Revisa los campos marcados.',
      fieldErrors: { collectorNumber: SINGLE_MESSAGES.collectorNumber, rarity: SINGLE_MESSAGES.rarity },
    });
  });

  it('refuses a franchise it does not know', () => {
    expect(validatePrinting('magic', { collectorNumber: '1', rarity: 'rare' }).ok).toBe(false);
  });
});

describe('an offer', () => {
  it('a raw offer: condition, language and finish of the franchise, the typed prices as Centavos and the stock', () => {
    const form = { ...emptyOfferForm('one-piece'), condition: 'LP', language: 'en', finish: 'normal', price: '35.50', originalPrice: '40', stock: '4' };
    expect(validateOffer('one-piece', form, [])).toEqual({
      ok: true,
      data: { kind: 'raw', condition: 'LP', language: 'en', finish: 'normal', priceCentavos: 3550, originalPriceCentavos: 4000, stock: 4 },
    });
  });

  it('refuses a second raw offer of the same condition, language and finish, with the message at the top', () => {
    const form = { ...emptyOfferForm('one-piece'), condition: 'LP', language: 'en', finish: 'normal', price: '30' };
    const result = validateOffer('one-piece', form, [offer()]);
    expect(result).toEqual({
      ok: false,
      formError: 'Ya existe una oferta con esa condición, idioma y acabado.',
      fieldErrors: { condition: 'Ya existe una oferta con esa condición, idioma y acabado.' },
    });
    // Another finish of the same card is another offer; a slab of the same kind is not a duplicate.
    expect(validateOffer('one-piece', { ...form, finish: 'parallel' }, [offer()]).ok).toBe(true);
  });

  it('asks for a price above 0, an original price above the price and a whole stock', () => {
    const form = { ...emptyOfferForm('pokemon'), price: '0', originalPrice: '0', stock: '-1' };
    const result = validateOffer('pokemon', form, []);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors).toEqual({ price: SINGLE_MESSAGES.price, originalPrice: SINGLE_MESSAGES.originalPrice, stock: SINGLE_MESSAGES.stock });
    const below = validateOffer('pokemon', { ...form, price: '100', originalPrice: '99.99', stock: '2' }, []);
    expect(below.ok ? {} : below.fieldErrors).toEqual({ originalPrice: SINGLE_MESSAGES.originalPrice });
    const threeDecimals = validateOffer('pokemon', { ...form, price: '1.999', originalPrice: '', stock: '1' }, []);
    expect(threeDecimals.ok ? {} : threeDecimals.fieldErrors).toEqual({ price: SINGLE_MESSAGES.price });
  });

  it('refuses a language or finish the franchise does not print', () => {
    const result = validateOffer('one-piece', { ...emptyOfferForm('one-piece'), language: 'es', finish: 'holo', price: '10' }, []);
    expect(result.ok ? {} : result.fieldErrors).toEqual({ language: SINGLE_MESSAGES.language, finish: SINGLE_MESSAGES.finish });
  });

  it('a slab: company, a grade in half points and a certificate on sale once', () => {
    const form = {
      ...emptyOfferForm('one-piece', 'slab'),
      gradingCompany: 'BGS',
      grade: '9.5',
      certificateNumber: ' 0012345678 ',
      language: 'ja',
      finish: 'manga',
      price: '9000',
      images: ['products/bgs.webp'],
    };
    expect(validateOffer('one-piece', form, [slab])).toEqual({
      ok: true,
      data: {
        kind: 'slab',
        gradingCompany: 'BGS',
        grade: 9.5,
        certificateNumber: '0012345678',
        language: 'ja',
        finish: 'manga',
        priceCentavos: 900000,
        originalPriceCentavos: null,
        stock: 1,
        images: ['products/bgs.webp'],
      },
    });
    const twice = validateOffer('one-piece', { ...form, certificateNumber: '18901250' }, [slab]);
    expect(twice).toEqual({
      ok: false,
      formError: SINGLE_MESSAGES.duplicateCertificate,
      fieldErrors: { certificateNumber: 'Ya existe una oferta con ese número de certificado.' },
    });
    const bad = validateOffer('one-piece', { ...form, gradingCompany: 'SGC', grade: '9.3', certificateNumber: '' }, []);
    expect(bad.ok ? {} : bad.fieldErrors).toEqual({
      gradingCompany: SINGLE_MESSAGES.company,
      grade: SINGLE_MESSAGES.grade,
      certificateNumber: SINGLE_MESSAGES.certificate,
    });
  });

  it('reads grades from 1 to 10 in steps of 0.5', () => {
    expect(['1', '9.5', '10', '7,5'].map(parseGrade)).toEqual([1, 9.5, 10, 7.5]);
    expect(['0.5', '10.5', '9.3', '', 'diez'].map(parseGrade)).toEqual([null, null, null, null, null]);
  });

  it('fills the form of an offer on sale with its prices in pesos', () => {
    expect(offerFormOf(offer({ priceCentavos: toCentavos(3849.5), originalPriceCentavos: toCentavos(4000) }))).toMatchObject({
      kind: 'raw',
      condition: 'LP',
      price: '3849.50',
      originalPrice: '4000',
      stock: '3',
    });
    expect(offerFormOf(slab)).toMatchObject({ kind: 'slab', gradingCompany: 'PSA', grade: '10', certificateNumber: '18901250' });
  });
});

describe('saving an edited offer', () => {
  const raw = { kind: 'raw', condition: 'LP', language: 'en', finish: 'normal', priceCentavos: centavos(2900), originalPriceCentavos: null } as const;

  it('writes nothing when the stock moved since the grid read it, and says how many there are now', async () => {
    fake = fakeSupabase({ 'rpc:admin_set_offer_stock': [{ data: { saved: false, stock: 2 }, error: null }] });
    const outcome = await saveOfferEdit('op-nami', offer(), { ...raw, priceCentavos: centavos(3100), stock: 8 }, 3);
    expect(outcome).toEqual({
      ok: false,
      message: 'El inventario cambió mientras editabas: ahora hay 2. Revisa y guarda de nuevo.',
      stockChanged: { stock: 2 },
    });
    expect(fake.calls.map((c) => c.table)).toEqual(['rpc:admin_set_offer_stock']);
    expect(fake.calls[0]!.steps[0]!.args[0]).toEqual({ p_offer_id: 'o-lp-en', p_stock_read: 3, p_stock: 8 });
    expect(requestRebuild).not.toHaveBeenCalled();
  });

  it('a stock-only change is saved through the compare and set and rebuilds nothing', async () => {
    fake = fakeSupabase({ 'rpc:admin_set_offer_stock': [{ data: { saved: true, stock: 8 }, error: null }] });
    const outcome = await saveOfferEdit('op-nami', offer(), { ...raw, stock: 8 }, 3);
    expect(outcome).toMatchObject({ ok: true, message: SINGLE_MESSAGES.offerStockSaved, value: { id: 'o-lp-en', stock: 8 } });
    expect(fake.calls.map((c) => c.table)).toEqual(['rpc:admin_set_offer_stock']);
    expect(requestRebuild).not.toHaveBeenCalled();
  });

  it('a price change leaves the stock alone, writes the other columns and rebuilds the product', async () => {
    const row = { id: 'o-lp-en', product_id: 'op-nami', condition: 'LP', language: 'en', finish: 'normal', price: 31, original_price: null, stock: 3 };
    fake = fakeSupabase({
      card_offers: [{ data: { ...row, grading_company: null, grade: null, certificate_number: null, images: [], position: 0 }, error: null }],
    });
    const outcome = await saveOfferEdit('op-nami', offer(), { ...raw, priceCentavos: centavos(3100), stock: 3 }, 3);
    expect(outcome).toMatchObject({ ok: true, message: SINGLE_MESSAGES.offerSaved, value: { priceCentavos: 3100, stock: 3 } });
    expect(fake.calls.map((c) => c.table)).toEqual(['card_offers']);
    const update = fake.calls[0]!.steps.find((s) => s.method === 'update')!;
    expect(update.args[0]).not.toHaveProperty('stock');
    expect(update.args[0]).toMatchObject({ price: 31, condition: 'LP', grading_company: null, certificate_number: null });
    expect(requestRebuild).toHaveBeenCalledWith({ productId: 'op-nami' });
  });

  it('names a duplicate the database refused', async () => {
    fake = fakeSupabase({
      card_offers: [{ data: null, error: { code: '23505', message: 'duplicate key value violates unique constraint "card_offers_raw_unique_idx"' } }],
    });
    const outcome = await saveOfferEdit('op-nami', offer(), { ...raw, finish: 'parallel', stock: 3 }, 3);
    expect(outcome).toEqual({ ok: false, message: 'Ya existe una oferta con esa condición, idioma y acabado.' });
  });
});
