/**
 * The simulated provider: a factura "issued" at once with a fresh folio fiscal, a PDF whose text
 * says 'SIN VALIDEZ FISCAL' with the receiver and totals of the row, an XML in the shape of a
 * CFDI 4.0 whose totals are the concepts' sums, and a cancellation that only records it.
 */
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { SimulatedInvoiceProvider } from '~/server/invoicing/simulated.ts';
import { pdfText } from '../../../support/pdf-text.ts';
import { CONCEPTS, INVOICE_ID, invoiceRow } from './invoice-row.ts';

const provider = new SimulatedInvoiceProvider();
const UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/;
const issuedRow = invoiceRow({ cfdi_uuid: 'AAAABBBB-CCCC-4DDD-8EEE-FFFF00001111', provider_id: `sim_inv_${INVOICE_ID}` });

const xmlOf = async (row = issuedRow) => new TextDecoder().decode(await provider.download(row, 'xml'));
const attr = (xml: string, element: string, name: string) => new RegExp(`<cfdi:${element}\\b[^>]*\\s${name}="([^"]*)"`).exec(xml)?.[1];

describe('SimulatedInvoiceProvider', () => {
  it('is the simulated provider, in test mode', () => {
    expect(provider.name).toBe('simulated');
    expect(provider.testMode).toBe(true);
  });

  it('issues at once with a new upper-case folio fiscal each time, series PRUEBA and the id as folio', async () => {
    const first = await provider.issue(invoiceRow());
    const second = await provider.issue(invoiceRow());
    expect(first).toMatchObject({ providerId: `sim_inv_${INVOICE_ID}`, series: 'PRUEBA', folio: INVOICE_ID.slice(-6).toUpperCase() });
    expect(first.cfdiUuid).toMatch(UUID);
    expect(second.cfdiUuid).toMatch(UUID);
    expect(second.cfdiUuid).not.toBe(first.cfdiUuid);
  });

  it("serves a PDF saying 'SIN VALIDEZ FISCAL' with the receiver, folio fiscal, order, concepts and totals", async () => {
    const bytes = await provider.download(issuedRow, 'pdf');
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const text = pdfText(bytes);
    expect(text.match(/SIN VALIDEZ FISCAL/g)).toHaveLength(2);
    for (const expected of [
      'RFC: GODE561231GR8',
      'Razón social: Ana García López',
      'Régimen fiscal: 612',
      'Código postal fiscal: 06700',
      'Uso del CFDI: G03',
      'Folio fiscal (simulado): AAAABBBB-CCCC-4DDD-8EEE-FFFF00001111',
      'Pedido: #28950E',
      'Fecha: 20 de noviembre de 2026',
      'Forma de pago: 04',
      'Método de pago: PUE',
      'Caja de sobres',
      '$2,320.00',
      'Subtotal: $2,085.34',
      'IVA 16%: $333.66',
      'Total: $2,419.00',
    ])
      expect(text).toContain(expected);
    const doc = await PDFDocument.load(bytes);
    expect(doc.getTitle()).toBe('Factura de prueba (CFDI 4.0) - SIN VALIDEZ FISCAL');
    expect(doc.getPageCount()).toBe(1);
  });

  it('writes what the standard font cannot as ?, and runs long facturas over more pages', async () => {
    const many = Array.from({ length: 80 }, (_, i) => ({ ...CONCEPTS[0]!, description: `Carta ${i + 1}` }));
    const row = invoiceRow({ customer: { ...(issuedRow.customer as object), legal_name: 'Łódź' }, concepts: many });
    const bytes = await provider.download(row, 'pdf');
    const text = pdfText(bytes);
    expect(text).toContain('Razón social: ?ód?');
    expect(text).toContain('Carta 80');
    expect((await PDFDocument.load(bytes)).getPageCount()).toBeGreaterThan(1);
  });

  it('serves an XML marked as a test whose totals are the sums of its concepts, as the row states them', async () => {
    const xml = await xmlOf();
    expect(xml).toContain('<!-- SIN VALIDEZ FISCAL');
    expect(attr(xml, 'Comprobante', 'Version')).toBe('4.0');
    expect(attr(xml, 'Comprobante', 'SubTotal')).toBe('2085.34');
    expect(attr(xml, 'Comprobante', 'Total')).toBe('2419.00');
    expect(Number(attr(xml, 'Comprobante', 'Total'))).toBe(issuedRow.total);
    expect(Number(attr(xml, 'Comprobante', 'SubTotal'))).toBe(issuedRow.subtotal);
    expect(attr(xml, 'Impuestos', 'TotalImpuestosTrasladados')).toBe('333.66');
    expect(attr(xml, 'Comprobante', 'FormaPago')).toBe('04');
    expect(attr(xml, 'Comprobante', 'MetodoPago')).toBe('PUE');
    expect(attr(xml, 'Comprobante', 'Fecha')).toBe('2026-11-20T18:30:00');
    expect(attr(xml, 'Receptor', 'Rfc')).toBe('GODE561231GR8');
    expect(attr(xml, 'Receptor', 'Nombre')).toBe('Ana García López');
    expect(attr(xml, 'Receptor', 'DomicilioFiscalReceptor')).toBe('06700');
    expect(attr(xml, 'Receptor', 'UsoCFDI')).toBe('G03');
    expect(xml).toContain('UUID="AAAABBBB-CCCC-4DDD-8EEE-FFFF00001111"');
    expect(xml).toContain('SelloSAT="SIN-VALIDEZ-FISCAL"');
    const importes = [...xml.matchAll(/<cfdi:Concepto\b[^>]*\sImporte="([^"]*)"/g)].map((m) => m[1]);
    expect(importes).toEqual(['2000.00', '85.34']);
    expect(attr(xml, 'Concepto', 'ValorUnitario')).toBe('1000.000000');
    expect(attr(xml, 'Concepto', 'NoIdentificacion')).toBe('pk-caja');
    expect(xml).not.toContain('InformacionGlobal');
  });

  it("writes a factura global's period, the issuer's postal code for público en general, and escapes the receiver's name", async () => {
    const row = invoiceRow({
      kind: 'global',
      order_id: null,
      period_year: 2023,
      period_month: 5,
      customer: { rfc: 'XAXX010101000', legal_name: 'PUBLICO <EN> "GENERAL" & CIA', tax_regime: '616', tax_zip: '', cfdi_use: 'S01' },
    });
    const xml = await xmlOf(row);
    expect(xml).toContain('<cfdi:InformacionGlobal Periodicidad="04" Meses="05" Año="2023"/>');
    expect(attr(xml, 'Receptor', 'DomicilioFiscalReceptor')).toBe('06700');
    expect(attr(xml, 'Receptor', 'Nombre')).toBe('PUBLICO &lt;EN&gt; &quot;GENERAL&quot; &amp; CIA');
    const text = pdfText(await provider.download(row, 'pdf'));
    expect(text).toContain('Factura global · Periodicidad mensual (04) · Mes 05 · Año 2023');
    expect(text).not.toContain('Pedido:');
  });

  it('serves a credit note as a test CFDI de egreso related to the factura global, in the PDF and the XML', async () => {
    const GLOBAL_UUID = '6F1C2A3B-4D5E-4F60-8A1B-2C3D4E5F6A7B';
    const note = invoiceRow({
      ...issuedRow,
      kind: 'credit_note',
      user_id: null,
      customer: { rfc: 'XAXX010101000', legal_name: 'PUBLICO EN GENERAL', tax_regime: '616', tax_zip: '', cfdi_use: 'S01' },
      concepts: [
        {
          description: 'Devolución del pedido #ABC123',
          quantity: 1,
          productKey: '84111506',
          unitKey: 'ACT',
          sku: 'ABC123',
          amount: 20000,
          discount: 0,
          base: 17241,
          iva: 2759,
        },
      ],
      subtotal: 172.41,
      iva: 27.59,
      total: 200,
      period_year: 2026,
      period_month: 5,
      related_cfdi_uuid: GLOBAL_UUID,
    });
    const text = pdfText(await provider.download(note, 'pdf'));
    expect(text).toContain('SIN VALIDEZ FISCAL');
    expect(text).toContain('Nota de crédito de prueba (CFDI 4.0 de egreso)');
    expect(text).toContain(`CFDI relacionado (01 Nota de crédito de los documentos relacionados): ${GLOBAL_UUID}`);
    expect(text).not.toContain('Factura de prueba (CFDI 4.0)');
    const xml = await xmlOf(note);
    expect(xml).toContain('SIN VALIDEZ FISCAL');
    expect(attr(xml, 'Comprobante', 'TipoDeComprobante')).toBe('E');
    expect(attr(xml, 'CfdiRelacionados', 'TipoRelacion')).toBe('01');
    expect(attr(xml, 'CfdiRelacionado', 'UUID')).toBe(GLOBAL_UUID);
    expect(attr(xml, 'InformacionGlobal', 'Meses')).toBe('05');
    expect(attr(xml, 'Comprobante', 'SubTotal')).toBe('172.41');
    expect(attr(xml, 'Comprobante', 'Total')).toBe('200.00');
    // CFDI 4.0's order: InformacionGlobal, CfdiRelacionados, Emisor.
    expect(xml.indexOf('<cfdi:InformacionGlobal')).toBeLessThan(xml.indexOf('<cfdi:CfdiRelacionados'));
    expect(xml.indexOf('<cfdi:CfdiRelacionados')).toBeLessThan(xml.indexOf('<cfdi:Emisor'));
    // An ordinary factura stays an ingreso with nothing related.
    const plain = await xmlOf();
    expect(attr(plain, 'Comprobante', 'TipoDeComprobante')).toBe('I');
    expect(plain).not.toContain('CfdiRelacionados');
  });

  it('cancels without error', async () => {
    await expect(provider.cancel()).resolves.toBeUndefined();
  });
});
