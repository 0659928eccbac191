/**
 * The e-mail of what an arrival of a preorder's goods did with the shopper's order: filled
 * ('Preventa asignada'), kept on the waitlist for the next shipment, or refunded (through the
 * provider, or to the balance). Spanish, HTML and plain text, every value escaped.
 */
import { centavos, formatCentavos } from '~/domain/money.ts';
import { orderDisplayId } from '~/domain/orders.ts';
import { MAIL_PREORDER_TEXT as TEXT } from '~/i18n/preorders.ts';
import { escapeHtml as escape } from '../html.ts';

/** What the arrival decided for one order. */
export type PreorderOutcome = 'allocated' | 'waitlisted' | 'refunded';

interface PreorderMailInput {
  orderId: string;
  productName: string;
  quantity: number;
  outcome: PreorderOutcome;
  /** For a refund: the amount in centavos and where it went. */
  refund?: { amount: number; toCredit: boolean };
  siteUrl: string;
}

function subjectOf(outcome: PreorderOutcome, number: string): string {
  if (outcome === 'allocated') return TEXT.allocatedSubject(number);
  if (outcome === 'waitlisted') return TEXT.waitlistedSubject(number);
  return TEXT.refundedSubject(number);
}

function headingOf(outcome: PreorderOutcome): string {
  if (outcome === 'allocated') return TEXT.allocatedHeading;
  if (outcome === 'waitlisted') return TEXT.waitlistedHeading;
  return TEXT.refundedHeading;
}

function messageOf(input: PreorderMailInput, number: string): string {
  if (input.outcome === 'allocated') return TEXT.allocated(input.productName, input.quantity, number);
  if (input.outcome === 'waitlisted') return TEXT.waitlisted(input.productName, number);
  const amount = formatCentavos(centavos(input.refund?.amount ?? 0));
  return input.refund?.toCredit ? TEXT.refundedToCredit(input.productName, number, amount) : TEXT.refundedToProvider(input.productName, number, amount);
}

/** The e-mail of one order's preorder after an arrival. */
export function preorderAllocationEmail(input: PreorderMailInput): { subject: string; html: string; text: string } {
  const number = orderDisplayId(input.orderId);
  const message = messageOf(input, number);
  const orders = `${input.siteUrl.replace(/\/+$/, '')}/account?tab=orders`;
  const lines = [message];
  if (input.outcome === 'refunded') lines.push(TEXT.sorry);
  const text = [...lines, '', TEXT.ordersLine(orders)].join('\n');
  const html = `<h1>${escape(headingOf(input.outcome))}</h1>
${lines.map((line) => `<p>${escape(line)}</p>`).join('\n')}
<p><a href="${escape(orders)}">${TEXT.viewOrders}</a></p>`;
  return { subject: subjectOf(input.outcome, number), html, text };
}
