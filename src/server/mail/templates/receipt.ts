/**
 * The confirmation e-mail of a paid order, in Spanish, as HTML and plain text, every value
 * escaped: its lines, totals, how it was paid and where it ships (the order's address copy on
 * several lines, in the order a courier reads it, with who receives it).
 */
import { addressLines, type AddressParts } from '~/domain/address-copy.ts';
import { MAIL_ADDRESS_TEXT } from '~/i18n/addresses.ts';
import { installmentLabel } from '~/domain/mexican-payments.ts';
import { paymentMethodLabel } from '~/domain/payment-methods.ts';
import { PAYMENT_METHOD_LABELS } from '~/i18n/orders.ts';
import { type Centavos, formatCentavos } from '~/domain/money.ts';
import { orderDisplayId } from '~/domain/orders.ts';
import { MAIL_RECEIPT_TEXT as TEXT } from '~/i18n/mail.ts';
import { invoiceWindowEnd } from '~/domain/invoices.ts';
import { MAIL_INVOICE_TEXT as INVOICE_TEXT } from '~/i18n/invoices.ts';
import { escapeHtml as escape } from '../html.ts';

const INVOICE_DAY = new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeZone: 'America/Mexico_City' });

/** One product line of the confirmation e-mail: the unit price paid, and a single card's offer. */
export interface ReceiptLine {
  name: string;
  /** 'LP · Inglés · Parallel'; null or absent for a product sold as a whole. */
  offerLabel?: string | null;
  quantity: number;
  price: Centavos;
}

/** 'Monkey.D.Luffy (OP05-119), LP · Inglés · Parallel × 1 — $850.00' */
function receiptRow(line: ReceiptLine): string {
  const name = line.offerLabel ? `${line.name}, ${line.offerLabel}` : line.name;
  return `${name} × ${line.quantity} — ${formatCentavos(line.price)}`;
}

/**
 * 'Forma de pago: tarjeta', 'Forma de pago: 6 meses sin intereses de $583.17', 'Forma de pago:
 * efectivo en OXXO', 'Forma de pago: PayPal', 'Forma de pago: saldo a favor'; null when the order
 * says nothing the shop can name (never the provider's internal name).
 */
function paymentLine(payment: { method: string | null; installments: number | null; provider: string | null }, total: Centavos): string | null {
  const label = paymentMethodLabel(payment, { inSentence: true });
  if (!label) return null;
  // A plan says what each month costs.
  if (label === PAYMENT_METHOD_LABELS.installments.inSentence && payment.installments) return TEXT.paidWith(installmentLabel(total, payment.installments));
  return TEXT.paidWith(label);
}

/** The confirmation e-mail of a paid order, in Spanish, as HTML and plain text. */
export function receiptEmail(order: {
  id: string;
  subtotal: Centavos;
  discount: Centavos;
  shipping: Centavos;
  total: Centavos;
  lines: ReceiptLine[];
  /** The order's address copy (orders.shipping_address); null: nothing to ship to yet. */
  address: AddressParts | null;
  /** Who receives it (the account's name), the address's first line with the phone. */
  recipient?: string | null;
  siteUrl: string;
  /** Months of 'meses sin intereses'; null or absent: a single payment. */
  installments?: number | null;
  /** orders.payment_method ('card', 'oxxo', 'paypal', 'store_credit'). */
  method?: string | null;
  /** orders.payment_provider, only to name the method of an order that has none; never shown. */
  payment_provider?: string | null;
  /** When the order was paid (ms; the receipt is sent then): 'Solicitar factura' until the end of that month. */
  paidAtMs?: number;
}): { subject: string; html: string; text: string } {
  const number = orderDisplayId(order.id);
  const subject = TEXT.subject(number);
  const { total, shipping } = order;
  const paidWith = paymentLine({ method: order.method ?? null, installments: order.installments ?? null, provider: order.payment_provider ?? null }, total);
  const rows = order.lines.map(receiptRow);
  const totals = [
    TEXT.subtotal(formatCentavos(order.subtotal)),
    TEXT.discount(formatCentavos(order.discount)),
    TEXT.shipping(shipping === 0 ? TEXT.freeShipping : formatCentavos(shipping)),
    TEXT.totalPaid(formatCentavos(total)),
    ...(paidWith ? [paidWith] : []),
  ];
  const link = `${order.siteUrl.replace(/\/+$/, '')}/checkout/${order.id}`;
  const invoiceLink = `${order.siteUrl.replace(/\/+$/, '')}/account?tab=orders`;
  const invoiceUntil = INVOICE_DAY.format(new Date(invoiceWindowEnd(order.paidAtMs ?? Date.now()) - 1));
  const shipTo = order.address ? addressLines(order.address, { name: order.recipient ?? null }) : [];
  const text = [
    TEXT.thanks,
    TEXT.paid(number),
    '',
    ...rows,
    '',
    ...totals,
    ...(shipTo.length > 0 ? ['', MAIL_ADDRESS_TEXT.shipTo, ...shipTo] : []),
    '',
    TEXT.details(link),
    '',
    INVOICE_TEXT.receiptLinkHelp(invoiceUntil),
    invoiceLink,
  ].join('\n');
  const html = `<h1>${TEXT.heading}</h1>
<p>${TEXT.paid(`<strong>${escape(number)}</strong>`)}</p>
<ul>${rows.map((r) => `<li>${escape(r)}</li>`).join('')}</ul>
<p>${totals.map(escape).join('<br>')}</p>
${shipTo.length > 0 ? `<p><strong>${MAIL_ADDRESS_TEXT.shipTo}</strong><br>${shipTo.map(escape).join('<br>')}</p>` : ''}
<p><a href="${escape(link)}">${TEXT.viewOrder}</a></p>
<p>${escape(INVOICE_TEXT.receiptLinkHelp(invoiceUntil))} <a href="${escape(invoiceLink)}">${INVOICE_TEXT.receiptLink}</a></p>`;
  return { subject, html, text };
}
