/**
 * A row of public.invoices for the invoicing unit tests: an order's factura with one product line
 * (2 × $1,160.00) and shipping ($99.00), its amounts as the database stores them (pesos).
 */
import type { InvoiceRow } from '~/server/invoicing/types.ts';

export const INVOICE_ID = '3f2b8c1e-7a4d-4e2f-9b1a-5c6d7e8f9a0b';
export const ORDER_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
export const USER_ID = '9b2d6f1e-1c4a-4b7e-8d3f-2a1b0c9d8e7f';

export const CONCEPTS = [
  { description: 'Caja de sobres', quantity: 2, productKey: '60141000', unitKey: 'H87', sku: 'pk-caja', amount: 232000, discount: 0, base: 200000, iva: 32000 },
  { description: 'Envío', quantity: 1, productKey: '78102203', unitKey: 'E48', sku: null, amount: 9900, discount: 0, base: 8534, iva: 1366 },
];

export const CUSTOMER = {
  rfc: 'GODE561231GR8',
  legal_name: 'Ana García López',
  tax_regime: '612',
  tax_zip: '06700',
  cfdi_use: 'G03',
  email: 'facturas@ana.mx',
};

export function invoiceRow(overrides: Partial<InvoiceRow> = {}): InvoiceRow {
  return {
    id: INVOICE_ID,
    kind: 'order',
    order_id: ORDER_ID,
    user_id: USER_ID,
    status: 'issuing',
    customer: CUSTOMER,
    payment_form: '04',
    payment_method: 'PUE',
    concepts: CONCEPTS,
    subtotal: 2085.34,
    iva: 333.66,
    total: 2419,
    period_year: null,
    period_month: null,
    provider: 'simulated',
    provider_id: null,
    cfdi_uuid: null,
    series: null,
    folio: null,
    request_key: 'clave-0001',
    attempts: 1,
    next_attempt_at: null,
    claimed_at: null,
    last_error: null,
    issued_at: '2026-11-20T18:30:00Z',
    cancel_motive: null,
    cancel_requested_at: null,
    cancelled_at: null,
    shopper_told_at: null,
    related_invoice_id: null,
    related_cfdi_uuid: null,
    created_at: '2026-11-20T18:29:00Z',
    updated_at: '2026-11-20T18:30:00Z',
    ...overrides,
  };
}
