/** The stored factura read back in the shop's shapes: its concepts and its receiver. */
import { describe, expect, it } from 'vitest';
import { conceptsOf, customerOf } from '~/server/invoicing/types.ts';
import { CONCEPTS, CUSTOMER, invoiceRow } from './invoice-row.ts';

describe('conceptsOf', () => {
  it("answers the row's stored concepts, in their order", () => {
    const concepts = conceptsOf(invoiceRow());
    expect(concepts).toEqual(CONCEPTS);
    expect(concepts.map((c) => c.description)).toEqual(['Caja de sobres', 'Envío']);
  });

  it('answers no concepts when the column holds no list', () => {
    expect(conceptsOf(invoiceRow({ concepts: null }))).toEqual([]);
    expect(conceptsOf(invoiceRow({ concepts: { description: 'uno' } }))).toEqual([]);
    expect(conceptsOf(invoiceRow({ concepts: 'Caja' }))).toEqual([]);
  });
});

describe('customerOf', () => {
  it('answers the receiver as stored on the factura, e-mail included when there is one', () => {
    expect(customerOf(invoiceRow())).toEqual(CUSTOMER);
    const publico = { rfc: 'XAXX010101000', legal_name: 'PUBLICO EN GENERAL', tax_regime: '616', tax_zip: '', cfdi_use: 'S01' };
    expect(customerOf(invoiceRow({ customer: publico }))).toEqual(publico);
    expect(customerOf(invoiceRow({ customer: publico })).email).toBeUndefined();
  });
});
