/**
 * How an e-mail leaves the shop: SMTP through nodemailer when SMTP_URL and MAIL_FROM are set, the
 * local stack's mailbox when the Supabase URL is on this machine, otherwise nowhere (a transport
 * that logs and fails, so the outbox keeps the e-mail until a provider is configured).
 */
import { createTransport } from 'nodemailer';
import { MAIL_DELIVERY_ERROR_TEXT } from '~/i18n/mail.ts';
import type { MailMessage, MailSender } from './types.ts';
import { escapeHtml } from './html.ts';

/** Whether a Supabase URL is the local stack on this machine. */
export function isLocalStack(supabaseUrl: string): boolean {
  try {
    const host = new URL(supabaseUrl).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
  } catch {
    return false;
  }
}

/** Timeouts of one SMTP send, in milliseconds. */
export interface SmtpTimeouts {
  connectionTimeout?: number;
  greetingTimeout?: number;
  socketTimeout?: number;
}

/** Wraps an HTML fragment in a Spanish document, as mail clients expect a whole page. */
function htmlDocument(subject: string, html: string): string {
  if (/^\s*(<!doctype|<html)/i.test(html)) return html;
  return `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body>
${html}
</body>
</html>`;
}

/**
 * A transport over SMTP (nodemailer): `smtp://…` (STARTTLS when the server offers it) or
 * `smtps://…` (TLS from the start), e.g. smtps://usuario:clave@smtp.example.com:465.
 * `from` is the sender, e.g. "Cartas Mx <pedidos@example.com>".
 */
export function smtpSender(smtpUrl: string, from: string, timeouts: SmtpTimeouts = {}): MailSender {
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new Error(MAIL_DELIVERY_ERROR_TEXT.invalidSmtpUrl);
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new Error(MAIL_DELIVERY_ERROR_TEXT.smtpProtocol(url.protocol));
  }
  const transport = createTransport({
    url: smtpUrl,
    connectionTimeout: timeouts.connectionTimeout ?? 15_000,
    greetingTimeout: timeouts.greetingTimeout ?? 15_000,
    socketTimeout: timeouts.socketTimeout ?? 30_000,
  });
  return async (message: MailMessage) => {
    await transport.sendMail({
      from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: htmlDocument(message.subject, message.html),
      attachments: (message.attachments ?? []).map((file) => ({ filename: file.filename, contentType: file.contentType, content: Buffer.from(file.content) })),
    });
  };
}

/**
 * A transport into the local stack's mailbox (POST /mailbox/api/messages with the service key).
 * The mailbox keeps the text and the links only, so attachments are not sent there.
 */
export function localMailboxSender(supabaseUrl: string, serviceRoleKey: string): MailSender {
  const endpoint = `${supabaseUrl.replace(/\/+$/, '')}/mailbox/api/messages`;
  return async (message) => {
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}` },
      body: JSON.stringify({ to: message.to, subject: message.subject, html: message.html, text: message.text }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(MAIL_DELIVERY_ERROR_TEXT.localMailbox(res.status));
  };
}

/**
 * The transport when no provider is configured: it logs the e-mail it could not send and fails,
 * so the outbox keeps it (with the reason in last_error) instead of calling it sent.
 */
export function unconfiguredSender(reason: string = MAIL_DELIVERY_ERROR_TEXT.unconfigured): MailSender {
  return async (message) => {
    console.info(`[correo] ${reason}; no se envió «${message.subject}» a ${message.to}`);
    throw new Error(reason);
  };
}

/** What picks the transport: the mail variables and the Supabase project. */
export interface MailEnv {
  smtpUrl?: string | null;
  mailFrom?: string | null;
  supabaseUrl: string;
  serviceRoleKey: string;
}

/**
 * The transport the environment selects: SMTP when SMTP_URL and MAIL_FROM are both set, the
 * local mailbox when the Supabase URL is the local stack, else one that says no provider is set.
 * A malformed SMTP_URL is logged and every send fails with that reason (the outbox keeps them).
 */
export function mailTransportFor(env: MailEnv): MailSender {
  const smtpUrl = env.smtpUrl?.trim();
  const mailFrom = env.mailFrom?.trim();
  if (smtpUrl && mailFrom) {
    try {
      return smtpSender(smtpUrl, mailFrom);
    } catch (err) {
      const reason = (err as Error).message;
      console.error(`[correo] ${reason}`);
      return unconfiguredSender(reason);
    }
  }
  if (smtpUrl || mailFrom) {
    console.warn(`[correo] falta ${smtpUrl ? 'MAIL_FROM' : 'SMTP_URL'}: se necesitan ambas variables para enviar por SMTP.`);
  }
  if (isLocalStack(env.supabaseUrl)) return localMailboxSender(env.supabaseUrl, env.serviceRoleKey);
  return unconfiguredSender();
}
