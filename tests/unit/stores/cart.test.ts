import { cleanTestStorage, getTestStorage, setPersistentEngine, setTestStorageKey, useTestStorageEngine } from '@nanostores/persistent';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { toCentavos } from '~/domain/money.ts';
import { subtotalCentavos } from '~/domain/pricing.ts';

type CartModule = typeof import('~/stores/cart');

let cart: CartModule;
let unsubscribe: () => void;

const etb = {
  id: 'pk-elitetrainerbox-destined-rivals',
  name: 'Elite Trainer Box Destined Rivals',
  priceCentavos: toCentavos(1299),
  stock: 3,
  image: 'products/pk-elitetrainerbox-destined-rivals-1.svg',
  images: ['products/pk-elitetrainerbox-destined-rivals-2.svg'],
};
const pack = { id: 'pk-boosterpack-journey-together', name: 'Sobre Journey Together', priceCentavos: toCentavos(89), stock: 50, image: 'products/p.svg' };

function stored(): unknown {
  const raw = getTestStorage()['cart'];
  return raw === undefined ? undefined : JSON.parse(raw);
}

beforeAll(async () => {
  // The store reads the storage engine when it is created, so switch engines before importing it.
  useTestStorageEngine();
  cart = await import('~/stores/cart');
  // Keep the store mounted, as a page with the header badge does.
  unsubscribe = cart.$cart.listen(() => {});
});

beforeEach(() => {
  cart.clearCart();
  cleanTestStorage();
});

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(() => {
  unsubscribe();
});

describe('addToCart', () => {
  it('adds a product and persists it as JSON under "cart"', () => {
    const result = cart.addToCart(etb);
    expect(result).toEqual({ added: 1, quantity: 1, limited: false });
    expect(cart.$cart.get()).toEqual([{ ...etb, quantity: 1 }]);
    expect(stored()).toEqual([{ ...etb, quantity: 1 }]);
  });

  it('merges the same product into one line', () => {
    cart.addToCart(pack, 2);
    cart.addToCart(pack, 3);
    expect(cart.$cart.get()).toHaveLength(1);
    expect(cart.$cart.get()[0]?.quantity).toBe(5);
  });

  it('never goes over the stock and says so', () => {
    cart.addToCart(etb, 2);
    expect(cart.addToCart(etb, 5)).toEqual({ added: 1, quantity: 3, limited: true });
    expect(cart.addToCart(etb)).toEqual({ added: 0, quantity: 3, limited: true });
    expect(cart.$cart.get()[0]?.quantity).toBe(3);
  });

  it('does not add sold-out products', () => {
    expect(cart.addToCart({ ...etb, stock: 0 })).toEqual({ added: 0, quantity: 0, limited: true });
    expect(cart.$cart.get()).toEqual([]);
  });

  it('takes the latest price and stock of the product when merging', () => {
    cart.addToCart(etb, 3);
    cart.addToCart({ ...etb, priceCentavos: toCentavos(1199), stock: 2 });
    expect(cart.$cart.get()[0]).toMatchObject({ priceCentavos: toCentavos(1199), stock: 2, quantity: 2 });
  });

  it('keeps each offer of a single card on its own line, with its label and its stock', () => {
    const single = { id: 'pk-single-umbreon', name: 'Umbreon ex', priceCentavos: toCentavos(900), stock: 2, image: 'u.svg' };
    cart.addToCart({ ...single, offerId: 'o-nm', offerLabel: 'NM · Español · Holo' });
    cart.addToCart({ ...single, priceCentavos: toCentavos(700), stock: 5, offerId: 'o-lp', offerLabel: 'LP · Inglés · Normal' }, 2);
    cart.addToCart({ ...single, offerId: 'o-nm', offerLabel: 'NM · Español · Holo' }, 4);
    expect(cart.$cart.get().map((line) => [cart.lineKey(line), line.offerLabel, line.quantity])).toEqual([
      ['pk-single-umbreon#o-nm', 'NM · Español · Holo', 2],
      ['pk-single-umbreon#o-lp', 'LP · Inglés · Normal', 2],
    ]);
    cart.setQuantity('pk-single-umbreon#o-lp', 4);
    cart.removeFromCart('pk-single-umbreon#o-nm');
    expect(stored()).toEqual([{ ...single, priceCentavos: toCentavos(700), stock: 5, offerId: 'o-lp', offerLabel: 'LP · Inglés · Normal', quantity: 4 }]);
  });

  it('allows any quantity when the stock is not tracked', () => {
    cart.addToCart({ ...pack, stock: null }, 120);
    expect(cart.$cartCount.get()).toBe(120);
  });
});

