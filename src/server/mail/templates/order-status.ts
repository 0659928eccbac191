/**
 * The e-mails a shopper gets when the shop moves their order: shipped (with carrier and tracking
 * number), completed, cancelled, refunded. Spanish, HTML and plain text, every value escaped.
 */
import { type Centavos, centavos, formatCentavos } from '~/domain/money.ts';
import { ORDER_STATUS, orderDisplayId, trackingUrl } from '~/domain/orders.ts';
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
  const lines = [`Cancelamos tu pedido ${number}.`];
  if (order.payment_method === 'oxxo') {
    lines.push(
      'Si ya pagaste tu ficha de OXXO, abonaremos ese pago a tu saldo a favor y te avisaremos por correo; los pagos en efectivo no se devuelven en efectivo.',
    );
  } else if (credit > 0) {
    lines.push(`Los ${formatCentavos(credit)} de saldo a favor que usaste volvieron a tu cuenta.`);
  } else {
    lines.push('No se hizo ningún cargo.');
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
    lines.push(`Cancelamos tu pedido ${number} y abonamos ${formatCentavos(order.total)} a tu saldo a favor.`, 'Puedes usarlo en tu próxima compra.');
    return lines;
  }
  if (ref.startsWith('transferencia:')) {
    lines.push(
      `Cancelamos tu pedido ${number} y te devolvimos ${formatCentavos(paid)} por transferencia bancaria (referencia ${ref.slice('transferencia:'.length)}).`,
    );
  } else if (order.payment_method === 'paypal') {
    lines.push(`Cancelamos tu pedido ${number} y te reembolsamos ${formatCentavos(paid)} a tu cuenta de PayPal.`);
  } else {
    lines.push(
      `Cancelamos tu pedido ${number} y te reembolsamos ${formatCentavos(paid)} a tu tarjeta.`,
      'El reembolso puede tardar unos días en verse en tu estado de cuenta.',
    );
  }
  if (credit > 0) lines.push(`Los ${formatCentavos(credit)} de saldo a favor que usaste volvieron a tu cuenta.`);
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
      subject = `Tu pedido ${number} fue enviado`;
      tracking = trackingUrl(order.carrier, order.tracking_number);
      lines = [`Tu pedido ${number} va en camino.`, `Paquetería: ${order.carrier ?? '-'}`, `Número de guía: ${order.tracking_number ?? '-'}`];
      break;
    }
    case ORDER_STATUS.completed:
      subject = `Tu pedido ${number} fue completado`;
      lines = [`Tu pedido ${number} fue entregado y está completado.`, 'Gracias por comprar con nosotros.'];
      break;
    case ORDER_STATUS.cancelled:
      subject = `Tu pedido ${number} fue cancelado`;
      lines = cancelledLines(number, order);
      break;
    case ORDER_STATUS.refunded:
      subject = `Tu pedido ${number} fue reembolsado`;
      lines = refundedLines(number, order);
      break;
    default:
      return null;
  }
  const text = [...lines, ...(tracking ? [`Rastrea tu envío: ${tracking}`] : []), '', `Tus pedidos: ${link}`].join('\n');
  const html = `<h1>${escape(subject)}</h1>
${lines.map((line) => `<p>${escape(line)}</p>`).join('\n')}
${tracking ? `<p><a href="${escape(tracking)}">Rastrea tu envío</a></p>` : ''}
<p><a href="${escape(link)}">Ver tus pedidos</a></p>`;
  return { subject, html, text };
}
