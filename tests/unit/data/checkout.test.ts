import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from '../../support/fake-supabase.ts';
import { CHECKOUT_MESSAGES } from '~/i18n/checkout.ts';

// Rows as PostgREST sends them: numeric columns as JSON numbers or numeric strings, in pesos. The
// data modules hand them on with the unit in the name and the amount in whole centavos.
let fake = fakeSupabase();
vi.mock('astro:env/client', () => ({ PUBLIC_SUPABASE_URL: undefined, PUBLIC_SUPABASE_ANON_KEY: undefined }));
/** Signed in: the order endpoint is called with this token. */
const SESSION = { data: { session: { access_token: 'tok' } }, error: null };
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => ({ ...fake.client, auth: { ...fake.auth, getSession: async () => SESSION } }),
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const checkout = await import('~/data/checkout.ts');
const { parseCreateOrderError } = checkout;

beforeEach(() => {
  fake = fakeSupabase();
});
afterEach(() => vi.unstubAllGlobals());

describe("create_order's coupon refusals", () => {
  it("shows the database's own message for a refused coupon", () => {
    expect(parseCreateOrderError({ message: 'Este cupón ya se usó el máximo de veces.', details: 'coupon_used_up', hint: null })).toEqual({
      message: 'Este cupón ya se usó el máximo de veces.',
      line: null,
    });
    expect(parseCreateOrderError({ message: '', details: 'coupon_expired', hint: null })).toEqual({ message: CHECKOUT_MESSAGES.createOrder, line: null });
  });
});

describe('checkout', () => {
  it("reads the order's stored amounts and line prices as centavos", async () => {
    fake = fakeSupabase({
      orders: [
        {
          data: {
            id: 'o1',
            created_at: '2026-11-23T00:00:00Z',
            status: 'Pendiente',
            paid_at: null,
            expires_at: null,
            subtotal: '1357.00',
            discount: 135.7,
            shipping: 99,
            total: '1320.30',
            coupon_code: 'MEKACAT10',
            shipping_address_id: null,
            shipping_address: null,
            payment_method: null,
            installments: null,
            oxxo_voucher: null,
            credit_applied: '0.00',
            order_items: [
              { id: 'l1', product_id: 'p1', quantity: 2, price: 599, offer_label: null, products: { name: 'Caja', image: null } },
              {
                id: 'l2',
                product_id: 'op05-119',
                quantity: 1,
                price: '850.00',
                offer_label: 'LP · Inglés · Parallel',
                products: { name: 'Luffy', image: null },
              },
            ],
          },
          error: null,
        },
      ],
    });
    const order = await checkout.loadOrder('o1');
    expect(order).toMatchObject({
      subtotalCentavos: 135700,
      discountCentavos: 13570,
      shippingCentavos: 9900,
      totalCentavos: 132030,
      creditCentavos: 0,
      dueCentavos: 132030,
    });
    expect(order?.lines).toEqual([
      { id: 'l1', product_id: 'p1', quantity: 2, priceCentavos: 59900, name: 'Caja', image: null, offerLabel: null },
      { id: 'l2', product_id: 'op05-119', quantity: 1, priceCentavos: 85000, name: 'Luffy', image: null, offerLabel: 'LP · Inglés · Parallel' },
    ]);
    expect(fake.calls.find((call) => call.table === 'orders')!.steps[0]!.args[0]).toContain('offer_label');
  });

  it("shows a paid order's own address copy and reads its OXXO voucher only when it has the voucher's shape", async () => {
    const paid = {
      id: 'o2',
      created_at: '2026-11-23T00:00:00Z',
      status: 'Pagado',
      paid_at: '2026-11-23T00:10:00Z',
      expires_at: null,
      subtotal: 100,
      discount: 0,
      shipping: 99,
      total: 199,
      coupon_code: null,
      shipping_address_id: 'a1',
      shipping_address: { label: 'Casa', street: 'Calle 1', city: 'Puebla', state: 'Puebla', zip: '72000', country: 'México' },
      payment_method: 'oxxo',
      installments: null,
      oxxo_voucher: { reference: '123', expiresAt: '2026-11-26T05:59:59Z', amount: 19900, hostedVoucherUrl: null, paymentIntentId: 'pi_1' },
      credit_applied: 50,
      order_items: [],
    };
    fake = fakeSupabase({ orders: [{ data: paid, error: null }] });
    const order = await checkout.loadOrder('o2');
    expect(order?.address).toEqual({
      exterior_number: null,
      interior_number: null,
      neighborhood: null,
      municipality: null,
      references: null,
      phone: null,
      id: 'a1',
      label: 'Casa',
      street: 'Calle 1',
      city: 'Puebla',
      state: 'Puebla',
      zip: '72000',
      country: 'México',
    });
    expect(order?.oxxo_voucher).toMatchObject({ reference: '123', amount: 19900 });
    // The part paid with the balance, and what a provider still charges.
    expect(order).toMatchObject({ creditCentavos: 5000, dueCentavos: 14900 });
    // The address book is not read for a paid order with its own copy.
    expect(fake.calls.map((call) => call.table)).toEqual(['orders']);

    fake = fakeSupabase({ orders: [{ data: { ...paid, oxxo_voucher: { reference: 123 } }, error: null }] });
    expect((await checkout.loadOrder('o2'))?.oxxo_voucher).toBeNull();
  });

  it('reads live cart products with their price in centavos', async () => {
    fake = fakeSupabase({ products: [{ data: [{ id: 'p1', name: 'Caja', price: '1299.90', stock: 4, available: true, image: null }], error: null }] });
    expect(await checkout.fetchCartProducts(['p1'])).toEqual([
      { id: 'p1', name: 'Caja', priceCentavos: 129990, stock: 4, available: true, image: null, soldByOffer: false },
    ]);
    expect(fake.calls.at(-1)).toMatchObject({ table: 'products' });
  });

  it('tells a single card (a product with a printing) from a sealed product', async () => {
    const row = { name: 'Carta', price: '10', stock: 4, available: true, image: null };
    fake = fakeSupabase({
      products: [
        {
          data: [
            { ...row, id: 's1', card_printings: { product_id: 's1' } },
            { ...row, id: 's2', card_printings: [{ product_id: 's2' }] },
            { ...row, id: 'p1', card_printings: null },
            { ...row, id: 'p2', card_printings: [] },
          ],
          error: null,
        },
      ],
    });
    expect((await checkout.fetchCartProducts(['s1', 's2', 'p1', 'p2'])).map((p) => [p.id, p.soldByOffer])).toEqual([
      ['s1', true],
      ['s2', true],
      ['p1', false],
      ['p2', false],
    ]);
  });
});

