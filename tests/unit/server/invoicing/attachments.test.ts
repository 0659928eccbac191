/**
 * A factura's PDF and XML as an e-mail's attachments, with a stand-in database and provider: the
 * references name the files like the downloads, the resolver downloads each file of an issued
 * factura with its content type, and every reason it cannot (not issued, another provider, the
 * provider failing, invoicing off) rejects, so the outbox retries the e-mail.
 */
import { describe, expect, it, vi } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { invoiceAttachmentRefs, invoiceAttachments, invoiceFileName } from '~/server/invoicing/attachments.ts';
import type { InvoiceProvider } from '~/server/invoicing/types.ts';
import { fakeSupabase, type Result } from '../../../support/fake-supabase.ts';
import { INVOICE_ID, invoiceRow } from './invoice-row.ts';

const issued = invoiceRow({ status: 'issued', provider: 'simulated', provider_id: 'sim_inv_1', cfdi_uuid: 'A1B2C3D4-0000-4000-8000-000000000001' });

function provider(download: InvoiceProvider['download']): InvoiceProvider {
  return { name: 'simulated', testMode: true, issue: vi.fn(), download: vi.fn(download), cancel: vi.fn() };
}

const admin = (rows: Result[]) => fakeSupabase({ invoices: rows }).client as unknown as SupabaseClient;

describe('invoiceFileName and invoiceAttachmentRefs', () => {
  it("names an order's files by the order's number and a global's by its month, as the downloads do", () => {
    expect(invoiceFileName(issued, 'pdf')).toBe('factura-28950E.pdf');
    expect(invoiceFileName({ order_id: null, period_year: 2026, period_month: 5 }, 'xml')).toBe('factura-global-2026-05.xml');
    expect(invoiceAttachmentRefs(issued)).toEqual([
      { source: 'invoice', invoice_id: INVOICE_ID, format: 'pdf', filename: 'factura-28950E.pdf' },
      { source: 'invoice', invoice_id: INVOICE_ID, format: 'xml', filename: 'factura-28950E.xml' },
    ]);
  });
});

describe('invoiceAttachments', () => {
  it("downloads an issued factura's PDF and XML from its provider, each with its content type", async () => {
    const files = { pdf: new TextEncoder().encode('%PDF-1.7 prueba'), xml: new TextEncoder().encode('<cfdi:Comprobante/>') };
    const p = provider(async (_row, format) => files[format]);
    const resolve = invoiceAttachments(admin([{ data: issued, error: null }]), p);
    const attached = await resolve(invoiceAttachmentRefs(issued));
    expect(attached).toEqual([
      { filename: 'factura-28950E.pdf', contentType: 'application/pdf', content: files.pdf },
      { filename: 'factura-28950E.xml', contentType: 'application/xml; charset=utf-8', content: files.xml },
    ]);
    expect(p.download).toHaveBeenCalledTimes(2);
    expect(vi.mocked(p.download).mock.calls.map(([row, format]) => [row.id, format])).toEqual([
      [INVOICE_ID, 'pdf'],
      [INVOICE_ID, 'xml'],
    ]);
  });

  it('rejects when the factura is not issued, belongs to another provider, cannot be downloaded or invoicing is off', async () => {
    const ok = provider(async () => new Uint8Array([1]));
    const refs = invoiceAttachmentRefs(issued);
    await expect(invoiceAttachments(admin([{ data: { ...issued, status: 'failed', provider_id: null }, error: null }]), ok)(refs)).rejects.toThrow(
      `la factura ${INVOICE_ID} no está emitida`,
    );
    await expect(invoiceAttachments(admin([{ data: null, error: null }]), ok)(refs)).rejects.toThrow('no está emitida');
    await expect(invoiceAttachments(admin([{ data: { ...issued, provider: 'facturapi' }, error: null }]), ok)(refs)).rejects.toThrow('otro proveedor');
    const failing = provider(async () => {
      throw new Error('Facturapi: 503');
    });
    await expect(invoiceAttachments(admin([{ data: issued, error: null }]), failing)(refs)).rejects.toThrow(
      `no se pudo descargar la factura ${INVOICE_ID}: Facturapi: 503`,
    );
    await expect(invoiceAttachments(admin([{ data: null, error: { message: 'connection refused' } }]), ok)(refs)).rejects.toThrow('connection refused');
    await expect(invoiceAttachments(admin([{ data: issued, error: null }]), null)(refs)).rejects.toThrow('la facturación no está disponible');
    expect(await invoiceAttachments(admin([]), null)([])).toEqual([]);
  });
});
