import { cleanTestStorage, useTestStorageEngine } from '@nanostores/persistent';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from '../../support/fake-supabase.ts';
import { toCentavos } from '~/domain/money.ts';

let fake = fakeSupabase();
/** The shopper is signed in: the browser sends their token to the order endpoint. */
const SESSION = { data: { session: { access_token: 'tok' } }, error: null };
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => ({ ...fake.client, auth: { ...fake.auth, getSession: async () => SESSION } }),
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

useTestStorageEngine();
const { $cart } = await import('~/stores/cart.ts');
const checkout = await import('~/stores/checkout.ts');

const line = { id: 'p1', name: 'Sobre', priceCentavos: toCentavos(100), quantity: 2, stock: 5, image: 'products/p1.svg' };
const future = new Date(Date.now() + 30 * 60 * 1000).toISOString();
const past = new Date(Date.now() - 60 * 1000).toISOString();

/** An orders row as loadOrder reads it. */
function orderRow(id: string, status: string, expiresAt: string) {
  return {
    id,
    created_at: '2026-11-23T00:00:00Z',
    status,
    paid_at: null,
    expires_at: expiresAt,
    subtotal: 200,
    discount: 0,
    shipping: 0,
    total: 200,
    coupon_code: null,
    shipping_address_id: null,
    shipping_address: null,
    payment_method: null,
    installments: null,
    oxxo_voucher: null as Record<string, unknown> | null,
    credit_applied: 0,
    order_items: [],
  };
}

function rpcCalls(name: string) {
  return fake.calls.filter((call) => call.table === `rpc:${name}`);
}

beforeEach(() => {
  fake = fakeSupabase();
  $cart.set([line]);
  checkout.forgetPendingOrder();
});
afterEach(() => {
  cleanTestStorage();
  vi.unstubAllGlobals();
});

describe('placeOrder', () => {
  it('reuses the pending order made from the same cart while it is open', async () => {
    checkout.rememberPendingOrder('o1', checkout.cartSignature([line], ''));
    fake = fakeSupabase({ orders: [{ data: orderRow('o1', 'Pendiente', future), error: null }] });
    const result = await checkout.placeOrder([line], '');
    expect(result).toMatchObject({ ok: true, order: { id: 'o1' } });
    expect(rpcCalls('create_order_unless_sold_out')).toHaveLength(0);
    expect(rpcCalls('cancel_order')).toHaveLength(0);
  });

  it('cancels the pending order of a different cart and creates a new one', async () => {
    checkout.rememberPendingOrder('o1', checkout.cartSignature([{ ...line, quantity: 1 }], ''));
    fake = fakeSupabase({
      orders: [
        { data: orderRow('o1', 'Pendiente', future), error: null },
        { data: orderRow('o2', 'Pendiente', future), error: null },
      ],
      'rpc:cancel_order': [{ data: null, error: null }],
      'rpc:create_order_unless_sold_out': [{ data: 'o2', error: null }],
    });
    const result = await checkout.placeOrder([line], '');
    expect(result).toMatchObject({ ok: true, order: { id: 'o2' } });
    expect(rpcCalls('cancel_order')[0]!.steps).toContainEqual({ method: 'rpc', args: [{ order_id: 'o1' }] });
    expect(rpcCalls('create_order_unless_sold_out')[0]!.steps).toContainEqual({
      method: 'rpc',
      args: [{ items: [{ product_id: 'p1', quantity: 2 }], coupon_code: null }],
    });
    expect(checkout.$pendingOrder.get()).toEqual({ orderId: 'o2', signature: checkout.cartSignature([line], '') });
  });

  it('never cancels a pending order with an OXXO voucher because the cart changed: the shopper chooses', async () => {
    checkout.rememberPendingOrder('o1', checkout.cartSignature([{ ...line, quantity: 1 }], ''));
    const voucher = { reference: '123456789012345678', expiresAt: future, amount: 20000, hostedVoucherUrl: null, paymentIntentId: 'pi_1' };
    fake = fakeSupabase({ orders: [{ data: { ...orderRow('o1', 'Pendiente', future), payment_method: 'oxxo', oxxo_voucher: voucher }, error: null }] });
    const result = await checkout.placeOrder([line], '');
    expect(result).toMatchObject({ ok: false, message: 'Tienes una ficha de OXXO pendiente para este pedido', voucherOrder: { id: 'o1' } });
    expect(rpcCalls('cancel_order')).toHaveLength(0);
    expect(rpcCalls('create_order_unless_sold_out')).toHaveLength(0);
    expect(checkout.$pendingOrder.get()?.orderId).toBe('o1');
  });

  it('an expired pending order is not reused, and not cancelled twice once it is no longer pending', async () => {
    checkout.rememberPendingOrder('o1', checkout.cartSignature([line], ''));
    fake = fakeSupabase({
      orders: [
        { data: orderRow('o1', 'Cancelado', past), error: null },
        { data: orderRow('o3', 'Pendiente', future), error: null },
      ],
      'rpc:create_order_unless_sold_out': [{ data: 'o3', error: null }],
    });
    expect(await checkout.placeOrder([line], '')).toMatchObject({ ok: true, order: { id: 'o3' } });
    expect(rpcCalls('cancel_order')).toHaveLength(0);
  });

  it('reports the line create_order refused, and forgets nothing it did not create', async () => {
    fake = fakeSupabase({
      'rpc:create_order_unless_sold_out': [
        { data: null, error: { code: 'P0001', message: 'Stock insuficiente para Sobre', details: 'out_of_stock:p1', hint: '1' } },
      ],
    });
    const result = await checkout.placeOrder([line], '');
    expect(result).toEqual({ ok: false, message: 'Stock insuficiente para Sobre', signIn: false, lineErrors: { p1: 'Stock insuficiente para Sobre' } });
    expect(checkout.$pendingOrder.get()).toBeNull();
  });

  it('asks to sign in when the database says nobody is', async () => {
    fake = fakeSupabase({ 'rpc:create_order_unless_sold_out': [{ data: null, error: { code: 'P0001', message: 'x', details: 'not_authenticated' } }] });
    expect(await checkout.placeOrder([line], '')).toEqual({
      ok: false,
      message: 'Debes iniciar sesión para finalizar tu compra.',
      signIn: true,
      lineErrors: {},
    });
  });
});

