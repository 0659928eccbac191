/** The shapes every part of the shop's e-mail shares: a message, a transport, a queue. */

/** A file attached to an e-mail as it is sent. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

/**
 * What an e-mail of the outbox attaches, stored on its row instead of the file: where the sender
 * fetches the file when it sends (today a factura's PDF or XML, from the invoicing provider).
 */
export interface MailAttachmentRef {
  source: 'invoice';
  invoice_id: string;
  format: 'pdf' | 'xml';
  filename: string;
}

/** Turns stored attachment references into files at send time; rejects when one cannot be fetched. */
export type AttachmentResolver = (refs: readonly MailAttachmentRef[]) => Promise<MailAttachment[]>;

/** One e-mail: a recipient, a subject, both an HTML and a plain-text part, and its files if any. */
export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments?: MailAttachment[];
}

/** A transport: delivers one e-mail now, or rejects. */
export type MailSender = (message: MailMessage) => Promise<void>;

/** An e-mail handed to the outbox: what it is about, and the key that queues it only once. */
export interface QueuedMail extends Omit<MailMessage, 'attachments'> {
  /** What the e-mail is about, e.g. 'order_paid'. */
  kind: string;
  /** The same key is queued once (e.g. 'order_paid:<order id>'); null or absent: no dedupe. */
  dedupeKey?: string | null;
  /** Files fetched when the e-mail is sent (the outbox stores only these references). */
  attachmentRefs?: MailAttachmentRef[];
}

/**
 * What the server context's `mail` is: hands one e-mail over for delivery. The outbox resolves
 * once the e-mail is stored and sends it in the background; a plain MailSender also fits.
 */
export type MailQueue = (message: QueuedMail) => Promise<void>;
