import { describe, expect, it } from 'vitest';
import { centavos } from '~/domain/money.ts';
import type { SingleOffer } from '~/domain/singles.ts';
import { hrefWithOffer, liveOffersDiffer, offerByKey, offerKeyFromSearch, offersSignature, parseLiveOffers, withLiveOffers } from '~/domain/live-offers.ts';

function offer(partial: Partial<SingleOffer> & { id: string }): SingleOffer {
  return {
    condition: 'NM',
    language: 'en',
    finish: 'parallel',
    priceCentavos: centavos(100_000),
    originalPriceCentavos: null,
    stock: 2,
    gradingCompany: null,
    grade: null,
    certificateNumber: null,
    images: [],
    position: 0,
    ...partial,
  };
}

const NM = offer({ id: 'o-nm' });
const LP = offer({ id: 'o-lp', condition: 'LP', priceCentavos: centavos(80_000), stock: 1 });
const MP_JA = offer({ id: 'o-mp', condition: 'MP', language: 'ja', priceCentavos: centavos(50_000), stock: 0 });

describe('live offers', () => {
  it('reads card_offers rows (numeric prices as strings too) and skips what is not an offer', () => {
    const map = parseLiveOffers([
      { id: 'o-nm', price: '1000.50', original_price: null, stock: 3 },
      { id: 'o-lp', price: 800, original_price: '900', stock: -1 },
      { id: 'o-x', price: 'gratis', stock: 1 },
      { price: 10, stock: 1 },
      null,
    ]);
    expect([...map.values()]).toEqual([
      { id: 'o-nm', priceCentavos: 100_050, originalPriceCentavos: null, stock: 3 },
      { id: 'o-lp', priceCentavos: 80_000, originalPriceCentavos: 90_000, stock: 0 },
    ]);
    expect(parseLiveOffers({ message: 'error' }).size).toBe(0);
  });

  it('shows the live price and stock, and an offer the database no longer has as sold out', () => {
    const live = parseLiveOffers([{ id: 'o-nm', price: 950, original_price: 1000, stock: 7 }]);
    const [nm, lp] = withLiveOffers([NM, LP], live);
    expect(nm).toMatchObject({ id: 'o-nm', priceCentavos: 95_000, originalPriceCentavos: 100_000, stock: 7 });
    expect(lp).toMatchObject({ id: 'o-lp', priceCentavos: 80_000, stock: 0 });
    // Not read yet (or offline): the page's own values stand.
    expect(withLiveOffers([NM, LP], null)).toEqual([NM, LP]);
  });

  it('tells when the live offers differ from the page: price, stock, an offer added or removed', () => {
    const shown = offersSignature([NM, LP, MP_JA]);
    expect(shown).toBe('o-nm:2:100000;o-lp:1:80000;o-mp:0:50000');
    const same = parseLiveOffers([
      { id: 'o-nm', price: 1000, stock: 2 },
      { id: 'o-lp', price: 800, stock: 1 },
      { id: 'o-mp', price: 500, stock: 0 },
    ]);
    expect(liveOffersDiffer(shown, same)).toBe(false);
    expect(
      liveOffersDiffer(
        shown,
        parseLiveOffers([...same.values()].map((o) => ({ id: o.id, price: o.priceCentavos / 100, stock: o.id === 'o-lp' ? 0 : o.stock }))),
      ),
    ).toBe(true);
    expect(
      liveOffersDiffer(
        shown,
        parseLiveOffers([
          { id: 'o-nm', price: 1000, stock: 2 },
          { id: 'o-lp', price: 700, stock: 1 },
          { id: 'o-mp', price: 500, stock: 0 },
        ]),
      ),
    ).toBe(true);
    expect(
      liveOffersDiffer(
        shown,
        parseLiveOffers([
          { id: 'o-nm', price: 1000, stock: 2 },
          { id: 'o-lp', price: 800, stock: 1 },
        ]),
      ),
    ).toBe(true);
    expect(liveOffersDiffer('', parseLiveOffers([]))).toBe(false);
    expect(liveOffersDiffer('', same)).toBe(true);
  });
});

describe('the offer in the address', () => {
  it('reads ?oferta= in lower case, and nothing when absent or empty', () => {
    expect(offerKeyFromSearch('?oferta=LP-EN-Parallel&x=1')).toBe('lp-en-parallel');
    expect(offerKeyFromSearch('?oferta=')).toBeNull();
    expect(offerKeyFromSearch('')).toBeNull();
  });

  it('writes ?oferta= and keeps the other parameters and the fragment', () => {
    expect(hrefWithOffer('https://tienda.mx/product/op-x?utm=a#fotos', 'lp-en-parallel')).toBe(
      'https://tienda.mx/product/op-x?utm=a&oferta=lp-en-parallel#fotos',
    );
    expect(hrefWithOffer('https://tienda.mx/product/op-x?oferta=nm-en-parallel', 'psa-123')).toBe('https://tienda.mx/product/op-x?oferta=psa-123');
  });

  it('finds an offer by its key, a slab by its certificate', () => {
    const slab = offer({ id: 'o-psa', condition: null, gradingCompany: 'PSA', grade: 10, certificateNumber: '12345678' });
    expect(offerByKey([NM, LP, slab], 'lp-en-parallel')).toBe(LP);
    expect(offerByKey([NM, LP, slab], 'psa-12345678')).toBe(slab);
    expect(offerByKey([NM, LP], 'hp-es-normal')).toBeUndefined();
    expect(offerByKey([NM, LP], null)).toBeUndefined();
  });
});