describe('reconcileCartWithLive', () => {
  it('removes gone products and refreshes prices, with the notices to show', async () => {
    $cart.set([line, { ...line, id: 'p2', name: 'Caja' }]);
    fake = fakeSupabase({ products: [{ data: [{ id: 'p1', name: 'Sobre', price: 120, stock: 5, available: true, image: null }], error: null }] });
    const notices = await checkout.reconcileCartWithLive();
    expect($cart.get().map((item) => [item.id, item.priceCentavos])).toEqual([['p1', toCentavos(120)]]);
    expect(notices).toHaveLength(2);
    expect(notices[0]).toContain('«Sobre»');
    expect(notices[1]).toContain('«Caja» ya no está disponible');
  });

  it('keeps the stored cart when the backend cannot be reached', async () => {
    fake = fakeSupabase({ products: [{ data: null, error: { message: 'offline' } }] });
    expect(await checkout.reconcileCartWithLive()).toEqual([]);
    expect($cart.get()).toEqual([line]);
  });
});

describe('single card offers in the checkout', () => {
  const LP = '6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab';
  const NM = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
  const luffy = { id: 'op05-119', name: 'Monkey.D.Luffy (OP05-119)', priceCentavos: toCentavos(850), quantity: 1, stock: 3, image: '' };
  const lp = { ...luffy, offerId: LP, offerLabel: 'LP · Inglés · Parallel' };
  const nm = { ...luffy, priceCentavos: toCentavos(1200), stock: 2, offerId: NM, offerLabel: 'NM · Japonés · Parallel' };
  const product = { id: 'op05-119', name: luffy.name, price: 0, stock: 0, available: true, image: null };

  it('sends each offer line with its offer id, and a product line without one', async () => {
    fake = fakeSupabase({
      'rpc:create_order_unless_sold_out': [{ data: 'o9', error: null }],
      orders: [{ data: orderRow('o9', 'Pendiente', future), error: null }],
    });
    expect(await checkout.placeOrder([line, lp, nm], '')).toMatchObject({ ok: true, order: { id: 'o9' } });
    expect(rpcCalls('create_order_unless_sold_out')[0]!.steps).toContainEqual({
      method: 'rpc',
      args: [
        {
          items: [
            { product_id: 'p1', quantity: 2 },
            { product_id: 'op05-119', offer_id: LP, quantity: 1 },
            { product_id: 'op05-119', offer_id: NM, quantity: 1 },
          ],
          coupon_code: null,
        },
      ],
    });
  });

  it('tells two offers of one card apart in the signature of the pending order', () => {
    expect(checkout.cartSignature([lp], '')).not.toBe(checkout.cartSignature([nm], ''));
    expect(checkout.cartSignature([lp, nm], '')).toBe(checkout.cartSignature([nm, lp], ''));
    expect(checkout.cartSignature([line], 'X')).toBe('p1×2|X');
  });

  it('puts the database refusal of a gone offer next to its line in Spanish', async () => {
    fake = fakeSupabase({
      'rpc:create_order_unless_sold_out': [
        { data: null, error: { code: 'P0001', message: 'La opción elegida de «op05-119» no existe.', details: 'unknown_product:op05-119' } },
      ],
    });
    expect(await checkout.placeOrder([lp], '')).toEqual({
      ok: false,
      message: 'Una de las cartas elegidas ya no está a la venta.',
      signIn: false,
      lineErrors: { 'op05-119': 'Una de las cartas elegidas ya no está a la venta.' },
    });
    expect(checkout.$pendingOrder.get()).toBeNull();
  });

  it('reconciles each offer line with its live offer: new price, clamped quantity, gone offer removed', async () => {
    $cart.set([line, { ...lp, quantity: 3 }, nm]);
    fake = fakeSupabase({
      products: [{ data: [{ id: 'p1', name: 'Sobre', price: 100, stock: 5, available: true, image: null }, product], error: null }],
      card_offers: [{ data: [{ id: LP, product_id: 'op05-119', price: '900.00', stock: 2 }], error: null }],
    });
    const notices = await checkout.reconcileCartWithLive();
    expect($cart.get().map((item) => [item.id, item.offerId, item.priceCentavos, item.quantity])).toEqual([
      ['p1', undefined, toCentavos(100), 2],
      ['op05-119', LP, toCentavos(900), 2],
    ]);
    expect(notices).toEqual([
      'El precio de «Monkey.D.Luffy (OP05-119), LP · Inglés · Parallel» cambió de $850.00 a $900.00.',
      'Solo quedan 2 unidad(es) de «Monkey.D.Luffy (OP05-119), LP · Inglés · Parallel»; ajustamos la cantidad.',
      '«Monkey.D.Luffy (OP05-119), NM · Japonés · Parallel» ya no está a la venta y se quitó de tu carrito.',
    ]);
    const offersRead = fake.calls.find((call) => call.table === 'card_offers')!;
    expect(offersRead.steps).toContainEqual({ method: 'in', args: ['id', [LP, NM]] });
  });
});

