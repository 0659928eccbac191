/**
 * The OXXO voucher e-mail, sent once per voucher: the amount, the reference, the deadline in
 * Mexico City time and the link to the printable voucher (in simulated mode, to the simulated
 * store counter). Spanish, HTML and plain text, every value escaped.
 */
import { groupReference, oxxoDeadline } from '~/domain/mexican-payments.ts';
import { centavos, formatCentavos } from '~/domain/money.ts';
import { orderDisplayId } from '~/domain/orders.ts';
import { MAIL_OXXO_VOUCHER_TEXT as TEXT } from '~/i18n/mail.ts';
import { escapeHtml as escape } from '../html.ts';

/** What the e-mail shows of a voucher (an OxxoVoucher of the card provider fits). */
export interface VoucherForEmail {
  reference: string;
  /** ISO time after which the store no longer takes it. */
  expiresAt: string;
  /** Integer centavos. */
  amount: number;
  hostedVoucherUrl: string | null;
}

/** The voucher e-mail: amount, reference, deadline and the link to the voucher. */
export function oxxoVoucherEmail(input: { orderId: string; voucher: VoucherForEmail; siteUrl: string }): { subject: string; html: string; text: string } {
  const number = orderDisplayId(input.orderId);
  const { voucher } = input;
  const amount = formatCentavos(centavos(voucher.amount));
  const reference = groupReference(voucher.reference);
  const deadline = oxxoDeadline(voucher.expiresAt);
  const orderLink = `${input.siteUrl.replace(/\/+$/, '')}/checkout/${input.orderId}`;
  const simulated = voucher.hostedVoucherUrl?.includes('/api/payments/simulated/oxxo/') ?? false;
  const voucherLabel = simulated ? TEXT.simulatedVoucher : TEXT.voucher;
  const text = [
    TEXT.reserved(number),
    '',
    TEXT.amount(amount),
    TEXT.reference(reference),
    deadline,
    ...(voucher.hostedVoucherUrl ? ['', `${voucherLabel}: ${voucher.hostedVoucherUrl}`] : []),
    '',
    TEXT.orderLine(orderLink),
  ].join('\n');
  const html = `<h1>${TEXT.heading}</h1>
<p>${TEXT.reserved(`<strong>${escape(number)}</strong>`)}</p>
<p>${TEXT.amount(`<strong>${escape(amount)}</strong>`)}<br>${TEXT.reference(`<strong>${escape(reference)}</strong>`)}</p>
<p>${escape(deadline)}</p>
${voucher.hostedVoucherUrl ? `<p><a href="${escape(voucher.hostedVoucherUrl)}">${escape(voucherLabel)}</a></p>` : ''}
<p><a href="${escape(orderLink)}">${TEXT.viewOrder}</a></p>`;
  return { subject: TEXT.subject(number), html, text };
}
