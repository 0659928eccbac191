/**
 * The order confirmation e-mail. With the local stack it goes to the stack's mailbox (POST
 * /mailbox/api/messages with the service role key); a hosted project has no mail provider
 * configured, so the e-mail is only logged there.
 */
import { formatMXN } from '../domain/money.ts';
import { orderDisplayId } from '../domain/orders.ts';

/** Something that delivers an e-mail. */
export type MailSender = (message: { to: string; subject: string; html: string; text: string }) => Promise<void>;

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Whether a Supabase URL is the local stack on this machine. */
export function isLocalStack(supabaseUrl: string): boolean {
  try {
    const host = new URL(supabaseUrl).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
  } catch {
    return false;
  }
}

/** The mail sender for a project: the local mailbox, or a log line for a hosted project. */
export function mailSenderFor(supabaseUrl: string, serviceRoleKey: string): MailSender {
  if (!isLocalStack(supabaseUrl)) {
    return async (message) => {
      console.info(`[correo] sin proveedor de correo configurado; no se envió «${message.subject}» a ${message.to}`);
    };
  }
  return async (message) => {
    const res = await fetch(`${supabaseUrl.replace(/\/+$/, '')}/mailbox/api/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}` },
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`buzón local: ${res.status}`);
  };
}

/** One product line of the confirmation e-mail. */
export interface ReceiptLine {
  name: string;
  quantity: number;
  price: number | string;
}

/** The confirmation e-mail of a paid order, in Spanish, as HTML and plain text. */
export function receiptEmail(order: {
  id: string;
  subtotal: number | string;
  discount: number | string;
  shipping: number | string;
  total: number | string;
  lines: ReceiptLine[];
  address: string | null;
  siteUrl: string;
}): { subject: string; html: string; text: string } {
  const number = orderDisplayId(order.id);
  const subject = `Confirmación de tu pedido ${number}`;
  const rows = order.lines.map((l) => `${l.name} × ${l.quantity} — ${formatMXN(l.price)}`);
  const totals = [
    `Subtotal: ${formatMXN(order.subtotal)}`,
    `Descuento: ${formatMXN(order.discount)}`,
    `Envío: ${Number(order.shipping) === 0 ? 'Gratis' : formatMXN(order.shipping)}`,
    `Total pagado: ${formatMXN(order.total)}`,
  ];
  const link = `${order.siteUrl.replace(/\/+$/, '')}/checkout/${order.id}`;
  const text = [
    'Gracias por tu compra.',
    `Tu pedido ${number} está pagado.`,
    '',
    ...rows,
    '',
    ...totals,
    ...(order.address ? ['', `Envío a: ${order.address}`] : []),
    '',
    `Detalles: ${link}`,
  ].join('\n');
  const html = `<h1>Gracias por tu compra</h1>
<p>Tu pedido <strong>${escape(number)}</strong> está pagado.</p>
<ul>${rows.map((r) => `<li>${escape(r)}</li>`).join('')}</ul>
<p>${totals.map(escape).join('<br>')}</p>
${order.address ? `<p>Envío a: ${escape(order.address)}</p>` : ''}
<p><a href="${escape(link)}">Ver tu pedido</a></p>`;
  return { subject, html, text };
}
