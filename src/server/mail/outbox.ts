/**
 * The outbox (table public.mail_outbox): every e-mail is stored before it is sent, sent right away
 * in the background, and retried with backoff by `deliverDue()` (the sweeper calls it every
 * minute) until it is sent or has failed `maxAttempts` times. A restart loses nothing: an e-mail
 * whose sender died while it was 'sending' is claimed again after 5 minutes. Attachments are
 * stored as references (mail_outbox.attachments) and fetched by `resolveAttachments` at each
 * attempt; a file that cannot be fetched fails the attempt like a refused send.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database, Json, Tables } from '~/data/database.types.ts';
import { MAIL_ATTACHMENT_TEXT } from '~/i18n/invoices.ts';
import { MAIL_DELIVERY_ERROR_TEXT } from '~/i18n/mail.ts';
import type { AttachmentResolver, MailAttachmentRef, MailMessage, MailSender, QueuedMail } from './types.ts';

/** One row of public.mail_outbox, as the schema defines it. */
export type OutboxRow = Tables<'mail_outbox'>;

/** What one `deliverDue()` did. */
export interface DeliveryReport {
  /** Rows claimed (due, or stuck in 'sending'). */
  claimed: number;
  sent: number;
  /** Failed and scheduled for another attempt. */
  retrying: number;
  /** Failed for the last time: left 'failed' with next_attempt_at null. */
  gaveUp: number;
}

/** Settings of an outbox; all optional. */
export interface OutboxOptions {
  /** Attempts before an e-mail is given up (default 10). */
  maxAttempts?: number;
  /** Rows claimed per `deliverDue()` (default 20). */
  batchSize?: number;
  /** A send taking longer than this counts as failed (default 60 s). */
  sendTimeoutMs?: number;
  /** Wait before the next attempt after `attempts` failed ones (default `retryDelayMs`). */
  retryDelay?: (attempts: number) => number;
  /** Fetches the files an e-mail attaches; without it, an e-mail with attachments cannot be sent. */
  resolveAttachments?: AttachmentResolver;
}

/** The outbox: callable like a MailQueue (that is `enqueue`), plus the retry and a drain. */
export interface Outbox {
  (message: QueuedMail): Promise<void>;
  /**
   * Stores the e-mail (once per dedupe key) and sends it in the background. Resolves once it is
   * stored; never rejects: a failure is logged, and the send is retried later.
   */
  enqueue(message: QueuedMail): Promise<void>;
  /** Claims the due e-mails and sends them; rejects only when the claim itself fails. */
  deliverDue(): Promise<DeliveryReport>;
  /** Resolves when the background sends started so far have finished (tests, shutdown). */
  idle(): Promise<void>;
}

const SCHEDULE_MS = [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000];

/** Backoff after `attempts` failed attempts: 30 s, 2 min, 10 min, then 1 h. */
export function retryDelayMs(attempts: number): number {
  return SCHEDULE_MS[Math.min(Math.max(attempts, 1), SCHEDULE_MS.length) - 1]!;
}

const TABLE = 'mail_outbox';

/** The attachment references stored on a row (anything else in the column is ignored). */
function attachmentRefsOf(value: unknown): MailAttachmentRef[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (ref): ref is MailAttachmentRef =>
      typeof ref === 'object' &&
      ref !== null &&
      (ref as MailAttachmentRef).source === 'invoice' &&
      typeof (ref as MailAttachmentRef).invoice_id === 'string' &&
      ((ref as MailAttachmentRef).format === 'pdf' || (ref as MailAttachmentRef).format === 'xml') &&
      typeof (ref as MailAttachmentRef).filename === 'string',
  );
}

