/**
 * Live facturas through Facturapi's official Node SDK (`FACTURAPI_KEY`, server only). Each factura
 * is created with the receiver's data inline (no stored customer), one item per concept priced
 * at what was paid with IVA included (`tax_included: true`, IVA 16%), the SAT payment form and
 * 'PUE', the uso del CFDI, and the shop's invoice id as `idempotency_key` and `external_id`: a
 * retry after a timeout answers the factura already created instead of stamping a second one.
 * The factura global carries its InformacionGlobal (`global`: monthly, month, year). A credit
 * note against a global is a CFDI de egreso (`type: 'E'`) to the same público en general, with the
 * global's InformacionGlobal and `related_documents: [{relationship: '01', documents: [its folio
 * fiscal]}]` (Facturapi's shape for CfdiRelacionados).
 */
import Facturapi from 'facturapi';
import type { InvoiceRow, InvoiceProvider, IssuedInvoice, InvoiceFileFormat, CancelMotive } from './types.ts';
import { conceptsOf, customerOf } from './types.ts';
import { PUBLIC_RFC, unitPricePesos } from '~/domain/invoices.ts';
import { INVOICE_PROVIDER_ERROR_TEXT as ERROR } from '~/i18n/invoices.ts';
import { CREDIT_NOTE_PROVIDER_ERROR_TEXT as CREDIT_NOTE_ERROR } from '~/i18n/credit-notes.ts';

type NodeStream = { on(event: string, listener: (arg?: unknown) => void): unknown };

/** The bytes of a download, whether the SDK answered a Blob, a Node stream, a string or bytes. */
async function bytesOf(result: unknown): Promise<Uint8Array> {
  if (result instanceof Uint8Array) return result;
  if (typeof result === 'string') return new TextEncoder().encode(result);
  if (result && typeof (result as Blob).arrayBuffer === 'function') return new Uint8Array(await (result as Blob).arrayBuffer());
  if (result && typeof (result as NodeStream).on === 'function') {
    const stream = result as NodeStream;
    return new Promise((resolve, reject) => {
      const chunks: Uint8Array[] = [];
      stream.on('data', (chunk) => chunks.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : (chunk as Uint8Array)));
      stream.on('end', () => resolve(Buffer.concat(chunks)));
      stream.on('error', (err) => reject(err instanceof Error ? err : new Error(String(err))));
    });
  }
  throw new Error(ERROR.unknownDownload);
}

/** The request body Facturapi's POST /invoices takes for one of the shop's facturas. */
function facturapiInvoiceBody(invoice: InvoiceRow, issuerZip?: string): Record<string, unknown> {
  const customer = customerOf(invoice);
  // Público en general's fiscal address is the issuer's own postal code (SAT, CFDI 4.0).
  const zip = customer.rfc === PUBLIC_RFC && !customer.tax_zip ? issuerZip : customer.tax_zip;
  if (!zip) throw new Error(ERROR.noIssuerZip);
  const body: Record<string, unknown> = {
    customer: {
      legal_name: customer.legal_name,
      tax_id: customer.rfc,
      tax_system: customer.tax_regime,
      ...(customer.email ? { email: customer.email } : {}),
      address: { zip },
    },
    items: conceptsOf(invoice).map((concept) => ({
      quantity: concept.quantity,
      product: {
        description: concept.description,
        product_key: concept.productKey,
        unit_key: concept.unitKey,
        price: unitPricePesos(concept),
        tax_included: true,
        taxes: [{ type: 'IVA', rate: 0.16 }],
        ...(concept.sku ? { sku: concept.sku } : {}),
      },
    })),
    payment_form: invoice.payment_form,
    payment_method: invoice.payment_method,
    use: customer.cfdi_use,
    currency: 'MXN',
    external_id: invoice.id,
    idempotency_key: invoice.id,
  };
  // A credit note to público en general states the InformacionGlobal of the global it credits.
  if ((invoice.kind === 'global' || invoice.kind === 'credit_note') && customer.rfc === PUBLIC_RFC) {
    body.global = { periodicity: 'month', months: String(invoice.period_month).padStart(2, '0'), year: invoice.period_year };
  }
  if (invoice.kind === 'credit_note') {
    // CFDI de egreso related to the factura global: TipoRelacion '01', nota de crédito de los documentos relacionados.
    if (!invoice.related_cfdi_uuid) throw new Error(CREDIT_NOTE_ERROR.noRelatedDocument);
    body.type = 'E';
    body.related_documents = [{ relationship: '01', documents: [invoice.related_cfdi_uuid] }];
  }
  return body;
}

export class FacturapiProvider implements InvoiceProvider {
  readonly name = 'facturapi' as const;
  readonly testMode: boolean;
  private readonly client: Facturapi;

  /**
   * `issuerZip` is the shop's own postal code (FACTURAPI_ISSUER_ZIP: the factura global's
   * receiver); `apiBase` points the SDK elsewhere (a local stub in tests).
   */
  constructor(
    apiKey: string,
    private readonly issuerZip?: string,
    apiBase?: string,
  ) {
    this.client = new Facturapi(apiKey);
    if (apiBase) this.client.BASE_URL = apiBase;
    this.testMode = apiKey.startsWith('sk_test_');
  }

  async issue(invoice: InvoiceRow): Promise<IssuedInvoice> {
    const created = await this.client.invoices.create(facturapiInvoiceBody(invoice, this.issuerZip));
    return {
      providerId: created.id,
      cfdiUuid: created.uuid,
      series: created.series ? String(created.series) : null,
      folio: created.folio_number !== undefined && created.folio_number !== null ? String(created.folio_number) : null,
    };
  }

  async download(invoice: InvoiceRow, format: InvoiceFileFormat): Promise<Uint8Array> {
    const id = invoice.provider_id;
    if (!id) throw new Error(ERROR.noProviderId);
    return bytesOf(format === 'pdf' ? await this.client.invoices.downloadPdf(id) : await this.client.invoices.downloadXml(id));
  }

  async cancel(invoice: InvoiceRow, motive: CancelMotive): Promise<void> {
    const id = invoice.provider_id;
    if (!id) throw new Error(ERROR.noProviderId);
    await this.client.invoices.cancel(id, { motive: motive as Parameters<Facturapi['invoices']['cancel']>[1]['motive'] });
  }
}
