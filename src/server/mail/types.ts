/** The shapes every part of the shop's e-mail shares: a message, a transport, a queue. */

/** One e-mail: a recipient, a subject, and both an HTML and a plain-text part. */
export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
}

/** A transport: delivers one e-mail now, or rejects. */
export type MailSender = (message: MailMessage) => Promise<void>;

/** An e-mail handed to the outbox: what it is about, and the key that queues it only once. */
export interface QueuedMail extends MailMessage {
  /** What the e-mail is about, e.g. 'order_paid'. */
  kind: string;
  /** The same key is queued once (e.g. 'order_paid:<order id>'); null or absent: no dedupe. */
  dedupeKey?: string | null;
}

/**
 * What the server context's `mail` is: hands one e-mail over for delivery. The outbox resolves
 * once the e-mail is stored and sends it in the background; a plain MailSender also fits.
 */
export type MailQueue = (message: QueuedMail) => Promise<void>;
