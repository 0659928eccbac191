/**
 * A factura's PDF and XML as e-mail attachments. The outbox stores only references
 * (mail_outbox.attachments); when it sends, this resolver reads the factura's row and downloads
 * the files from the provider that issued it, as the Orders tab's downloads do. Any failure
 * rejects, so the outbox records it and sends the e-mail again later.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/data/database.types.ts';
import { orderDisplayId } from '~/domain/orders.ts';
import { MAIL_ATTACHMENT_TEXT } from '~/i18n/invoices.ts';
import type { AttachmentResolver, MailAttachment, MailAttachmentRef } from '../mail/types.ts';
import type { InvoiceFileFormat, InvoiceProvider, InvoiceRow } from './types.ts';

/** The content type of each of a factura's files. */
export const INVOICE_FILE_TYPES: Record<InvoiceFileFormat, string> = { pdf: 'application/pdf', xml: 'application/xml; charset=utf-8' };

/**
 * A factura's file name, the same for a download and an attachment: factura-ABC123.pdf,
 * factura-global-2026-05.xml, and a credit note's nota-credito-ABC123.pdf.
 */
export function invoiceFileName(row: Pick<InvoiceRow, 'order_id' | 'period_year' | 'period_month'> & { kind?: string }, format: InvoiceFileFormat): string {
  const name = row.order_id ? orderDisplayId(row.order_id).slice(1) : `global-${row.period_year}-${String(row.period_month).padStart(2, '0')}`;
  return `${row.kind === 'credit_note' ? 'nota-credito' : 'factura'}-${name}.${format}`;
}

/** The references an issued factura's e-mail stores: its PDF and its XML. */
export function invoiceAttachmentRefs(row: Pick<InvoiceRow, 'id' | 'order_id' | 'period_year' | 'period_month'>): MailAttachmentRef[] {
  return (['pdf', 'xml'] as const).map((format) => ({ source: 'invoice', invoice_id: row.id, format, filename: invoiceFileName(row, format) }));
}

const ISSUED = new Set(['issued', 'cancelling', 'cancelled']);

/** Fetches facturas' files from `provider` (null: invoicing is off here, every attempt fails). */
export function invoiceAttachments(admin: SupabaseClient<Database>, provider: InvoiceProvider | null): AttachmentResolver {
  return async (refs) => {
    const files: MailAttachment[] = [];
    for (const ref of refs) {
      if (!provider) throw new Error(MAIL_ATTACHMENT_TEXT.unavailable);
      const { data, error } = await admin.from('invoices').select('*').eq('id', ref.invoice_id).maybeSingle();
      if (error) throw new Error(MAIL_ATTACHMENT_TEXT.downloadFailed(ref.invoice_id, error.message));
      const row = data as InvoiceRow | null;
      if (!row || !row.provider_id || !ISSUED.has(row.status)) throw new Error(MAIL_ATTACHMENT_TEXT.invoiceNotIssued(ref.invoice_id));
      if (row.provider !== provider.name) throw new Error(MAIL_ATTACHMENT_TEXT.otherProvider(ref.invoice_id, row.provider));
      let content: Uint8Array;
      try {
        content = await provider.download(row, ref.format);
      } catch (err) {
        throw new Error(MAIL_ATTACHMENT_TEXT.downloadFailed(ref.invoice_id, err instanceof Error ? err.message : String(err)), { cause: err });
      }
      files.push({ filename: ref.filename, contentType: INVOICE_FILE_TYPES[ref.format], content });
    }
    return files;
  };
}