describe('setQuantity, removeFromCart, clearCart', () => {
  it('clamps the quantity to 1…stock', () => {
    cart.addToCart(etb);
    cart.setQuantity(etb.id, 10);
    expect(cart.$cart.get()[0]?.quantity).toBe(3);
    cart.setQuantity(etb.id, 0);
    expect(cart.$cart.get()[0]?.quantity).toBe(1);
    cart.setQuantity(etb.id, 2);
    expect(cart.$cart.get()[0]?.quantity).toBe(2);
    cart.setQuantity('no-existe', 2);
    expect(cart.$cart.get()).toHaveLength(1);
  });

  it('refreshes a line from live data, keeping the quantity it has now within the new stock', () => {
    cart.addToCart(pack, 5);
    cart.setQuantity(pack.id, 6);
    cart.refreshCartLine(pack.id, { name: 'Sobre JT', priceCentavos: toCentavos(95), stock: 4 });
    expect(cart.$cart.get()[0]).toMatchObject({ name: 'Sobre JT', priceCentavos: toCentavos(95), stock: 4, quantity: 4 });
    cart.refreshCartLine(pack.id, { name: 'Sobre JT', priceCentavos: toCentavos(95), stock: 40 });
    expect(cart.$cart.get()[0]?.quantity).toBe(4);
    cart.refreshCartLine('no-existe', { name: 'x', priceCentavos: toCentavos(1), stock: 1 });
    expect(cart.$cart.get()).toHaveLength(1);
  });

  it('removes one line and empties the cart', () => {
    cart.addToCart(etb);
    cart.addToCart(pack);
    cart.removeFromCart(etb.id);
    expect(cart.$cart.get().map((item) => item.id)).toEqual([pack.id]);
    cart.clearCart();
    expect(cart.$cart.get()).toEqual([]);
    expect(stored()).toEqual([]);
  });
});

describe('computed values', () => {
  it('counts units and sums the subtotal in centavos', () => {
    cart.addToCart({ ...pack, priceCentavos: toCentavos(0.1) });
    cart.addToCart({ ...etb, priceCentavos: toCentavos(0.2) });
    expect(cart.$cartCount.get()).toBe(2);
    expect(subtotalCentavos(cart.$cart.get())).toBe(30);
    cart.addToCart({ ...pack, priceCentavos: toCentavos(0.1) }, 2);
    expect(cart.$cartCount.get()).toBe(4);
    expect(subtotalCentavos(cart.$cart.get())).toBe(50);
  });

  it('notifies subscribers of the count', () => {
    const counts: number[] = [];
    const stop = cart.$cartCount.subscribe((count) => counts.push(count));
    cart.addToCart(pack, 2);
    cart.setQuantity(pack.id, 4);
    stop();
    expect(counts).toEqual([0, 2, 4]);
  });
});

describe('stored values from elsewhere (other tabs, old versions)', () => {
  it('follows a valid cart written by another tab', () => {
    setTestStorageKey('cart', JSON.stringify([{ ...pack, quantity: 2 }]));
    expect(cart.$cartCount.get()).toBe(2);
  });

  it.each([
    ['not JSON', '{oops'],
    ['a foreign object', JSON.stringify({ items: [{ id: 'x' }] })],
    ['an old shape', JSON.stringify([{ productId: 'x', qty: 1 }])],
    ['a number', '42'],
  ])('turns %s into an empty cart with a warning', (_label, raw) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(() => setTestStorageKey('cart', raw)).not.toThrow();
    expect(cart.$cart.get()).toEqual([]);
    expect(warn).toHaveBeenCalled();
  });

  it('drops only invalid lines and repairs quantities', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    setTestStorageKey(
      'cart',
      JSON.stringify([
        { ...etb, quantity: 9 },
        { id: 'x', name: 'Viejo' },
        { ...etb, quantity: 1 },
      ]),
    );
    expect(cart.$cart.get()).toEqual([{ ...etb, quantity: 3 }]);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('empties the cart when another tab removes the key', () => {
    cart.addToCart(pack);
    setTestStorageKey('cart', undefined);
    expect(cart.$cart.get()).toEqual([]);
  });
});

