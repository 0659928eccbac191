/**
 * The orders tables as the server reads them: peso amounts (numbers or strings) become Centavos
 * once, the address copy and the voucher are read or dropped, and amounts go back as pesos.
 */
import { describe, expect, it } from 'vitest';
import { centavos } from '~/domain/money.ts';
import type { ServerContext } from '~/server/context.ts';
import { dueRefund, findOrder, findOrderForStatusEmail, findOrderLines, pesosParam, shippingAddressOf } from '~/server/orders/order-row.ts';
import { fakeSupabase, type Result } from '../../../support/fake-supabase.ts';

const ORDER_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

function context(results: Record<string, Result[]>) {
  const fake = fakeSupabase(results);
  return { ctx: { admin: fake.client } as unknown as ServerContext, calls: fake.calls };
}

const row = {
  id: ORDER_ID,
  user_id: 'u1',
  status: 'Pendiente',
  subtotal: '1299.50',
  discount: 0,
  shipping: '99.00',
  total: 1398.5,
  credit_applied: null,
  paid_at: null,
  expires_at: null,
  shipping_address_id: 'a1',
  shipping_address: { label: 'Casa', street: 'Av. Reforma 1', city: 'CDMX', state: null, zip: '06600', country: 'México' },
  payment_provider: null,
  payment_ref: null,
  oxxo_voucher: ['no es un objeto'],
};

describe('findOrder', () => {
  it('reads the amounts as Centavos, a missing balance part as zero, and the copies it can use', async () => {
    const { ctx, calls } = context({ orders: [{ data: row, error: null }] });
    const order = await findOrder(ctx, ORDER_ID);
    expect(order).toMatchObject({
      subtotal: 129_950,
      discount: 0,
      shipping: 9_900,
      total: 139_850,
      credit_applied: 0,
      payment_method: null,
      installments: null,
      oxxo_voucher: null,
    });
    const noMexicanParts = { exterior_number: null, interior_number: null, neighborhood: null, municipality: null, references: null, phone: null };
    expect(order?.shipping_address).toEqual({ ...row.shipping_address, ...noMexicanParts });
    expect(calls[0]!.steps).toContainEqual({ method: 'eq', args: ['id', ORDER_ID] });
  });

  it('answers null for an id that is no uuid without asking, and for an order that is not there', async () => {
    const { ctx, calls } = context({ orders: [{ data: null, error: null }] });
    expect(await findOrder(ctx, 'pedido-1')).toBeNull();
    expect(calls).toHaveLength(0);
    expect(await findOrder(ctx, ORDER_ID)).toBeNull();
  });

  it('fails with the table named when the database refuses', async () => {
    const { ctx } = context({ orders: [{ data: null, error: { message: 'sin conexión' } }] });
    await expect(findOrder(ctx, ORDER_ID)).rejects.toThrow('orders: sin conexión');
  });
});

describe('shippingAddressOf', () => {
  it('keeps a copy only when it names a street and a city', () => {
    expect(shippingAddressOf({ street: 'Calle 2', city: 'Puebla' })).toMatchObject({ street: 'Calle 2', city: 'Puebla', zip: null });
    expect(shippingAddressOf({ street: 'Calle 2' })).toBeNull();
    expect(shippingAddressOf(null)).toBeNull();
  });
});

describe('findOrderLines and findOrderForStatusEmail', () => {
  it('names each line by its product, or as no longer available, with the offer as sold and the price in Centavos', async () => {
    const { ctx } = context({
      order_items: [
        {
          data: [
            { quantity: 2, price: '59.90', offer_label: '', products: { name: 'Sobre' } },
            { quantity: 1, price: 850, offer_label: 'LP · Inglés', products: null },
          ],
          error: null,
        },
      ],
    });
    expect(await findOrderLines(ctx, ORDER_ID)).toEqual([
      { name: 'Sobre', offerLabel: null, quantity: 2, price: 5_990 },
      { name: 'Producto no disponible', offerLabel: 'LP · Inglés', quantity: 1, price: 85_000 },
    ]);
  });

  it('reads the amounts of the status e-mail as Centavos', async () => {
    const { ctx } = context({
      orders: [
        {
          data: {
            id: ORDER_ID,
            user_id: 'u1',
            total: '100.10',
            credit_applied: '20',
            carrier: null,
            tracking_number: null,
            payment_method: 'card',
            refund_ref: null,
          },
          error: null,
        },
      ],
    });
    expect(await findOrderForStatusEmail(ctx, ORDER_ID)).toMatchObject({ total: 10_010, credit_applied: 2_000, payment_method: 'card' });
  });
});

describe('back to the database', () => {
  it('reads a refund to retry with its charge in Centavos', () => {
    expect(dueRefund({ id: 'r1', order_id: 'o1', provider: 'stripe', payment_ref: 'pi_1', amount: '1299.99', reason: 'cancelado' })).toEqual({
      id: 'r1',
      reason: 'cancelado',
      charge: { orderId: 'o1', provider: 'stripe', ref: 'pi_1', amount: 129_999 },
    });
  });

  it('writes Centavos as a peso amount with two decimals', () => {
    expect(pesosParam(centavos(129_999))).toBe(1299.99);
    expect(pesosParam(centavos(10))).toBe(0.1);
    expect(pesosParam(0)).toBe(0);
  });
});
