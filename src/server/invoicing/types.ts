/**
 * The shapes the invoicing providers share: a factura as the shop stores it (public.invoices),
 * what issuing answers, and the provider itself.
 */
import type { Tables } from '~/data/database.types.ts';
import type { InvoiceConcept } from '~/domain/invoices.ts';

/** One row of public.invoices. */
export type InvoiceRow = Tables<'invoices'>;

/** The receiver as the factura states it (invoices.customer). */
interface InvoiceCustomer {
  rfc: string;
  legal_name: string;
  tax_regime: string;
  tax_zip: string;
  cfdi_use: string;
  email?: string | null;
}

/** What a provider answers once the SAT stamped the factura. */
export interface IssuedInvoice {
  providerId: string;
  /** The folio fiscal (UUID) the SAT assigned. */
  cfdiUuid: string;
  series: string | null;
  folio: string | null;
}

/** A factura's files. */
export type InvoiceFileFormat = 'pdf' | 'xml';

/** Cancellation motives the shop uses: '02' errors without a related CFDI, '03' the operation did not happen. */
export type CancelMotive = '02' | '03';

/** A provider that issues, serves and cancels facturas. */
export interface InvoiceProvider {
  /** 'facturapi' or 'simulated' (invoices.provider). */
  readonly name: 'facturapi' | 'simulated';
  /** True when the facturas have no fiscal validity (the simulated provider, Facturapi's test keys). */
  readonly testMode: boolean;
  /** Issues the factura; the same invoice id never issues twice at the provider. */
  issue(invoice: InvoiceRow): Promise<IssuedInvoice>;
  /** The PDF or XML of an issued factura. */
  download(invoice: InvoiceRow, format: InvoiceFileFormat): Promise<Uint8Array>;
  /** Cancels an issued factura. */
  cancel(invoice: InvoiceRow, motive: CancelMotive): Promise<void>;
}

/** The concepts stored on a factura (invoices.concepts). */
export function conceptsOf(invoice: InvoiceRow): InvoiceConcept[] {
  return Array.isArray(invoice.concepts) ? (invoice.concepts as unknown as InvoiceConcept[]) : [];
}

/** The receiver stored on a factura (invoices.customer). */
export function customerOf(invoice: InvoiceRow): InvoiceCustomer {
  return invoice.customer as unknown as InvoiceCustomer;
}