describe('decodeCart', () => {
  it('returns an empty cart for nothing stored without warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(cart.decodeCart(null)).toEqual([]);
    expect(cart.decodeCart(undefined)).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('round-trips with encodeCart', () => {
    const items = [{ ...pack, quantity: 2 }];
    expect(cart.decodeCart(cart.encodeCart(items))).toEqual(items);
  });
});

describe('first load of a page', () => {
  // A fresh copy of the store module over a plain object, as localStorage is on a new page load.
  async function loadWith(storage: Record<string, string>): Promise<CartModule> {
    setPersistentEngine(storage, { addEventListener() {}, removeEventListener() {} });
    vi.resetModules();
    return (await import('~/stores/cart')) as CartModule;
  }

  afterEach(() => {
    useTestStorageEngine();
    vi.resetModules();
  });

  it('ignores a corrupt stored value with a warning and then saves under "cart"', async () => {
    const storage: Record<string, string> = { cart: '{"corrupto": true' };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const fresh = await loadWith(storage);
    expect(fresh.$cart.get()).toEqual([]);
    expect(warn).toHaveBeenCalled();
    fresh.addToCart(pack, 2);
    expect(JSON.parse(storage['cart'] ?? 'null')).toEqual([{ ...pack, quantity: 2 }]);
  });

  it('restores a saved cart', async () => {
    const fresh = await loadWith({ cart: JSON.stringify([{ ...etb, quantity: 2 }]) });
    expect(fresh.$cartCount.get()).toBe(2);
    expect(subtotalCentavos(fresh.$cart.get())).toBe(259800);
  });

  it('reads a cart saved with peso prices (before prices were centavos) and saves it back in centavos', async () => {
    const { priceCentavos: _etbPrice, ...etbLine } = etb;
    const { priceCentavos: _packPrice, ...packLine } = pack;
    const storage: Record<string, string> = {
      cart: JSON.stringify([
        { ...etbLine, price: 1299.9, quantity: 2 },
        { ...packLine, price: 89, quantity: 1 },
      ]),
    };
    const fresh = await loadWith(storage);
    expect(fresh.$cart.get()).toEqual([
      { ...etb, priceCentavos: 129990, quantity: 2 },
      { ...pack, quantity: 1 },
    ]);
    expect(subtotalCentavos(fresh.$cart.get())).toBe(129990 * 2 + 8900);
    fresh.setQuantity(pack.id, 2);
    const saved = JSON.parse(storage['cart'] ?? 'null') as Record<string, unknown>[];
    expect(saved).toEqual([
      { ...etb, priceCentavos: 129990, quantity: 2 },
      { ...pack, quantity: 2 },
    ]);
    expect(saved.some((line) => 'price' in line)).toBe(false);
  });

  it('drops stored lines whose price is neither whole centavos nor a peso amount', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { priceCentavos: _price, ...packLine } = pack;
    const fresh = await loadWith({
      cart: JSON.stringify([
        { ...pack, priceCentavos: 89.5, quantity: 1 },
        { ...pack, id: 'neg', priceCentavos: -1, quantity: 1 },
        { ...packLine, id: 'old-neg', price: -1, quantity: 1 },
        { ...packLine, id: 'old-text', price: '89', quantity: 1 },
        { ...packLine, id: 'none', quantity: 1 },
        { ...pack, id: 'ok', quantity: 1 },
      ]),
    });
    expect(fresh.$cart.get().map((line) => line.id)).toEqual(['ok']);
  });
});
