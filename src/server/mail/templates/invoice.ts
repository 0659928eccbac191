/**
 * The e-mails of a factura: issued (its folio fiscal; the PDF and XML go attached, and the link says
 * where to download them again) and
 * cancelled because its order was refunded. Every value escaped.
 */
import { orderDisplayId } from '~/domain/orders.ts';
import { MAIL_INVOICE_TEXT as TEXT } from '~/i18n/invoices.ts';
import { escapeHtml as escape } from '../html.ts';

/** The Orders tab, where the factura's PDF and XML are downloaded. */
function ordersLink(siteUrl: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/account?tab=orders`;
}

export function invoiceIssuedEmail(input: { orderId: string; cfdiUuid: string | null; siteUrl: string; testMode: boolean }): {
  subject: string;
  html: string;
  text: string;
} {
  const number = orderDisplayId(input.orderId);
  const link = ordersLink(input.siteUrl);
  const lines = [TEXT.issued(number), ...(input.cfdiUuid ? [TEXT.folio(input.cfdiUuid)] : []), ...(input.testMode ? [TEXT.testMode] : [])];
  const text = [...lines, '', TEXT.download, link].join('\n');
  const html = `<p>${lines.map(escape).join('<br>')}</p>
<p>${escape(TEXT.download)} <a href="${escape(link)}">${escape(TEXT.viewOrders)}</a></p>`;
  return { subject: TEXT.issuedSubject(number), html, text };
}

export function invoiceCancelledEmail(input: { orderId: string; cfdiUuid: string | null; siteUrl: string }): { subject: string; html: string; text: string } {
  const number = orderDisplayId(input.orderId);
  const link = ordersLink(input.siteUrl);
  const lines = [TEXT.cancelled(number), ...(input.cfdiUuid ? [TEXT.cancelledFolio(input.cfdiUuid)] : [])];
  const text = [...lines, '', link].join('\n');
  const html = `<p>${lines.map(escape).join('<br>')}</p>
<p><a href="${escape(link)}">${escape(TEXT.viewOrders)}</a></p>`;
  return { subject: TEXT.cancelledSubject(number), html, text };
}