describe('submitCoupon', () => {
  const box = { id: 'pk-box', name: 'Caja', priceCentavos: toCentavos(1899), quantity: 1, stock: 5, image: 'products/pk-box.svg' };
  const sleeves = { id: 'pk-sleeves', name: 'Micas', priceCentavos: toCentavos(249.5), quantity: 2, stock: 5, image: 'products/pk-sleeves.svg' };

  it('remembers a code the database accepts, with the lines it matches, and says what it gives', async () => {
    fake = fakeSupabase({
      'rpc:check_promotion': [
        { data: { ok: true, code: 'BUENFIN15', type: 'percent', value: 15, discount: 284.85, shipping: 99, eligible: [true, false] }, error: null },
      ],
    });
    const message = await checkout.submitCoupon(' buenfin15', [box, sleeves]);
    expect(message).toBe('🎉 Cupón aplicado: 15% de descuento.');
    expect(rpcCalls('check_promotion')[0]!.steps).toContainEqual({
      method: 'rpc',
      args: [
        {
          code: 'BUENFIN15',
          items: [
            { product_id: 'pk-box', quantity: 1 },
            { product_id: 'pk-sleeves', quantity: 2 },
          ],
        },
      ],
    });
    expect(checkout.$couponCode.get()).toBe('BUENFIN15');
    expect(checkout.$promotion.get()).toEqual({
      promotion: { code: 'BUENFIN15', type: 'percent', value: 15 },
      eligible: { 'pk-box': true, 'pk-sleeves': false },
      signature: checkout.cartSignature([box, sleeves], 'BUENFIN15'),
    });
  });

  it("says the seeded coupons' messages and a fixed amount's", async () => {
    fake = fakeSupabase({
      'rpc:check_promotion': [
        { data: { ok: true, code: 'MEKACAT10', type: 'percent', value: 10, discount: 10, shipping: 99, eligible: [true] }, error: null },
        { data: { ok: true, code: 'ENVIOGRATIS', type: 'shipping', value: 0, discount: 0, shipping: 0, eligible: [true] }, error: null },
        { data: { ok: true, code: 'MENOS200', type: 'fixed', value: 200, discount: 200, shipping: 0, eligible: [true] }, error: null },
      ],
    });
    expect(await checkout.submitCoupon('mekacat10', [box])).toBe('🎉 Cupón aplicado: 10% de descuento.');
    expect(await checkout.submitCoupon('enviogratis', [box])).toBe('🚚 Envío gratis aplicado.');
    expect(await checkout.submitCoupon('menos200', [box])).toBe('🎉 Cupón aplicado: $200.00 de descuento.');
  });

  it("takes the coupon off with the database's reason when it refuses the code, or with the invalid message for an empty one", async () => {
    checkout.$couponCode.set('MEKACAT10');
    fake = fakeSupabase({
      'rpc:check_promotion': [{ data: { ok: false, detail: 'coupon_minimum', message: 'Agrega $150.00 más para usar este cupón.' }, error: null }],
    });
    expect(await checkout.submitCoupon('MINIMO', [box])).toBe('Agrega $150.00 más para usar este cupón.');
    expect(checkout.$couponCode.get()).toBe('');
    expect(checkout.$promotion.get()).toBeNull();
    expect(await checkout.submitCoupon('   ', [box])).toBe('⚠️ Cupón no válido.');
    expect(rpcCalls('check_promotion')).toHaveLength(1);
  });

  it('keeps the applied coupon when the check could not be made', async () => {
    checkout.$couponCode.set('MEKACAT10');
    fake = fakeSupabase({ 'rpc:check_promotion': [{ data: null, error: { message: 'Failed to fetch' } }] });
    expect(await checkout.submitCoupon('OTRO', [box])).toBe('No pudimos revisar el cupón. Revisa tu conexión e intenta de nuevo.');
    expect(checkout.$couponCode.get()).toBe('MEKACAT10');
  });
});

