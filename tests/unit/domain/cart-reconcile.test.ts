import { describe, expect, it } from 'vitest';
import { reconcileCart } from '~/domain/cart-reconcile.ts';
import { toCentavos } from '~/domain/money.ts';
import type { CartItem } from '~/stores/cart.ts';

const item = (over: Partial<CartItem>): CartItem => ({ id: 'a', name: 'A', priceCentavos: toCentavos(100), quantity: 2, stock: 10, image: '', ...over });

describe('cart reconciliation with live products', () => {
  it('removes missing, unavailable and sold-out products with a notice', () => {
    const changes = reconcileCart(
      [item({ id: 'gone', name: 'Gone' }), item({ id: 'off', name: 'Off' }), item({ id: 'empty', name: 'Empty' })],
      [
        { id: 'off', name: 'Off', priceCentavos: toCentavos(100), stock: 5, available: false },
        { id: 'empty', name: 'Empty', priceCentavos: toCentavos(100), stock: 0, available: true },
      ],
    );
    expect(changes.map((c) => c.kind)).toEqual(['remove', 'remove', 'remove']);
    expect(changes[0]).toMatchObject({ notice: '«Gone» ya no está disponible y se quitó de tu carrito.' });
    expect(changes[2]).toMatchObject({ notice: '«Empty» se agotó y se quitó de tu carrito.' });
  });

  it('refreshes a changed price and clamps the quantity to the stock', () => {
    const [change] = reconcileCart(
      [item({ priceCentavos: toCentavos(1), quantity: 8 })],
      [{ id: 'a', name: 'A', priceCentavos: toCentavos(599), stock: 3, available: true }],
    );
    expect(change).toMatchObject({ kind: 'update', priceCentavos: toCentavos(599), stock: 3, quantity: 3 });
    expect(change!.kind === 'update' && change.notices).toEqual([
      'El precio de «A» cambió de $1.00 a $599.00.',
      'Solo quedan 3 unidad(es) de «A»; ajustamos la cantidad.',
    ]);
  });

  it('changes nothing when the cart already agrees', () => {
    expect(reconcileCart([item({})], [{ id: 'a', name: 'A', priceCentavos: toCentavos(100), stock: 10, available: true }])).toEqual([]);
  });
});

describe('cart reconciliation of single cards, offer by offer', () => {
  const LUFFY = 'op05-119';
  const LP = '6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab';
  const NM = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
  const product = { id: LUFFY, name: 'Monkey.D.Luffy (OP05-119)', priceCentavos: toCentavos(0), stock: 0, available: true };
  const lp = item({ id: LUFFY, name: product.name, offerId: LP, offerLabel: 'LP · Inglés · Parallel', priceCentavos: toCentavos(850), stock: 3, quantity: 1 });
  const nm = item({
    id: LUFFY,
    name: product.name,
    offerId: NM,
    offerLabel: 'NM · Japonés · Parallel',
    priceCentavos: toCentavos(1200),
    stock: 2,
    quantity: 1,
  });

  it("prices and stocks a line by its offer, not by its product's own price and stock", () => {
    const changes = reconcileCart(
      [lp, nm],
      [product],
      [
        { id: LP, productId: LUFFY, priceCentavos: toCentavos(850), stock: 3 },
        { id: NM, productId: LUFFY, priceCentavos: toCentavos(1200), stock: 2 },
      ],
    );
    expect(changes).toEqual([]);
  });

  it('refreshes the price and clamps the quantity of each offer on its own, naming the offer', () => {
    const changes = reconcileCart(
      [{ ...lp, quantity: 5 }, nm],
      [product],
      [
        { id: LP, productId: LUFFY, priceCentavos: toCentavos(900), stock: 2 },
        { id: NM, productId: LUFFY, priceCentavos: toCentavos(1200), stock: 2 },
      ],
    );
    expect(changes).toEqual([
      {
        kind: 'update',
        id: LUFFY,
        offerId: LP,
        priceCentavos: toCentavos(900),
        stock: 2,
        name: product.name,
        quantity: 2,
        notices: [
          'El precio de «Monkey.D.Luffy (OP05-119), LP · Inglés · Parallel» cambió de $850.00 a $900.00.',
          'Solo quedan 2 unidad(es) de «Monkey.D.Luffy (OP05-119), LP · Inglés · Parallel»; ajustamos la cantidad.',
        ],
      },
    ]);
  });

  it('removes a gone offer, a sold-out offer and an offer of another product, keeping the other lines', () => {
    const changes = reconcileCart(
      [lp, nm, item({ id: 'other', name: 'Zoro', offerId: NM, offerLabel: 'NM · Japonés · Parallel' })],
      [product, { id: 'other', name: 'Zoro', priceCentavos: toCentavos(10), stock: 0, available: true }],
      [{ id: NM, productId: LUFFY, priceCentavos: toCentavos(1200), stock: 0 }],
    );
    expect(changes).toEqual([
      { kind: 'remove', id: LUFFY, offerId: LP, notice: '«Monkey.D.Luffy (OP05-119), LP · Inglés · Parallel» ya no está a la venta y se quitó de tu carrito.' },
      { kind: 'remove', id: LUFFY, offerId: NM, notice: '«Monkey.D.Luffy (OP05-119), NM · Japonés · Parallel» se agotó y se quitó de tu carrito.' },
      { kind: 'remove', id: 'other', offerId: NM, notice: '«Zoro, NM · Japonés · Parallel» ya no está a la venta y se quitó de tu carrito.' },
    ]);
  });

  it('removes every offer line of a product that is no longer on sale', () => {
    const changes = reconcileCart([lp], [{ ...product, available: false }], [{ id: LP, productId: LUFFY, priceCentavos: toCentavos(850), stock: 3 }]);
    expect(changes).toEqual([
      { kind: 'remove', id: LUFFY, offerId: LP, notice: '«Monkey.D.Luffy (OP05-119), LP · Inglés · Parallel» ya no está disponible y se quitó de tu carrito.' },
    ]);
  });

  it('matches offer ids whatever their letter case', () => {
    expect(reconcileCart([{ ...lp, offerId: LP.toUpperCase() }], [product], [{ id: LP, productId: LUFFY, priceCentavos: toCentavos(850), stock: 3 }])).toEqual(
      [],
    );
  });

  it('checks a line without an offer against its product, as before offers existed', () => {
    const [change] = reconcileCart(
      [item({ id: LUFFY, name: product.name })],
      [product],
      [{ id: LP, productId: LUFFY, priceCentavos: toCentavos(850), stock: 3 }],
    );
    expect(change).toMatchObject({ kind: 'remove', id: LUFFY, notice: '«Monkey.D.Luffy (OP05-119)» se agotó y se quitó de tu carrito.' });
    expect(change).not.toHaveProperty('offerId');
  });

  it('removes a line without an offer of a card now sold by offer, saying how to buy it, even with stock left', () => {
    const [change] = reconcileCart([item({ id: LUFFY, name: product.name })], [{ ...product, stock: 5, priceCentavos: toCentavos(850), soldByOffer: true }]);
    expect(change).toEqual({
      kind: 'remove',
      id: LUFFY,
      notice: '«Monkey.D.Luffy (OP05-119)» ahora se vende por condición, idioma y acabado: elige uno en su página.',
    });
    // Its offer lines are checked by their offers as usual.
    expect(reconcileCart([lp], [{ ...product, soldByOffer: true }], [{ id: LP, productId: LUFFY, priceCentavos: toCentavos(850), stock: 3 }])).toEqual([]);
  });
});
