import { cleanTestStorage, useTestStorageEngine } from '@nanostores/persistent';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from '../../support/fake-supabase.ts';
import { toCentavos } from '~/domain/money.ts';

let fake = fakeSupabase();
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => fake.client,
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
afterEach(() => cleanTestStorage());

describe('placeOrder', () => {
  it('reuses the pending order made from the same cart while it is open', async () => {
    checkout.rememberPendingOrder('o1', checkout.cartSignature([line], ''));
    fake = fakeSupabase({ orders: [{ data: orderRow('o1', 'Pendiente', future), error: null }] });
    const result = await checkout.placeOrder([line], '');
    expect(result).toMatchObject({ ok: true, order: { id: 'o1' } });
    expect(rpcCalls('create_order')).toHaveLength(0);
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
      'rpc:create_order': [{ data: 'o2', error: null }],
    });
    const result = await checkout.placeOrder([line], '');
    expect(result).toMatchObject({ ok: true, order: { id: 'o2' } });
    expect(rpcCalls('cancel_order')[0]!.steps).toContainEqual({ method: 'rpc', args: [{ order_id: 'o1' }] });
    expect(rpcCalls('create_order')[0]!.steps).toContainEqual({ method: 'rpc', args: [{ items: [{ product_id: 'p1', quantity: 2 }], coupon_code: null }] });
    expect(checkout.$pendingOrder.get()).toEqual({ orderId: 'o2', signature: checkout.cartSignature([line], '') });
  });

  it('never cancels a pending order with an OXXO voucher because the cart changed: the shopper chooses', async () => {
    checkout.rememberPendingOrder('o1', checkout.cartSignature([{ ...line, quantity: 1 }], ''));
    const voucher = { reference: '123456789012345678', expiresAt: future, amount: 20000, hostedVoucherUrl: null, paymentIntentId: 'pi_1' };
    fake = fakeSupabase({ orders: [{ data: { ...orderRow('o1', 'Pendiente', future), payment_method: 'oxxo', oxxo_voucher: voucher }, error: null }] });
    const result = await checkout.placeOrder([line], '');
    expect(result).toMatchObject({ ok: false, message: 'Tienes una ficha de OXXO pendiente para este pedido', voucherOrder: { id: 'o1' } });
    expect(rpcCalls('cancel_order')).toHaveLength(0);
    expect(rpcCalls('create_order')).toHaveLength(0);
    expect(checkout.$pendingOrder.get()?.orderId).toBe('o1');
  });

  it('an expired pending order is not reused, and not cancelled twice once it is no longer pending', async () => {
    checkout.rememberPendingOrder('o1', checkout.cartSignature([line], ''));
    fake = fakeSupabase({
      orders: [
        { data: orderRow('o1', 'Cancelado', past), error: null },
        { data: orderRow('o3', 'Pendiente', future), error: null },
      ],
      'rpc:create_order': [{ data: 'o3', error: null }],
    });
    expect(await checkout.placeOrder([line], '')).toMatchObject({ ok: true, order: { id: 'o3' } });
    expect(rpcCalls('cancel_order')).toHaveLength(0);
  });

  it('reports the line create_order refused, and forgets nothing it did not create', async () => {
    fake = fakeSupabase({
      'rpc:create_order': [{ data: null, error: { message: 'Stock insuficiente para Sobre', details: 'out_of_stock:p1', hint: '1' } }],
    });
    const result = await checkout.placeOrder([line], '');
    expect(result).toEqual({ ok: false, message: 'Stock insuficiente para Sobre', signIn: false, lineErrors: { p1: 'Stock insuficiente para Sobre' } });
    expect(checkout.$pendingOrder.get()).toBeNull();
  });

  it('asks to sign in when the database says nobody is', async () => {
    fake = fakeSupabase({ 'rpc:create_order': [{ data: null, error: { message: 'x', details: 'not_authenticated' } }] });
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
