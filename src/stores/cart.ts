/**
 * The shopping cart: a list of items kept in the browser's localStorage under the key `cart`,
 * shared by every island (header count, add-to-cart buttons, checkout) and synchronised across
 * tabs. Change it only through the functions exported here.
 */
import { persistentAtom } from '@nanostores/persistent';
import { computed } from 'nanostores';
import { type Centavos, savedPriceCentavos } from '~/domain/money.ts';
import { clampQuantity, isSoldOut } from '~/domain/cart-rules.ts';

export const CART_STORAGE_KEY = 'cart';

/**
 * One product line in the cart; `priceCentavos` is the unit price in whole centavos. Stored as is
 * (carts written before prices were centavos carry `price` in pesos and are converted on read).
 */
export interface CartItem {
  id: string;
  name: string;
  priceCentavos: Centavos;
  quantity: number;
  /** Null: stock not tracked for this product, so no upper limit. */
  stock: number | null;
  image: string;
  images?: string[];
  /** A single card's offer (public.card_offers.id): its own line, price and stock. */
  offerId?: string;
  /** The offer as the shopper chose it: 'NM · Español · Holo', 'PSA 10 · Inglés'. */
  offerLabel?: string;
}

/**
 * What tells two lines apart: the product, and the offer for a single card (two conditions of one
 * card are two lines). A line saved before offers existed is its product id.
 */
export function lineKey(line: { id: string; offerId?: string | undefined }): string {
  return line.offerId ? `${line.id}#${line.offerId}` : line.id;
}

const isWhole = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

/**
 * One stored line, checked by hand rather than with a schema library: the cart store loads on
 * every page (the header badge), so it must stay a few hundred bytes. Null when it is not a line.
 */
export function parseCartItem(entry: unknown): CartItem | null {
  if (typeof entry !== 'object' || entry === null) return null;
  const e = entry as Record<string, unknown>;
  if (typeof e.id !== 'string' || e.id === '' || typeof e.name !== 'string' || typeof e.image !== 'string') return null;
  // An older line carries `price` in pesos.
  const priceCentavos = savedPriceCentavos(e.priceCentavos, e.price);
  if (priceCentavos === null) return null;
  if (!isWhole(e.quantity) || e.quantity <= 0) return null;
  const stock = e.stock;
  if (stock !== null && !(isWhole(stock) && stock >= 0)) return null;
  const images = e.images;
  if (images !== undefined && !(Array.isArray(images) && images.every((src) => typeof src === 'string'))) return null;
  if (e.offerId !== undefined && !(typeof e.offerId === 'string' && e.offerId !== '')) return null;
  if (e.offerLabel !== undefined && typeof e.offerLabel !== 'string') return null;
  const item: CartItem = { id: e.id, name: e.name, priceCentavos, quantity: e.quantity, stock, image: e.image };
  if (images !== undefined) item.images = [...images];
  if (typeof e.offerId === 'string') {
    item.offerId = e.offerId;
    item.offerLabel = typeof e.offerLabel === 'string' ? e.offerLabel : '';
  }
  return item;
}

/** What adding to the cart needs to know about a product. */
export interface CartProduct {
  id: string;
  name: string;
  priceCentavos: Centavos;
  stock: number | null;
  image: string;
  images?: readonly string[];
  offerId?: string;
  offerLabel?: string;
}

/** Outcome of addToCart: how many units were added and whether the stock limit cut the request. */
export interface AddResult {
  added: number;
  quantity: number;
  limited: boolean;
}

