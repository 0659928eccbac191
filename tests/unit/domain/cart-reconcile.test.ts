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
