import { describe, expect, it } from 'vitest';
import { globalSalesOf, paidAmountsOf, saleLinesOf, type OrderItemRow } from '~/server/invoicing/sale-row.ts';

const item = (over: Partial<OrderItemRow> = {}): OrderItemRow => ({
  quantity: 2,
  price: '1299.90',
  offer_label: null,
  product_id: 'pk-etb',
  products: { name: 'Elite Trainer Box', sat_product_key: '60141101', sat_unit_key: 'H87' },
  ...over,
});

describe('the rows of a factura', () => {
  it("reads an order's lines with their unit price in centavos, the offer's label and the product's SAT keys", () => {
    const [sealed, single, gone] = saleLinesOf(
      [
        item(),
        item({
          quantity: 1,
          price: 89.5,
          offer_label: 'NM · Español · Normal',
          product_id: 'op05-119',
          products: { name: 'Luffy', sat_product_key: null, sat_unit_key: null },
        }),
        item({ quantity: 3, price: '0.05', products: null, product_id: 'borrado' }),
      ],
      'Producto',
    );
    expect(sealed).toEqual({ description: 'Elite Trainer Box', quantity: 2, unitPrice: 129990, productKey: '60141101', unitKey: 'H87', sku: 'pk-etb' });
    expect(single).toMatchObject({ description: 'Luffy, NM · Español · Normal', unitPrice: 8950, productKey: null, unitKey: null });
    expect(gone).toMatchObject({ description: 'Producto', quantity: 3, unitPrice: 5, sku: 'borrado' });
  });

  it('refuses a line whose price is not an amount', () => {
    expect(() => saleLinesOf([item({ price: 'gratis' })], 'Producto')).toThrow(RangeError);
  });

  it("keeps the factura global's sales that have an order and a total, in centavos", () => {
    expect(
      globalSalesOf([
        { order_id: 'a', total: '150.00' },
        { order_id: null, total: '10.00' },
        { order_id: 'b', total: null },
        { order_id: 'c', total: 0.1 },
      ]),
    ).toEqual([
      { order_id: 'a', total: 15000 },
      { order_id: 'c', total: 10 },
    ]);
  });

  it('reads what paid an order in centavos', () => {
    expect(paidAmountsOf({ total: '499.00', credit_applied: 120.5 })).toEqual({ total: 49900, creditApplied: 12050 });
  });
});
