/**
 * The e-mails a shopper gets when the shop moves their order: shipped (with carrier and tracking
 * number), completed, cancelled, refunded. Spanish, HTML and plain text, every value escaped.
 */
import { type Centavos, centavos, formatCentavos } from '~/domain/money.ts';
import { ORDER_STATUS, orderDisplayId, trackingUrl } from '~/domain/orders.ts';
import { MAIL_ORDER_STATUS_TEXT as TEXT } from '~/i18n/mail.ts';
import { escapeHtml as escape } from '../html.ts';

/** What a status e-mail needs to know about the order. */
export interface StatusEmailOrder {
  id: string;
  total: Centavos;
  carrier?: string | null;
  tracking_number?: string | null;
  /** How it was paid ('card', 'oxxo', 'paypal', 'store_credit'), to say truthfully where money went. */
  payment_method?: string | null;
  /** The part paid with the balance. */
  credit_applied?: Centavos | null;
  /** How it was refunded: 'saldo-…' to the balance, 'transferencia:REF' by bank transfer, else the provider's refund. */
  refund_ref?: string | null;
}

/** What a cancelled order's e-mail says about money: never 'no charge' when a voucher may be paid. */
function cancelledLines(number: string, order: StatusEmailOrder): string[] {
  const credit = order.credit_applied ?? centavos(0);
  const lines = [TEXT.cancelled(number)];
  if (order.payment_method === 'oxxo') {
    lines.push(TEXT.oxxoMaybePaid);
  } else if (credit > 0) {
    lines.push(TEXT.creditReturned(formatCentavos(credit)));
  } else {
    lines.push(TEXT.noCharge);
  }
  return lines;
}

/** Where the money of a refunded order went. */
function refundedLines(number: string, order: StatusEmailOrder): string[] {
  const credit = order.credit_applied ?? centavos(0);
  const paid = centavos(order.total - credit);
  const ref = order.refund_ref ?? '';
  const lines: string[] = [];
  if (ref.startsWith('saldo-')) {
    lines.push(TEXT.refundedToCredit(number, formatCentavos(order.total)), TEXT.useCredit);
    return lines;
  }
  if (ref.startsWith('transferencia:')) {
    lines.push(TEXT.refundedByTransfer(number, formatCentavos(paid), ref.slice('transferencia:'.length)));
  } else if (order.payment_method === 'paypal') {
    lines.push(TEXT.refundedToPaypal(number, formatCentavos(paid)));
  } else {
    lines.push(TEXT.refundedToCard(number, formatCentavos(paid)), TEXT.refundDelay);
  }
  if (credit > 0) lines.push(TEXT.creditReturned(formatCentavos(credit)));
  return lines;
}

/** The e-mail for an order that reached `status`, or null for statuses that send none. */
export function statusEmail(status: string, order: StatusEmailOrder, siteUrl: string): { subject: string; html: string; text: string } | null {
  const number = orderDisplayId(order.id);
  const link = `${siteUrl.replace(/\/+$/, '')}/account`;
  let subject: string;
  let lines: string[];
  let tracking: string | null = null;
  switch (status) {
    case ORDER_STATUS.shipped: {
      subject = TEXT.shippedSubject(number);
      tracking = trackingUrl(order.carrier, order.tracking_number);
      lines = [TEXT.onItsWay(number), TEXT.carrier(order.carrier ?? '-'), TEXT.trackingNumber(order.tracking_number ?? '-')];
      break;
    }
    case ORDER_STATUS.completed:
      subject = TEXT.completedSubject(number);
      lines = [TEXT.completed(number), TEXT.thanks];
      break;
    case ORDER_STATUS.cancelled:
      subject = TEXT.cancelledSubject(number);
      lines = cancelledLines(number, order);
      break;
    case ORDER_STATUS.refunded:
      subject = TEXT.refundedSubject(number);
      lines = refundedLines(number, order);
      break;
    default:
      return null;
  }
  const text = [...lines, ...(tracking ? [TEXT.trackLine(tracking)] : []), '', TEXT.ordersLine(link)].join('\n');
  const html = `<h1>${escape(subject)}</h1>
${lines.map((line) => `<p>${escape(line)}</p>`).join('\n')}
${tracking ? `<p><a href="${escape(tracking)}">${TEXT.track}</a></p>` : ''}
<p><a href="${escape(link)}">${TEXT.viewOrders}</a></p>`;
  return { subject, html, text };
}
