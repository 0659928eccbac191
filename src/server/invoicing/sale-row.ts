/**
 * The rows a factura is made of, as the invoicing queue (./queue.ts) reads them: an order's lines
 * and the factura global's sales, with their peso amounts turned into Centavos here, once.
 */
import { type Centavos, toCentavos } from '~/domain/money.ts';

/** An order line as `order_items` answers it, with its product's name and SAT keys. */
export interface OrderItemRow {
  quantity: number;
  price: number | string;
  offer_label: string | null;
  product_id: string | null;
  products: { name: string; sat_product_key: string | null; sat_unit_key: string | null } | null;
}

/** One line of the order to invoice: what was sold, how many, at which unit price. */
export interface SaleLine {
  description: string;
  quantity: number;
  unitPrice: Centavos;
  productKey: string | null;
  unitKey: string | null;
  sku: string | null;
}

/** The order's lines; a line whose product is gone is described as `productText`. */
export function saleLinesOf(rows: readonly OrderItemRow[], productText: string): SaleLine[] {
  return rows.map((item) => ({
    description: [item.products?.name ?? productText, item.offer_label].filter(Boolean).join(', '),
    quantity: item.quantity,
    unitPrice: toCentavos(item.price),
    productKey: item.products?.sat_product_key ?? null,
    unitKey: item.products?.sat_unit_key ?? null,
    sku: item.product_id,
  }));
}

/** The factura global's candidate sales (invoice_global_candidates), those with an order and a total. */
export function globalSalesOf(rows: ReadonlyArray<{ order_id: string | null; total: number | string | null }>): Array<{ order_id: string; total: Centavos }> {
  return rows.flatMap((row) => (row.order_id && row.total !== null ? [{ order_id: row.order_id, total: toCentavos(row.total) }] : []));
}

/** What an order was paid with: its total and the part the balance paid, in Centavos. */
export function paidAmountsOf(order: { total: number | string; credit_applied: number | string }): { total: Centavos; creditApplied: Centavos } {
  return { total: toCentavos(order.total), creditApplied: toCentavos(order.credit_applied) };
}
