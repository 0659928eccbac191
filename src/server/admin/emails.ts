/**
 * The e-mails a shopper gets when the shop moves their order: shipped (with carrier and tracking
 * number), completed, cancelled, refunded. Spanish, HTML and plain text, every value escaped.
 */
import { formatCentavos, toCentavos } from '../../domain/money.ts';
import { orderDisplayId, trackingUrl } from '../../domain/orders.ts';

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The statuses that e-mail the shopper. */
export type NotifiedStatus = 'Enviado' | 'Completado' | 'Cancelado' | 'Reembolsado';

/** What a status e-mail needs to know about the order. */
export interface StatusEmailOrder {
  id: string;
  total: number | string;
  carrier?: string | null;
  tracking_number?: string | null;
}

/** The e-mail for an order that reached `status`, or null for statuses that send none. */
export function statusEmail(status: string, order: StatusEmailOrder, siteUrl: string): { subject: string; html: string; text: string } | null {
  const number = orderDisplayId(order.id);
  const link = `${siteUrl.replace(/\/+$/, '')}/account`;
  let subject: string;
  let lines: string[];
  let tracking: string | null = null;
  switch (status) {
    case 'Enviado': {
      subject = `Tu pedido ${number} fue enviado`;
      tracking = trackingUrl(order.carrier, order.tracking_number);
      lines = [
        `Tu pedido ${number} va en camino.`,
        `Paquetería: ${order.carrier ?? '-'}`,
        `Número de guía: ${order.tracking_number ?? '-'}`,
      ];
      break;
    }
    case 'Completado':
      subject = `Tu pedido ${number} fue completado`;
      lines = [`Tu pedido ${number} fue entregado y está completado.`, 'Gracias por comprar con nosotros.'];
      break;
    case 'Cancelado':
      subject = `Tu pedido ${number} fue cancelado`;
      lines = [`Cancelamos tu pedido ${number}; no se hizo ningún cargo.`];
      break;
    case 'Reembolsado':
      subject = `Tu pedido ${number} fue reembolsado`;
      lines = [
        `Cancelamos tu pedido ${number} y te reembolsamos ${formatCentavos(toCentavos(order.total))}.`,
        'El reembolso puede tardar unos días en verse en tu estado de cuenta.',
      ];
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
