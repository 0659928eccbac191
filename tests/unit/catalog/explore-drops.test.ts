/**
 * /explore's cards and timed drops: the catalogue carries a drop's instant (from the build and,
 * between rebuilds, from the products' changes), and a card the server rendered held is turned on
 * by the drops' script even when the page is first shown after the instant (a cached answer).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import type { Database } from '~/data/database.types.ts';
import type { Centavos } from '~/domain/money.ts';
import { parseExploreData, type ExploreProduct } from '~/domain/explore.ts';
import { readChanges, type ChangedRow } from '~/server/explore/live-changes.ts';
import { updateDrops } from '~/scripts/drops.ts';

const AT = '2026-12-11T16:00:00.000Z';
const DROP = Date.parse(AT);
const signal = new AbortController().signal;
// Sealed products' changes read no offers: the client is never asked anything.
const client = {} as SupabaseClient<Database>;

function sealed(fields: Partial<ExploreProduct> & { id: string }): ExploreProduct {
  return {
    name: fields.id,
    priceCentavos: 10_000 as Centavos,
    originalPriceCentavos: null,
    stock: 5,
    preorder: false,
    sale: false,
    franchiseId: null,
    expansionId: null,
    typeId: null,
    image: '',
    released: '',
    ...fields,
  };
}

describe("/explore's catalogue knows each drop's instant", () => {
  it('reads it from the JSON the build wrote, and nothing for a product on sale now', () => {
    const data = parseExploreData({
      franchises: [],
      expansions: [],
      types: [],
      products: [
        { id: 'drop', name: 'Caja', priceCentavos: 100, originalPriceCentavos: null, stock: 5, onSaleAt: AT },
        { id: 'now', name: 'Sobre', priceCentavos: 100, originalPriceCentavos: null, stock: 5 },
      ],
    });
    expect(data?.products.find((p) => p.id === 'drop')?.onSaleAt).toBe(AT);
    expect(data?.products.find((p) => p.id === 'now')).not.toHaveProperty('onSaleAt');
  });

  it('follows a drop scheduled, moved or removed between rebuilds from the products changed', async () => {
    const byId = new Map([
      ['new-drop', sealed({ id: 'new-drop' })],
      ['moved', sealed({ id: 'moved', onSaleAt: AT })],
      ['removed', sealed({ id: 'removed', onSaleAt: AT })],
    ]);
    const later = '2026-12-12T02:30:00+00:00';
    const rows: ChangedRow[] = [
      { id: 'new-drop', stock: 5, on_sale_at: AT, product_id: '', updated_at: AT },
      { id: 'moved', stock: 5, on_sale_at: later, product_id: '', updated_at: AT },
      { id: 'removed', stock: 4, on_sale_at: null, product_id: '', updated_at: AT },
      { id: 'unlisted', stock: 1, on_sale_at: AT, product_id: '', updated_at: AT },
    ];
    const changes = await readChanges(client, 'products', rows, byId, signal);
    expect(changes.get('new-drop')).toEqual({ stock: 5, onSaleAt: AT });
    expect(changes.get('moved')).toEqual({ stock: 5, onSaleAt: '2026-12-12T02:30:00.000Z' });
    expect(changes.get('removed')).toEqual({ stock: 4, onSaleAt: undefined });
    expect(changes.has('unlisted')).toBe(false);
  });
});

class FakeButton {
  dataset: Record<string, string | undefined> = {};
  textContent = '';
  disabled = false;
  attributes = new Map<string, string>();
  getAttribute(name: string) {
    return this.attributes.get(name) ?? null;
  }
  setAttribute(name: string, value: string) {
    this.attributes.set(name, value);
  }
  closest() {
    return null;
  }
}

/** A card's button as ProductCard renders it for a drop still ahead when the answer was made. */
function heldCard(): FakeButton {
  const button = new FakeButton();
  button.dataset = {
    dropAt: AT,
    dropOpenText: 'Agregar',
    dropOpenLabel: 'Agregar Caja al carrito',
    dropHeld: 'true',
    dropHeldText: 'Próximamente',
    dropHeldLabel: 'Caja: A la venta el viernes 11 de diciembre a las 10:00',
  };
  button.textContent = 'Próximamente';
  button.disabled = true;
  button.setAttribute('aria-label', 'Caja: A la venta el viernes 11 de diciembre a las 10:00');
  return button;
}

function page(...buttons: FakeButton[]): ParentNode {
  return { querySelectorAll: (selector: string) => (selector.startsWith('button') ? buttons : []) } as unknown as ParentNode;
}

describe('a card rendered held for a drop', () => {
  it('turns on when the page is first shown after the instant', () => {
    const card = heldCard();
    expect(updateDrops(page(card), DROP + 60_000)).toBe(false);
    expect(card.disabled).toBe(false);
    expect(card.textContent).toBe('Agregar');
    expect(card.getAttribute('aria-label')).toBe('Agregar Caja al carrito');
  });

  it('stays held with the text it was made with until the instant, whatever another script wrote', () => {
    const card = heldCard();
    card.disabled = false;
    card.textContent = 'Agregar';
    expect(updateDrops(page(card), DROP - 1_000)).toBe(true);
    expect(card.disabled).toBe(true);
    expect(card.textContent).toBe('Próximamente');
    expect(updateDrops(page(card), DROP)).toBe(false);
    expect(card.disabled).toBe(false);
  });
});
