/**
 * The prebuilt buy boxes of a timed drop: the add button ships disabled and marked with the drop's
 * instant (src/scripts/drops.ts turns it on at that instant), for a sealed product and for a single
 * card's offers; once the drop has come, or without one, it ships enabled and unmarked.
 */
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { centavos } from '~/domain/money.ts';
import type { SingleOffer } from '~/domain/singles.ts';

vi.mock('astro:env/client', () => ({ PUBLIC_SUPABASE_URL: undefined, PUBLIC_SUPABASE_ANON_KEY: undefined }));

const { default: AddToCart } = await import('~/islands/product/AddToCart.tsx');
const { default: OfferPicker } = await import('~/islands/product/OfferPicker.tsx');

const AHEAD = new Date(Date.now() + 3_600_000).toISOString();
const PAST = new Date(Date.now() - 60_000).toISOString();

const OFFER: SingleOffer = {
  id: 'nm-es',
  condition: 'NM',
  language: 'es',
  finish: 'holo',
  priceCentavos: centavos(90_000),
  originalPriceCentavos: null,
  stock: 3,
  gradingCompany: null,
  grade: null,
  certificateNumber: null,
  images: [],
  position: 0,
};

function sealed(onSaleAt: string | null): string {
  const product = {
    id: 'pk-drop',
    name: 'Caja Prismatic',
    priceCentavos: centavos(150_000),
    originalPriceCentavos: null,
    preorder: false,
    stock: 5,
    image: '',
    images: [],
    onSaleAt,
  };
  return renderToString(createElement(AddToCart, { product }));
}

function single(onSaleAt: string | null): string {
  return renderToString(createElement(OfferPicker, { product: { id: 'pk-umbreon', name: 'Umbreon ex', image: '', images: [], onSaleAt }, offers: [OFFER] }));
}

/** The add button as rendered. */
function addButton(html: string): string {
  return html.match(/<button[^>]*class="btn btn-primary add-btn"[^>]*>/)?.[0] ?? '';
}

describe('a buy box of a timed drop, as the page ships it', () => {
  it('holds the add button before the drop, marked with its instant', () => {
    for (const html of [sealed(AHEAD), single(AHEAD)]) {
      const button = addButton(html);
      expect(button).toContain('disabled=""');
      expect(button).toContain(`data-drop-at="${AHEAD}"`);
    }
  });

  it('ships it enabled once the drop has come, and without a drop', () => {
    for (const html of [sealed(PAST), single(PAST), sealed(null), single(null)]) {
      const button = addButton(html);
      expect(button).not.toBe('');
      expect(button).not.toContain('disabled');
    }
    expect(addButton(sealed(null))).not.toContain('data-drop-at');
  });
});
