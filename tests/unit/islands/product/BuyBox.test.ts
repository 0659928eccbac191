import { createElement, createRef } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { centavos } from '~/domain/money.ts';
import { BuyBox } from '~/islands/product/BuyBox.tsx';

vi.mock('astro:env/client', () => ({ PUBLIC_SUPABASE_URL: undefined, PUBLIC_SUPABASE_ANON_KEY: undefined }));

const { default: AddToCart } = await import('~/islands/product/AddToCart.tsx');

const field = { inputRef: createRef<HTMLInputElement>(), text: '1', quantity: 1, change: () => undefined, commit: () => undefined, type: () => undefined };

function box(overrides: Partial<Parameters<typeof BuyBox>[0]> = {}): string {
  return renderToString(
    createElement(BuyBox, {
      checking: false,
      price: { priceCentavos: centavos(89_900), originalPriceCentavos: centavos(99_900), percent: 10, preorder: true },
      stock: 3,
      soldOut: false,
      soldOutText: 'Agotado',
      field,
      onAdd: () => undefined,
      note: '',
      ...overrides,
    }),
  );
}

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

describe('the buy box shared by sealed products and single cards', () => {
  it('shows the price, the price it was, the discount, pre-order, the stock and the add button', () => {
    const html = box();
    expect(text(html)).toMatch(/Precio: \$899\.00/);
    expect(text(html)).toMatch(/Precio original: \$999\.00/);
    expect(text(html)).toContain('-10%');
    expect(html).toContain('Preventa');
    expect(html).toContain('Disponibles: 3');
    expect(html).toMatch(/<button type="button" class="btn btn-primary add-btn">Agregar al carrito<\/button>/);
    expect(html).toMatch(/^<div class="buy-box" aria-busy="false">/);
  });

  it('says it is sold out, drops pre-order and disables the add button and the quantity', () => {
    const html = box({ stock: 0, soldOut: true, soldOutText: 'Agotado por ahora' });
    expect(html).toContain('<p class="stock stock-out" role="status">Agotado por ahora</p>');
    expect(html).not.toContain('Preventa');
    expect(html).toMatch(/<button type="button" class="btn btn-primary add-btn" disabled="">Agregar al carrito/);
    expect(html).toMatch(/<input[^>]*aria-label="Cantidad"[^>]*disabled=""/);
  });

  it('puts its heading before the price and its own part between the stock and the quantity', () => {
    const html = box({
      className: 'offer-box',
      heading: createElement('p', null, 'NM · Inglés'),
      children: createElement('fieldset', null, 'ofertas'),
      note: 'Máximo disponible',
    });
    expect(html).toMatch(/^<div class="buy-box offer-box"/);
    expect(html.indexOf('NM · Inglés')).toBeLessThan(html.indexOf('Precio: '));
    expect(html.indexOf('Disponibles: 3')).toBeLessThan(html.indexOf('ofertas'));
    expect(html.indexOf('ofertas')).toBeLessThan(html.indexOf('Agregar al carrito'));
    expect(html).toContain('<p class="field-error" role="status">Máximo disponible</p>');
  });

  it('is the buy box of a sealed product, whose stock may be uncounted', () => {
    const html = renderToString(
      createElement(AddToCart, {
        product: {
          id: 'etb',
          name: 'Elite Trainer Box',
          priceCentavos: centavos(129_900),
          originalPriceCentavos: null,
          preorder: false,
          stock: null,
          image: '',
          images: [],
        },
      }),
    );
    expect(html).toMatch(/^<div class="buy-box" aria-busy="false">/);
    expect(html).toContain('Disponible');
    expect(html).not.toContain('Disponibles');
    expect(text(html)).toMatch(/Precio: \$1,299\.00/);
  });
});
