/**
 * The e-mail of cash paid at OXXO that its order could not take, credited to the shopper's
 * balance ('saldo a favor'): the amount, the new balance and how such money comes back. Spanish,
 * HTML and plain text, every value escaped.
 */
import { centavos, formatCentavos } from '~/domain/money.ts';
import { orderDisplayId } from '~/domain/orders.ts';
import { oxxoCreditedMessage } from '~/domain/store-credit.ts';
import { STORE_CREDIT_MESSAGES } from '~/i18n/orders.ts';
import { MAIL_OXXO_CREDIT_TEXT as TEXT } from '~/i18n/mail.ts';
import { escapeHtml as escape } from '../html.ts';

/** The e-mail of cash credited to the balance. */
export function oxxoCreditEmail(input: { orderId: string; amount: number; balance: number; siteUrl: string }): { subject: string; html: string; text: string } {
  const message = oxxoCreditedMessage(centavos(input.amount));
  const balance = TEXT.balance(formatCentavos(centavos(input.balance)));
  const number = orderDisplayId(input.orderId);
  const account = `${input.siteUrl.replace(/\/+$/, '')}/account`;
  const why = TEXT.why(number, `${STORE_CREDIT_MESSAGES.howReturned.charAt(0).toLowerCase()}${STORE_CREDIT_MESSAGES.howReturned.slice(1)}`);
  const text = [message, '', balance, why, '', TEXT.accountLine(account)].join('\n');
  const html = `<h1>${TEXT.heading}</h1>
<p>${escape(message)}</p>
<p><strong>${escape(balance)}</strong></p>
<p>${escape(why)}</p>
<p><a href="${escape(account)}">${TEXT.viewCredit}</a></p>`;
  return { subject: TEXT.subject(formatCentavos(centavos(input.amount))), html, text };
}
