/**
 * The simulated invoicing provider (no FACTURAPI_KEY in simulated payment mode): it stamps
 * nothing and moves nothing at the SAT. It "issues" a factura at once with a random folio fiscal,
 * and serves, from the factura's own row, a PDF anyone can open and an XML in the shape of a
 * CFDI 4.0 with the same data, both marked 'SIN VALIDEZ FISCAL'. Cancelling only records it.
 * A credit note against the factura global is a test CFDI de egreso (TipoDeComprobante 'E') with
 * its CfdiRelacionados (TipoRelacion '01', the global's folio fiscal) and the global's
 * InformacionGlobal, in the PDF and in the XML.
 */
import { randomUUID } from 'node:crypto';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { orderDisplayId } from '~/domain/orders.ts';
import { centavos, centavosToDecimalString, formatCentavos, formatMXN, toPesos } from '~/domain/money.ts';
import { INVOICE_SIMULATED_TEXT as TEXT } from '~/i18n/invoices.ts';
import { CREDIT_NOTE_SIMULATED_TEXT as CREDIT_NOTE } from '~/i18n/credit-notes.ts';
import { conceptsOf, customerOf, type InvoiceProvider, type InvoiceRow, type IssuedInvoice, type InvoiceFileFormat } from './types.ts';

/** The simulated issuer's postal code (LugarExpedicion, and público en general's fiscal address). */
const SIMULATED_ISSUER_ZIP = '06700';

const zipOf = (zip: string) => zip || SIMULATED_ISSUER_ZIP;

const money = (value: number) => formatCentavos(centavos(value));

/** Characters the PDF's standard font can write (WinAnsi); anything else becomes '?'. */
function printable(text: string): string {
  return text.normalize('NFC').replace(/[^\u0020-\u007e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac]/g, '?');
}

const DATE = new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeStyle: 'short', timeZone: 'America/Mexico_City' });

function issuedDate(invoice: InvoiceRow): string {
  return DATE.format(new Date(invoice.issued_at ?? invoice.created_at));
}

/** The test factura's PDF (one or more letter pages). */
async function simulatedInvoicePdf(invoice: InvoiceRow): Promise<Uint8Array> {
  const creditNote = invoice.kind === 'credit_note';
  const title = creditNote ? CREDIT_NOTE.title : TEXT.title;
  const doc = await PDFDocument.create();
  doc.setTitle(`${title} - ${TEXT.notValid}`);
  doc.setProducer(TEXT.issuerName);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const customer = customerOf(invoice);
  let page: PDFPage = doc.addPage([612, 792]);
  let y = 750;
  const line = (text: string, options: { size?: number; f?: PDFFont; x?: number; color?: [number, number, number] } = {}) => {
    const size = options.size ?? 10;
    if (y < 60) {
      page = doc.addPage([612, 792]);
      y = 750;
    }
    const [r, g, b] = options.color ?? [0, 0, 0];
    page.drawText(printable(text), { x: options.x ?? 50, y, size, font: options.f ?? font, color: rgb(r, g, b) });
    y -= size + 6;
  };
  line(TEXT.notValid, { size: 22, f: bold, color: [0.75, 0.1, 0.1] });
  line(title, { size: 14, f: bold });
  line(TEXT.notice, { size: 9 });
  y -= 6;
  line(TEXT.issuer, { f: bold });
  line(TEXT.folio(invoice.cfdi_uuid ?? '-'));
  line(TEXT.date(issuedDate(invoice)));
  if (invoice.order_id) line(TEXT.order(orderDisplayId(invoice.order_id)));
  if (invoice.kind === 'global' && invoice.period_month && invoice.period_year) {
    line(TEXT.period(String(invoice.period_month).padStart(2, '0'), invoice.period_year));
  }
  if (creditNote && invoice.period_month && invoice.period_year) {
    line(CREDIT_NOTE.period(String(invoice.period_month).padStart(2, '0'), invoice.period_year));
  }
  if (creditNote && invoice.related_cfdi_uuid) line(CREDIT_NOTE.related(invoice.related_cfdi_uuid));
  line(TEXT.paymentForm(invoice.payment_form));
  line(TEXT.paymentMethod(invoice.payment_method));
  y -= 6;
  line(TEXT.receiver, { f: bold });
  line(TEXT.rfc(customer.rfc));
  line(TEXT.legalName(customer.legal_name));
  line(TEXT.regime(customer.tax_regime));
  line(TEXT.zip(zipOf(customer.tax_zip)));
  line(TEXT.cfdiUse(customer.cfdi_use));
  y -= 10;
  const columns = [50, 85, 145, 190, 390, 460, 520];
  TEXT.columns.forEach((title, i) => page.drawText(printable(title), { x: columns[i]!, y, size: 9, font: bold }));
  y -= 15;
  for (const concept of conceptsOf(invoice)) {
    if (y < 60) {
      page = doc.addPage([612, 792]);
      y = 750;
    }
    const cells = [
      String(concept.quantity),
      concept.productKey,
      concept.unitKey,
      concept.description.length > 40 ? `${concept.description.slice(0, 39)}…` : concept.description,
      money(concept.base),
      money(concept.iva),
      money(concept.amount),
    ];
    cells.forEach((cell, i) => page.drawText(printable(cell), { x: columns[i]!, y, size: 8, font }));
    y -= 13;
  }
  y -= 10;
  line(TEXT.subtotal(formatMXN(invoice.subtotal)), { x: 400 });
  line(TEXT.iva(formatMXN(invoice.iva)), { x: 400 });
  line(TEXT.total(formatMXN(invoice.total)), { x: 400, f: bold });
  y -= 10;
  line(TEXT.notValid, { size: 16, f: bold, color: [0.75, 0.1, 0.1] });
  return doc.save();
}

