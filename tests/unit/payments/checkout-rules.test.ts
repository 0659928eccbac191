import { describe, expect, it, vi } from 'vitest';

// The browser client reads its settings from Astro's virtual env module, which only exists in a build.
vi.mock('astro:env/client', () => ({ PUBLIC_SUPABASE_URL: undefined, PUBLIC_SUPABASE_ANON_KEY: undefined }));

const { CHECKOUT_MESSAGES, parseCreateOrderError } = await import('../../../src/data/checkout.ts');
import { reconcileCart } from '../../../src/domain/cart-reconcile.ts';
import { formatCardNumber, parseExpiry } from '../../../src/domain/card-format.ts';
import { receiptEmail } from '../../../src/server/mail/templates/receipt.ts';
import type { CartItem } from '../../../src/stores/cart.ts';
import { toCentavos } from '../../../src/domain/money.ts';

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
    const [change] = reconcileCart([item({ priceCentavos: toCentavos(1), quantity: 8 })], [{ id: 'a', name: 'A', priceCentavos: toCentavos(599), stock: 3, available: true }]);
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

describe('card form helpers', () => {
  it('reads MM/AA and MM/AAAA', () => {
    expect(parseExpiry('04/31')).toEqual({ month: 4, year: 31 });
    expect(parseExpiry(' 4 / 2031 ')).toEqual({ month: 4, year: 2031 });
    expect(parseExpiry('0431')).toBeNull();
  });
  it('groups the number in fours', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242-42ab')).toBe('4242 42');
  });
});

describe('confirmation e-mail', () => {
  it('lists the products and the stored amounts in Spanish and escapes names', () => {
    const mail = receiptEmail({
      id: '0f8fad5b-d9cb-469f-a165-70867728950e',
      subtotal: '1357.00',
      discount: '135.70',
      shipping: '99.00',
      total: '1320.30',
      lines: [{ name: 'Caja <especial>', quantity: 2, price: '599.00' }],
      address: 'Av. Reforma 222, CDMX',
      siteUrl: 'http://shop.test/',
    });
    expect(mail.subject).toBe('Confirmación de tu pedido #28950E');
    expect(mail.text).toContain('Total pagado: $1,320.30');
    expect(mail.text).toContain('Caja <especial> × 2');
    expect(mail.html).toContain('Caja &lt;especial&gt;');
    expect(mail.html).toContain('http://shop.test/checkout/0f8fad5b-d9cb-469f-a165-70867728950e');
  });
});

describe('create_order refusals', () => {
  it('puts a product refusal next to its line with the database’s Spanish message', () => {
    const parsed = parseCreateOrderError({ message: 'Stock insuficiente para «Caja» (disponible: 2).', details: 'out_of_stock:pk-caja', hint: '2' });
    expect(parsed.line).toEqual({ productId: 'pk-caja', kind: 'out_of_stock', message: 'Stock insuficiente para «Caja» (disponible: 2).', remaining: 2 });
    expect(parseCreateOrderError({ message: 'Solo puedes comprar 3…', details: 'limit_exceeded:pk-x', hint: '0' }).line?.kind).toBe('limit_exceeded');
  });

  it('maps the other refusals to the specification’s messages', () => {
    expect(parseCreateOrderError({ message: 'x', details: 'invalid_quantity' })).toEqual({ message: CHECKOUT_MESSAGES.saveItems, line: null });
    expect(parseCreateOrderError({ message: 'x', details: 'not_authenticated' }).message).toBe('Debes iniciar sesión para finalizar tu compra.');
    expect(parseCreateOrderError({ message: 'boom', details: null }).message).toBe('Error al crear el pedido.');
  });
});
