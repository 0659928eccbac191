import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { centavos } from '~/domain/money.ts';
import { sortOffers, type SingleOffer } from '~/domain/singles.ts';

vi.mock('astro:env/client', () => ({ PUBLIC_SUPABASE_URL: undefined, PUBLIC_SUPABASE_ANON_KEY: undefined }));

const { default: OfferPicker } = await import('~/islands/product/OfferPicker.tsx');
const { $favoriteIds } = await import('~/stores/favorite-ids.ts');

function offer(partial: Partial<SingleOffer> & { id: string }): SingleOffer {
  return {
    condition: 'NM',
    language: 'en',
    finish: 'parallel',
    priceCentavos: centavos(474_900),
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

const OFFERS = sortOffers([
  offer({ id: 'nm-en', position: 0 }),
  offer({ id: 'nm-ja', language: 'ja', priceCentavos: centavos(379_900), stock: 1, position: 1 }),
  offer({ id: 'lp-en', condition: 'LP', priceCentavos: centavos(384_900), stock: 3, position: 2 }),
  offer({ id: 'mp-ja', condition: 'MP', language: 'ja', finish: 'normal', priceCentavos: centavos(96_900), stock: 0, position: 3 }),
  offer({
    id: 'psa',
    condition: null,
    language: 'ja',
    priceCentavos: centavos(1_129_000),
    stock: 1,
    gradingCompany: 'PSA',
    grade: 10,
    certificateNumber: '18901250',
    images: ['/media/products/psa.svg'],
    position: 4,
  }),
]);

/** The prebuilt HTML of the buy box, as the static page ships it before hydration. */
function prebuilt(offers: SingleOffer[] = OFFERS): string {
  return renderToString(createElement(OfferPicker, { product: { id: 'op-luffy', name: 'Monkey.D.Luffy (OP05-119)', image: '', images: [] }, offers }));
}

/** The radio of the offer whose key is `key`, as rendered. */
function radio(html: string, key: string): string {
  return html.match(new RegExp(`<input[^>]*value="${key}"[^>]*>`))?.[0] ?? '';
}

describe('the prebuilt buy box of a single card', () => {
  it('lists every offer with its price and stock and chooses the cheapest in stock', () => {
    const html = prebuilt();
    for (const key of ['nm-en-parallel', 'nm-ja-parallel', 'lp-en-parallel', 'mp-ja-normal', 'psa-18901250']) expect(radio(html, key)).not.toBe('');
    expect(radio(html, 'nm-ja-parallel')).toContain('checked');
    expect(radio(html, 'lp-en-parallel')).not.toContain('checked');
    expect(html).toContain('$3,799.00');
    expect(html).toContain('Disponibles: 3');
    expect(html).toContain('href="/guia-de-condiciones"');
  });

  it('shows a sold-out offer disabled, with Agotado', () => {
    const html = prebuilt();
    expect(radio(html, 'mp-ja-normal')).toContain('disabled');
    expect(radio(html, 'nm-ja-parallel')).not.toContain('disabled');
    expect(html).toMatch(/MP · Japonés · Normal[\s\S]*?Agotado/);
  });

  it('lists slabs apart with their certificate, a link to verify it and their photos', () => {
    const html = prebuilt();
    const slabs = html.slice(html.indexOf('Cartas graduadas'));
    expect(html.indexOf('Cartas graduadas')).toBeGreaterThan(html.indexOf('lp-en-parallel'));
    expect(slabs).toContain('PSA 10 · Japonés');
    expect(slabs).toContain('Certificado 18901250');
    expect(slabs).toMatch(/<a href="https:\/\/www\.psacard\.com\/cert\/18901250" target="_blank" rel="noopener">Verificar en (<!-- -->)?PSA/);
    expect(slabs).toContain('src="/media/products/psa.svg"');
  });

  it('opens on the first offer, sold out, when none is left, and cannot add it', () => {
    const html = prebuilt(OFFERS.map((o) => ({ ...o, stock: 0 })));
    expect(radio(html, 'nm-en-parallel')).toContain('checked');
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Agregar al carrito<\/button>/);
  });

  it("gives each offer a heart for that copy, which the page's delegated script handles, and shows the kept ones pressed", () => {
    /** The heart of the offer whose id is `id`, as rendered. */
    const heart = (html: string, id: string) => html.match(new RegExp(`<button[^>]*data-favorite-offer="${id}"[^>]*>`))?.[0] ?? '';
    $favoriteIds.set(new Set(['op-luffy#nm-ja']));
    try {
      const html = prebuilt();
      for (const o of OFFERS) expect(heart(html, o.id)).toContain('data-favorite-product="op-luffy"');
      expect(heart(html, 'nm-ja')).toContain('aria-pressed="true"');
      expect(heart(html, 'nm-ja')).toContain('aria-label="Quitar Monkey.D.Luffy (OP05-119) (NM · Japonés · Parallel) de favoritos"');
      expect(heart(html, 'lp-en')).toContain('aria-pressed="false"');
      expect(heart(html, 'lp-en')).toContain('aria-label="Guardar Monkey.D.Luffy (OP05-119) (LP · Inglés · Parallel) en favoritos"');
    } finally {
      $favoriteIds.set(new Set());
    }
  });
});