describe('noteAddressGap', () => {
  afterEach(() => checkout.$addressGap.set(null));

  it("records a payment's refusal of the order's incomplete address with the server's message", () => {
    const refused = { ok: false, code: 'address_incomplete', message: 'Completa tu dirección de envío: Colonia requerida.' };
    expect(checkout.noteAddressGap('o1', refused)).toBe(true);
    expect(checkout.$addressGap.get()).toEqual({ orderId: 'o1', message: 'Completa tu dirección de envío: Colonia requerida.' });
  });

  it('uses the generic message when the server sent none', () => {
    expect(checkout.noteAddressGap('o2', { ok: false, code: 'address_incomplete', message: null })).toBe(true);
    expect(checkout.$addressGap.get()).toEqual({ orderId: 'o2', message: 'Completa tu dirección de envío antes de pagar.' });
  });

  it('leaves every other answer alone: a success, another refusal, an answer without a code', () => {
    expect(checkout.noteAddressGap('o3', { ok: true, code: null, message: null })).toBe(false);
    expect(checkout.noteAddressGap('o3', { ok: false, code: 'address_required', message: 'Elige una dirección de envío.' })).toBe(false);
    expect(checkout.noteAddressGap('o3', { ok: false, message: 'Sin código.' })).toBe(false);
    expect(checkout.$addressGap.get()).toBeNull();
  });
});