function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.slice(0, 1000) || MAIL_DELIVERY_ERROR_TEXT.unknown;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(MAIL_DELIVERY_ERROR_TEXT.timedOut(Math.round(ms / 1000)))), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** An outbox over the service-role client, delivering through `transport`. */
export function createOutbox(admin: SupabaseClient<Database>, transport: MailSender, options: OutboxOptions = {}): Outbox {
  const maxAttempts = options.maxAttempts ?? 10;
  const batchSize = options.batchSize ?? 20;
  const sendTimeoutMs = options.sendTimeoutMs ?? 60_000;
  const retryDelay = options.retryDelay ?? retryDelayMs;
  const inFlight = new Set<Promise<unknown>>();

  function background(work: Promise<unknown>): void {
    const tracked = work.catch((err: unknown) => console.error('[correo]', err)).finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  }

  /** The message with its attachments fetched (references without a resolver fail the attempt). */
  async function withAttachments(message: MailMessage, refs: readonly MailAttachmentRef[]): Promise<MailMessage> {
    if (refs.length === 0) return message;
    if (!options.resolveAttachments) throw new Error(MAIL_ATTACHMENT_TEXT.unavailable);
    return { ...message, attachments: await options.resolveAttachments(refs) };
  }

  const send = (message: MailMessage, refs: readonly MailAttachmentRef[] = []) =>
    withTimeout(
      Promise.resolve().then(async () => transport(await withAttachments(message, refs))),
      sendTimeoutMs,
    );

  /** Sends one claimed row (attempt number `attempts`) and records the outcome. */
  async function deliver(id: string, message: MailMessage, attempts: number, refs: readonly MailAttachmentRef[]): Promise<'sent' | 'retrying' | 'gaveUp'> {
    let failure: string | null = null;
    if (attempts > maxAttempts) failure = MAIL_DELIVERY_ERROR_TEXT.attemptsExhausted(maxAttempts);
    else {
      try {
        await send(message, refs);
      } catch (err) {
        failure = describe(err);
      }
    }
    if (failure === null) {
      const { error } = await admin
        .from(TABLE)
        .update({ status: 'sent', sent_at: new Date().toISOString(), next_attempt_at: null, last_error: null })
        .eq('id', id);
      if (error) throw new Error(MAIL_DELIVERY_ERROR_TEXT.markSentFailed(id, error.message));
      return 'sent';
    }
    const giveUp = attempts >= maxAttempts;
    const next = giveUp ? null : new Date(Date.now() + retryDelay(attempts)).toISOString();
    // Only the holder of this claim records the failure: a row another process has claimed again
    // (or already sent) is left alone.
    const { error } = await admin
      .from(TABLE)
      .update({ status: 'failed', last_error: failure, next_attempt_at: next })
      .eq('id', id)
      .eq('status', 'sending')
      .eq('attempts', attempts);
    if (error) throw new Error(MAIL_DELIVERY_ERROR_TEXT.recordFailureFailed(id, error.message));
    console.warn(
      `[correo] falló el intento ${attempts} de «${message.subject}» a ${message.to}: ${failure}` +
        (giveUp ? '; no se reintentará' : `; se reintentará a las ${next}`),
    );
    return giveUp ? 'gaveUp' : 'retrying';
  }

  async function enqueue(message: QueuedMail): Promise<void> {
    const mail: MailMessage = { to: message.to, subject: message.subject, html: message.html, text: message.text };
    const refs = message.attachmentRefs ?? [];
    try {
      // Stored already claimed by this process (attempt 1), so the sweeper leaves it alone while
      // it is being sent; if this process dies now, the claim expires and the sweeper sends it.
      const { data, error } = await admin
        .from(TABLE)
        .insert({
          to_address: mail.to,
          subject: mail.subject,
          html: mail.html,
          text_body: mail.text,
          kind: message.kind,
          dedupe_key: message.dedupeKey ?? null,
          status: 'sending',
          attempts: 1,
          claimed_at: new Date().toISOString(),
          next_attempt_at: null,
          attachments: refs as unknown as Json,
        })
        .select('id')
        .single();
      if (error) {
        if (error.code === '23505') return; // already queued under this dedupe key
        throw new Error(error.message);
      }
      background(deliver(data.id, mail, 1, refs));
    } catch (err) {
      // The outbox is unreachable: still try once, so the shopper is not left without the e-mail.
      console.error(`[correo] no se pudo guardar «${mail.subject}» en la cola; se envía sin reintentos`, err);
      background(send(mail, refs));
    }
  }

  async function deliverDue(): Promise<DeliveryReport> {
    const { data, error } = await admin.rpc('mail_outbox_claim', { p_limit: batchSize });
    if (error) throw new Error(`mail_outbox_claim: ${error.message}`);
    const rows: OutboxRow[] = data ?? [];
    const report: DeliveryReport = { claimed: rows.length, sent: 0, retrying: 0, gaveUp: 0 };
    // A few at a time: enough to drain a backlog, gentle on the SMTP provider's limits.
    const queue = [...rows];
    const worker = async () => {
      for (let row = queue.shift(); row; row = queue.shift()) {
        const message = { to: row.to_address, subject: row.subject, html: row.html, text: row.text_body };
        try {
          report[await deliver(row.id, message, row.attempts, attachmentRefsOf(row.attachments))] += 1;
        } catch (err) {
          console.error('[correo]', err);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(4, rows.length) }, worker));
    return report;
  }

  async function idle(): Promise<void> {
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  }

  return Object.assign((message: QueuedMail) => enqueue(message), { enqueue, deliverDue, idle });
}

/**
 * Sends the outbox's due e-mails of a server context (the sweeper's call, every minute). A
 * context whose `mail` is not an outbox (tests with a plain function) has nothing to deliver.
 */
export async function deliverDueMail(ctx: { mail: unknown }): Promise<DeliveryReport> {
  const outbox = ctx.mail as Partial<Outbox> | null;
  if (!outbox || typeof outbox.deliverDue !== 'function') return { claimed: 0, sent: 0, retrying: 0, gaveUp: 0 };
  return outbox.deliverDue();
}