/** Reads a stored cart; anything that is not a list of valid items is dropped with a warning. */
export function decodeCart(raw: string | null | undefined): CartItem[] {
  if (raw === null || raw === undefined || raw === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    console.warn('Carrito guardado ilegible; se empieza con un carrito vacío.');
    return [];
  }
  if (!Array.isArray(parsed)) {
    console.warn('Carrito guardado con un formato desconocido; se empieza con un carrito vacío.');
    return [];
  }
  const items: CartItem[] = [];
  let dropped = 0;
  for (const entry of parsed) {
    const parsed = parseCartItem(entry);
    if (!parsed) {
      dropped += 1;
      continue;
    }
    const item = { ...parsed, quantity: clampQuantity(parsed.quantity, parsed.stock) };
    const existing = items.findIndex((other) => lineKey(other) === lineKey(item));
    if (existing === -1) items.push(item);
    else {
      const merged = items[existing]!;
      items[existing] = { ...merged, quantity: clampQuantity(merged.quantity + item.quantity, merged.stock) };
    }
  }
  if (dropped > 0) {
    console.warn(`Se descartaron ${dropped} artículo(s) del carrito guardado con un formato desconocido.`);
  }
  return items;
}

/** Writes the cart as JSON for localStorage. */
export function encodeCart(items: CartItem[]): string {
  return JSON.stringify(items);
}

/** The cart items, persisted in localStorage under `cart`. */
export const $cart = persistentAtom<CartItem[]>(CART_STORAGE_KEY, [], {
  encode: encodeCart,
  decode: decodeCart,
});

/** Number of units in the cart (the header badge). */
export const $cartCount = computed($cart, (items) => items.reduce((sum, item) => sum + item.quantity, 0));

function toItem(product: CartProduct, quantity: number): CartItem {
  const item: CartItem = {
    id: product.id,
    name: product.name,
    priceCentavos: product.priceCentavos,
    quantity,
    stock: product.stock,
    image: product.image,
  };
  if (product.images !== undefined) item.images = [...product.images];
  if (product.offerId) {
    item.offerId = product.offerId;
    item.offerLabel = product.offerLabel ?? '';
  }
  return item;
}

/**
 * Adds units of a product (of one offer, for a single card), merging with its line if present and
 * never going over the stock. The line takes the product's latest name, price, stock and images.
 */
export function addToCart(product: CartProduct, quantity = 1): AddResult {
  const items = $cart.get();
  const key = lineKey(product);
  const index = items.findIndex((item) => lineKey(item) === key);
  const current = index === -1 ? 0 : items[index]!.quantity;
  const wanted = Number.isFinite(quantity) ? Math.max(1, Math.floor(quantity)) : 1;
  if (isSoldOut(product) || !Number.isSafeInteger(product.priceCentavos) || product.priceCentavos < 0) {
    return { added: 0, quantity: current, limited: isSoldOut(product) };
  }
  const next = clampQuantity(current + wanted, product.stock);
  const added = Math.max(0, next - current);
  const line = toItem(product, Math.max(next, 1));
  $cart.set(index === -1 ? [...items, line] : items.map((item, i) => (i === index ? line : item)));
  return { added, quantity: line.quantity, limited: added < wanted };
}

/** Sets the quantity of a line (by its lineKey), clamped to 1…stock; unknown keys are ignored. */
export function setQuantity(key: string, quantity: number): void {
  const items = $cart.get();
  if (!items.some((item) => lineKey(item) === key)) return;
  $cart.set(items.map((item) => (lineKey(item) === key ? { ...item, quantity: clampQuantity(quantity, item.stock) } : item)));
}

/**
 * Brings a line up to date with the live product (name, price, stock), clamping the quantity the
 * line has now, so a change the shopper made while the live data was loading is kept.
 */
export function refreshCartLine(key: string, live: { name: string; priceCentavos: Centavos; stock: number | null }): void {
  const items = $cart.get();
  if (!items.some((item) => lineKey(item) === key)) return;
  $cart.set(
    items.map((item) =>
      lineKey(item) === key
        ? { ...item, name: live.name, priceCentavos: live.priceCentavos, stock: live.stock, quantity: clampQuantity(item.quantity, live.stock) }
        : item,
    ),
  );
}

/** Removes a line (by its lineKey) from the cart. */
export function removeFromCart(key: string): void {
  const items = $cart.get();
  if (!items.some((item) => lineKey(item) === key)) return;
  $cart.set(items.filter((item) => lineKey(item) !== key));
}

/** Empties the cart (after an order is placed, for example). */
export function clearCart(): void {
  $cart.set([]);
}
