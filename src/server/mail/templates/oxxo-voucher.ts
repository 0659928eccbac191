/**
 * The OXXO voucher e-mail, sent once per voucher: the amount, the reference, the deadline in
 * Mexico City time and the link to the printable voucher (in simulated mode, to the simulated
 * store counter). Spanish, HTML and plain text, every value escaped.
 */
import { groupReference, oxxoDeadline } from '~/domain/mexican-payments.ts';
import { centavos, formatCentavos } from '~/domain/money.ts';
import { orderDisplayId } from '~/domain/orders.ts';
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
  const voucherLabel = simulated ? 'Ver la ficha y simular pago en OXXO (modo de prueba)' : 'Ver e imprimir la ficha de pago';
  const text = [
    `Tu pedido ${number} está reservado hasta que pagues en OXXO.`,
    '',
    `Monto a pagar: ${amount}`,
    `Referencia: ${reference}`,
    deadline,
    ...(voucher.hostedVoucherUrl ? ['', `${voucherLabel}: ${voucher.hostedVoucherUrl}`] : []),
    '',
    `Tu pedido: ${orderLink}`,
  ].join('\n');
  const html = `<h1>Tu ficha de pago en OXXO</h1>
<p>Tu pedido <strong>${escape(number)}</strong> está reservado hasta que pagues en OXXO.</p>
<p>Monto a pagar: <strong>${escape(amount)}</strong><br>Referencia: <strong>${escape(reference)}</strong></p>
<p>${escape(deadline)}</p>
${voucher.hostedVoucherUrl ? `<p><a href="${escape(voucher.hostedVoucherUrl)}">${escape(voucherLabel)}</a></p>` : ''}
<p><a href="${escape(orderLink)}">Ver tu pedido</a></p>`;
  return { subject: `Ficha de pago OXXO de tu pedido ${number}`, html, text };
}