const escapeXml = (value: string) => value.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
const pesos = (amount: number) => centavosToDecimalString(centavos(amount));

/** The test factura's XML: a CFDI 4.0 in shape, with the same data as the PDF, marked as a test. */
function simulatedInvoiceXml(invoice: InvoiceRow): string {
  const customer = customerOf(invoice);
  const concepts = conceptsOf(invoice);
  const attrs = (pairs: Record<string, string | number | null | undefined>) =>
    Object.entries(pairs)
      .filter(([, v]) => v !== null && v !== undefined && v !== '')
      .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
      .join('');
  const creditNote = invoice.kind === 'credit_note';
  const global =
    (invoice.kind === 'global' || creditNote) && invoice.period_month && invoice.period_year
      ? `\n  <cfdi:InformacionGlobal${attrs({ Periodicidad: '04', Meses: String(invoice.period_month).padStart(2, '0'), Año: invoice.period_year })}/>`
      : '';
  const related =
    creditNote && invoice.related_cfdi_uuid
      ? `\n  <cfdi:CfdiRelacionados${attrs({ TipoRelacion: '01' })}>\n    <cfdi:CfdiRelacionado${attrs({ UUID: invoice.related_cfdi_uuid })}/>\n  </cfdi:CfdiRelacionados>`
      : '';
  const items = concepts
    .map(
      (c) => `
    <cfdi:Concepto${attrs({
      ClaveProdServ: c.productKey,
      NoIdentificacion: c.sku,
      Cantidad: c.quantity,
      ClaveUnidad: c.unitKey,
      Descripcion: c.description,
      ValorUnitario: (toPesos(centavos(c.base)) / c.quantity).toFixed(6),
      Importe: pesos(c.base),
      ObjetoImp: '02',
    })}>
      <cfdi:Impuestos><cfdi:Traslados><cfdi:Traslado${attrs({ Base: pesos(c.base), Impuesto: '002', TipoFactor: 'Tasa', TasaOCuota: '0.160000', Importe: pesos(c.iva) })}/></cfdi:Traslados></cfdi:Impuestos>
    </cfdi:Concepto>`,
    )
    .join('');
  const base = concepts.reduce((a, c) => a + c.base, 0);
  const iva = concepts.reduce((a, c) => a + c.iva, 0);
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- ${escapeXml(creditNote ? CREDIT_NOTE.xmlComment : TEXT.xmlComment)} -->
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4"${attrs({
    Version: '4.0',
    Serie: invoice.series,
    Folio: invoice.folio,
    Fecha: new Date(invoice.issued_at ?? invoice.created_at).toISOString().slice(0, 19),
    FormaPago: invoice.payment_form,
    MetodoPago: invoice.payment_method,
    SubTotal: pesos(base),
    Moneda: 'MXN',
    Total: pesos(base + iva),
    TipoDeComprobante: creditNote ? 'E' : 'I',
    Exportacion: '01',
    LugarExpedicion: SIMULATED_ISSUER_ZIP,
  })}>${global}${related}
  <cfdi:Emisor${attrs({ Rfc: 'EKU9003173C9', Nombre: TEXT.xmlIssuerName, RegimenFiscal: '601' })}/>
  <cfdi:Receptor${attrs({ Rfc: customer.rfc, Nombre: customer.legal_name, DomicilioFiscalReceptor: zipOf(customer.tax_zip), RegimenFiscalReceptor: customer.tax_regime, UsoCFDI: customer.cfdi_use })}/>
  <cfdi:Conceptos>${items}
  </cfdi:Conceptos>
  <cfdi:Impuestos${attrs({ TotalImpuestosTrasladados: pesos(iva) })}>
    <cfdi:Traslados><cfdi:Traslado${attrs({ Base: pesos(base), Impuesto: '002', TipoFactor: 'Tasa', TasaOCuota: '0.160000', Importe: pesos(iva) })}/></cfdi:Traslados>
  </cfdi:Impuestos>
  <cfdi:Complemento>
    <tfd:TimbreFiscalDigital xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital"${attrs({ Version: '1.1', UUID: invoice.cfdi_uuid, SelloSAT: TEXT.xmlSeal })}/>
  </cfdi:Complemento>
</cfdi:Comprobante>
`;
}

export class SimulatedInvoiceProvider implements InvoiceProvider {
  readonly name = 'simulated' as const;
  readonly testMode = true;

  async issue(invoice: InvoiceRow): Promise<IssuedInvoice> {
    return { providerId: `sim_inv_${invoice.id}`, cfdiUuid: randomUUID().toUpperCase(), series: 'PRUEBA', folio: invoice.id.slice(-6).toUpperCase() };
  }

  async download(invoice: InvoiceRow, format: InvoiceFileFormat): Promise<Uint8Array> {
    return format === 'pdf' ? simulatedInvoicePdf(invoice) : new TextEncoder().encode(simulatedInvoiceXml(invoice));
  }

  async cancel(): Promise<void> {}
}
