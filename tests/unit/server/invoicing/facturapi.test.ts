/**
 * Facturapi's provider through the real SDK against the local Facturapi stub (an in-process HTTP
 * server, no local stack): the body each factura is created with, the answer mapped back, the
 * files downloaded, the cancellation with its motive, and what it refuses before asking.
 */
import type Facturapi from 'facturapi';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FacturapiProvider } from '~/server/invoicing/facturapi.ts';
import { startFacturapiStub, type FacturapiStub } from '../../../support/facturapi-stub.ts';
import { CUSTOMER, INVOICE_ID, invoiceRow } from './invoice-row.ts';

let stub: FacturapiStub;
let provider: FacturapiProvider;
const sdkOf = (p: FacturapiProvider) => (p as unknown as { client: Facturapi }).client;
const PUBLICO = { rfc: 'XAXX010101000', legal_name: 'PUBLICO EN GENERAL', tax_regime: '616', tax_zip: '', cfdi_use: 'S01' };
const otherId = (n: number) => `3f2b8c1e-7a4d-4e2f-9b1a-5c6d7e8f9a${String(n).padStart(2, '0')}`;

beforeAll(async () => {
  stub = await startFacturapiStub();
  provider = new FacturapiProvider(stub.key, '44100', stub.url);
});

afterAll(async () => {
  await stub?.stop();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('FacturapiProvider', () => {
  it('is in test mode only with a test key', () => {
    expect(provider).toMatchObject({ name: 'facturapi', testMode: true });
    expect(new FacturapiProvider('sk_live_abc').testMode).toBe(false);
  });

  it('creates the factura with the receiver inline, each item at its unit price with IVA included, and the invoice id as idempotency key', async () => {
    const issued = await provider.issue(invoiceRow({ provider: 'facturapi' }));
    const sent = stub.invoices.get(issued.providerId)!;
    expect(sent).toBeDefined();
    expect(issued.cfdiUuid).toBe(sent.uuid);
    expect(issued.series).toBe('F');
    expect(issued.folio).toBe(String(stub.invoices.size));
    expect(sent.body).toEqual({
      customer: { legal_name: CUSTOMER.legal_name, tax_id: CUSTOMER.rfc, tax_system: '612', email: 'facturas@ana.mx', address: { zip: '06700' } },
      items: [
        {
          quantity: 2,
          product: {
            description: 'Caja de sobres',
            product_key: '60141000',
            unit_key: 'H87',
            price: 1160,
            tax_included: true,
            taxes: [{ type: 'IVA', rate: 0.16 }],
            sku: 'pk-caja',
          },
        },
        {
          quantity: 1,
          product: { description: 'Envío', product_key: '78102203', unit_key: 'E48', price: 99, tax_included: true, taxes: [{ type: 'IVA', rate: 0.16 }] },
        },
      ],
      payment_form: '04',
      payment_method: 'PUE',
      use: 'G03',
      currency: 'MXN',
      external_id: INVOICE_ID,
      idempotency_key: INVOICE_ID,
    });
    // What Facturapi totals is exactly what the row says was paid.
    expect(sent.total).toBe(2419);
  });

  it('never stamps the same invoice id twice: the retry is refused by its idempotency key and creates nothing', async () => {
    const row = invoiceRow({ id: otherId(1) });
    await provider.issue(row);
    const count = stub.invoices.size;
    await expect(provider.issue(row)).rejects.toThrow();
    expect(stub.invoices.size).toBe(count);
  });

  it("issues the factura global to público en general at the issuer's postal code, with its month", async () => {
    const row = invoiceRow({ id: otherId(2), kind: 'global', order_id: null, period_year: 2023, period_month: 5, customer: PUBLICO });
    const issued = await provider.issue(row);
    expect(stub.invoices.get(issued.providerId)!.body).toMatchObject({
      customer: { tax_id: 'XAXX010101000', legal_name: 'PUBLICO EN GENERAL', tax_system: '616', address: { zip: '44100' } },
      use: 'S01',
      global: { periodicity: 'month', months: '05', year: 2023 },
    });
    expect(stub.invoices.get(issued.providerId)!.body.customer).not.toHaveProperty('email');
  });

  it('issues a credit note as a CFDI de egreso related to the factura global, with its month; refuses one without the folio', async () => {
    const GLOBAL_UUID = '6F1C2A3B-4D5E-4F60-8A1B-2C3D4E5F6A7B';
    const note = invoiceRow({
      id: otherId(50),
      kind: 'credit_note',
      user_id: null,
      provider: 'facturapi',
      customer: PUBLICO,
      concepts: [
        {
          description: 'Devolución del pedido #ABC123',
          quantity: 1,
          productKey: '84111506',
          unitKey: 'ACT',
          sku: 'ABC123',
          amount: 116000,
          discount: 0,
          base: 100000,
          iva: 16000,
        },
      ],
      subtotal: 1000,
      iva: 160,
      total: 1160,
      period_year: 2026,
      period_month: 5,
      related_invoice_id: otherId(51),
      related_cfdi_uuid: GLOBAL_UUID,
    });
    const issued = await provider.issue(note);
    expect(stub.invoices.get(issued.providerId)!.body).toMatchObject({
      type: 'E',
      related_documents: [{ relationship: '01', documents: [GLOBAL_UUID] }],
      customer: { tax_id: 'XAXX010101000', tax_system: '616', address: { zip: '44100' } },
      use: 'S01',
      payment_form: '04',
      payment_method: 'PUE',
      global: { periodicity: 'month', months: '05', year: 2026 },
      items: [{ quantity: 1, product: { product_key: '84111506', unit_key: 'ACT', price: 1160, tax_included: true } }],
      idempotency_key: otherId(50),
    });
    const before = stub.requests.length;
    await expect(provider.issue({ ...note, id: otherId(52), related_cfdi_uuid: null })).rejects.toThrow('folio fiscal de la factura global');
    expect(stub.requests.length).toBe(before);
  });

  it("refuses a factura to público en general without the issuer's postal code, before any request", async () => {
    const before = stub.requests.length;
    const noZip = new FacturapiProvider(stub.key, undefined, stub.url);
    await expect(noZip.issue(invoiceRow({ id: otherId(3), kind: 'global', period_year: 2023, period_month: 5, customer: PUBLICO }))).rejects.toThrow(
      'Falta el código postal del emisor',
    );
    expect(stub.requests.length).toBe(before);
  });

  it('rejects when Facturapi fails, so the queue records the failure', async () => {
    stub.failNext(1);
    await expect(provider.issue(invoiceRow({ id: otherId(4) }))).rejects.toThrow();
    expect([...stub.invoices.values()].some((i) => i.body.external_id === otherId(4))).toBe(false);
  });

  it('downloads the PDF and the XML of an issued factura', async () => {
    const issued = await provider.issue(invoiceRow({ id: otherId(5) }));
    const row = invoiceRow({ id: otherId(5), provider_id: issued.providerId });
    const pdf = Buffer.from(await provider.download(row, 'pdf')).toString('latin1');
    expect(pdf.startsWith('%PDF-')).toBe(true);
    expect(pdf).toContain(issued.providerId);
    const xml = Buffer.from(await provider.download(row, 'xml')).toString('utf8');
    expect(xml).toContain(`UUID="${issued.cfdiUuid}"`);
    expect(stub.requests.slice(-2)).toEqual([
      { method: 'GET', path: `/v2/invoices/${issued.providerId}/pdf` },
      { method: 'GET', path: `/v2/invoices/${issued.providerId}/xml` },
    ]);
  });

  it('reads a download answered as a string, bytes, a Node stream or a Blob, and refuses anything else', async () => {
    const local = new FacturapiProvider('sk_test_abc');
    const row = invoiceRow({ provider_id: 'inv_local' });
    const pdf = vi.spyOn(sdkOf(local).invoices, 'downloadPdf');
    const read = async (answer: unknown) => {
      pdf.mockResolvedValueOnce(answer as never);
      return Buffer.from(await local.download(row, 'pdf')).toString('utf8');
    };
    expect(await read('texto')).toBe('texto');
    expect(await read(new TextEncoder().encode('bytes'))).toBe('bytes');
    expect(await read(Readable.from([Buffer.from('flu'), 'jo']))).toBe('flujo');
    expect(await read(new Blob(['blob']))).toBe('blob');
    await expect(read({ nada: true })).rejects.toThrow('Facturapi: respuesta de descarga desconocida');
    expect(pdf).toHaveBeenCalledWith('inv_local');
  });

  it('cancels at Facturapi with the motive given', async () => {
    const issued = await provider.issue(invoiceRow({ id: otherId(6) }));
    await provider.cancel(invoiceRow({ id: otherId(6), provider_id: issued.providerId }), '03');
    expect(stub.invoices.get(issued.providerId)).toMatchObject({ status: 'canceled', cancellation_motive: '03' });
    const second = await provider.issue(invoiceRow({ id: otherId(7) }));
    await provider.cancel(invoiceRow({ id: otherId(7), provider_id: second.providerId }), '02');
    expect(stub.invoices.get(second.providerId)!.cancellation_motive).toBe('02');
  });

  it('refuses to download or cancel a factura without its provider id, before any request', async () => {
    const before = stub.requests.length;
    const row = invoiceRow({ provider_id: null });
    await expect(provider.download(row, 'pdf')).rejects.toThrow('La factura no tiene identificador del proveedor');
    await expect(provider.cancel(row, '03')).rejects.toThrow('La factura no tiene identificador del proveedor');
    expect(stub.requests.length).toBe(before);
  });
});