describe('single card offers', () => {
  const OFFER = '6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab';

  it('reads the live price and stock of the offers asked for, skipping ids that are not UUIDs', async () => {
    fake = fakeSupabase({ card_offers: [{ data: [{ id: OFFER, product_id: 'op05-119', price: '850.00', stock: 3 }], error: null }] });
    expect(await checkout.fetchCartOffers([OFFER, 'not-an-offer', OFFER])).toEqual([{ id: OFFER, productId: 'op05-119', priceCentavos: 85000, stock: 3 }]);
    expect(fake.calls[0]!.steps).toContainEqual({ method: 'in', args: ['id', [OFFER]] });
  });

  it('asks nothing when no line is an offer', async () => {
    expect(await checkout.fetchCartOffers([])).toEqual([]);
    expect(fake.calls).toHaveLength(0);
  });

  it('sends the offer id of a line to create_order, and never a price', async () => {
    fake = fakeSupabase({ 'rpc:create_order_unless_sold_out': [{ data: 'o1', error: null }] });
    const items = [{ product_id: 'op05-119', offer_id: OFFER, quantity: 1 }];
    expect(await checkout.createOrder(items, null)).toEqual({ ok: true, orderId: 'o1' });
    expect(fake.calls[0]!.steps).toContainEqual({ method: 'rpc', args: [{ items, coupon_code: null }] });
  });

  it('refuses a line whose offer id is not a UUID before asking the database', async () => {
    const result = await checkout.createOrder([{ product_id: 'op05-119', offer_id: 'nm-es-holo', quantity: 1 }], null);
    expect(result).toEqual({
      ok: false,
      message: 'Una de las cartas elegidas ya no está a la venta.',
      line: { productId: 'op05-119', kind: 'unknown_product', message: 'Una de las cartas elegidas ya no está a la venta.', remaining: null },
    });
    expect(fake.calls).toHaveLength(0);
  });

  it('says in Spanish that a chosen card is no longer on sale when the database refuses its offer', () => {
    const parsed = parseCreateOrderError({ message: 'La opción elegida de «op05-119» no existe.', details: 'unknown_product:op05-119', hint: null });
    expect(parsed).toEqual({
      message: CHECKOUT_MESSAGES.offerGone,
      line: { productId: 'op05-119', kind: 'unknown_product', message: 'Una de las cartas elegidas ya no está a la venta.', remaining: null },
    });
    // A product that does not exist keeps the database's own message.
    expect(parseCreateOrderError({ message: 'El producto «x» no existe.', details: 'unknown_product:x' }).message).toBe('El producto «x» no existe.');
  });
});

describe('create_order refusals', () => {
  it('puts a product refusal next to its line with the database’s Spanish message', () => {
    const parsed = parseCreateOrderError({ message: 'Stock insuficiente para «Caja» (disponible: 2).', details: 'out_of_stock:pk-caja', hint: '2' });
    expect(parsed.line).toEqual({ productId: 'pk-caja', kind: 'out_of_stock', message: 'Stock insuficiente para «Caja» (disponible: 2).', remaining: 2 });
    expect(parseCreateOrderError({ message: 'Solo puedes comprar 3…', details: 'limit_exceeded:pk-x', hint: '0' }).line?.kind).toBe('limit_exceeded');
  });

  it('puts a preorder refused outside its window next to its line, with the database’s message', () => {
    const message = 'La preventa de «Caja» abre el 01/01/2099 a las 10:00 (hora del centro de México).';
    expect(parseCreateOrderError({ message, details: 'preorder_not_open:pk-caja', hint: '2099-01-01 16:00:00+00' })).toEqual({
      message,
      line: { productId: 'pk-caja', kind: 'unavailable', message, remaining: null },
    });
    expect(parseCreateOrderError({ message: 'La preventa de «Caja» cerró el 01/02/2099.', details: 'preorder_closed:pk-caja' }).line?.kind).toBe('unavailable');
  });

  it('maps the other refusals to the specification’s messages', () => {
    expect(parseCreateOrderError({ message: 'x', details: 'invalid_quantity' })).toEqual({ message: CHECKOUT_MESSAGES.saveItems, line: null });
    expect(parseCreateOrderError({ message: 'x', details: 'not_authenticated' }).message).toBe('Debes iniciar sesión para finalizar tu compra.');
    expect(parseCreateOrderError({ message: 'boom', details: null }).message).toBe('Error al crear el pedido.');
  });
});
