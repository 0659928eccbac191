/**
 * The shop's e-mail against a real SMTP server in this process (smtp-server on 127.0.0.1) and the
 * local stack with the real migrations: the order confirmation arrives with both Spanish parts,
 * a refused attempt is retried from the outbox with backoff, a dedupe key queues one e-mail, the
 * outbox is the service role's alone, and no transport problem ever reaches the payment path.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { DEMO_SHOPPER } from '../../../../scripts/seed/constants.ts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOutbox, deliverDueMail, retryDelayMs, type OutboxRow } from '~/server/mail/outbox.ts';
import { mailTransportFor, smtpSender } from '~/server/mail/transport.ts';
import { receiptEmail } from '~/server/mail/templates/receipt.ts';
import type { MailSender, QueuedMail } from '~/server/mail/types.ts';
import { createAdminClient } from '~/server/supabase.ts';
import { mailboxMessages } from '../../../support/shop-rows.ts';
import { anonClient } from '../../../support/shopper.ts';
import { startTestStack, type TestStack } from '../../../../packages/local-supabase/tests/helpers.ts';
import { centavos } from '~/domain/money.ts';
import { startSmtpServer, type TestSmtpServer } from '../../../support/smtp-server.ts';

const FROM = 'Cartas Mx <pedidos@cartas.test>';
const SITE = 'http://shop.test';
const TRICKY_NAME = 'Caja <b>Élite</b> & "sobres" de Pokémon';

let stack: TestStack;
let admin: SupabaseClient;
let smtp: TestSmtpServer;
let smtpUrl: string;
/** Every message the SMTP server accepted, parsed, with the envelope recipients. */
let received: TestSmtpServer['received'];

beforeAll(async () => {
  stack = await startTestStack();
  admin = createAdminClient(stack.url, stack.serviceRoleKey);
  smtp = await startSmtpServer();
  smtpUrl = smtp.url;
  received = smtp.received;
}, 120_000);

afterAll(async () => {
  await smtp?.close();
  await stack?.stop();
});

beforeEach(() => {
  smtp.reset();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Keeps the expected failure logs of a test out of the output. */
function quiet(): void {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
}

async function rowsFor(to: string): Promise<OutboxRow[]> {
  const { data, error } = await admin.from('mail_outbox').select('*').eq('to_address', to).order('created_at');
  if (error) throw new Error(error.message);
  return data as OutboxRow[];
}

/** Makes a queued e-mail due now, as if its backoff had passed. */
async function makeDue(id: string): Promise<void> {
  const { error } = await admin
    .from('mail_outbox')
    .update({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
    .eq('id', id);
  if (error) throw new Error(error.message);
}

let seq = 0;
/** A fresh recipient and order per test, so tests never see each other's rows. */
function confirmation(overrides: Partial<QueuedMail> = {}): QueuedMail {
  seq += 1;
  const orderId = crypto.randomUUID();
  const to = `comprador.${seq}.${Date.now()}@correo.test`;
  const email = receiptEmail({
    id: orderId,
    subtotal: centavos(289900),
    discount: centavos(0),
    shipping: centavos(0),
    total: centavos(289900),
    lines: [{ name: TRICKY_NAME, quantity: 1, price: centavos(289900) }],
    address: { street: 'Av. Juárez', exterior_number: '10', city: 'Ciudad de México', state: 'CDMX', zip: '06000', country: 'México' },
    siteUrl: SITE,
  });
  return { to, ...email, kind: 'order_paid', dedupeKey: `order_paid:${orderId}`, ...overrides };
}

describe('SMTP delivery', () => {
  it('delivers the order confirmation with its recipient, subject, and a Spanish text and HTML part, the HTML escaped', async () => {
    const outbox = createOutbox(admin, smtpSender(smtpUrl, FROM));
    const message = confirmation();
    await outbox.enqueue(message);
    await outbox.idle();

    expect(received).toHaveLength(1);
    const { rcpt, mail } = received[0]!;
    expect(rcpt).toEqual([message.to]);
    expect(mail.subject).toMatch(/^Confirmación de tu pedido /);
    expect(mail.subject).toBe(message.subject);
    expect(mail.from?.value[0]).toMatchObject({ address: 'pedidos@cartas.test', name: 'Cartas Mx' });
    const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
    expect(to?.value[0]?.address).toBe(message.to);

    // Plain text: Spanish, the product name as written.
    expect(mail.text).toContain('Gracias por tu compra.');
    expect(mail.text).toContain('Total pagado: $2,899.00');
    expect(mail.text).toContain(TRICKY_NAME);
    // HTML: a Spanish document with the same content, the product name escaped.
    const html = String(mail.html);
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('Gracias por tu compra');
    expect(html).toContain('Caja &lt;b&gt;Élite&lt;/b&gt; &amp; &quot;sobres&quot; de Pokémon');
    expect(html).not.toContain('<b>Élite');
    expect(html).toContain(`href="${SITE}/checkout/`);
    // Both parts travel as a multipart/alternative.
    expect(String(mail.headers.get('content-type') && (mail.headers.get('content-type') as { value: string }).value)).toBe('multipart/alternative');

    const [row] = await rowsFor(message.to);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, kind: 'order_paid', dedupe_key: message.dedupeKey, last_error: null, next_attempt_at: null });
    expect(row!.sent_at).not.toBeNull();
  });

  it('keeps an e-mail the server refused the first time queued with attempts 1 and a later next_attempt_at, and the next deliverDue sends it', async () => {
    quiet();
    const outbox = createOutbox(admin, smtpSender(smtpUrl, FROM));
    const message = confirmation();
    smtp.refuseNext(1);
    const before = Date.now();
    await outbox.enqueue(message);
    await outbox.idle();

    expect(received).toHaveLength(0);
    let [row] = await rowsFor(message.to);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row!.last_error).toMatch(/451|Buzón ocupado/);
    const next = Date.parse(row!.next_attempt_at!);
    expect(next).toBeGreaterThanOrEqual(before + retryDelayMs(1) - 1000);
    expect(next).toBeLessThanOrEqual(Date.now() + retryDelayMs(1) + 1000);

    // Not due yet: the sweeper's call leaves it alone.
    expect((await outbox.deliverDue()).claimed).toBe(0);
    await makeDue(row!.id);
    const report = await outbox.deliverDue();
    expect(report).toMatchObject({ claimed: 1, sent: 1, retrying: 0, gaveUp: 0 });

    expect(received).toHaveLength(1);
    expect(received[0]!.rcpt).toEqual([message.to]);
    expect(received[0]!.mail.subject).toBe(message.subject);
    [row] = await rowsFor(message.to);
    expect(row).toMatchObject({ status: 'sent', attempts: 2, next_attempt_at: null, last_error: null });
  });

  it('backs off 30 s, 2 min, 10 min, then 1 h between attempts', () => {
    expect([1, 2, 3, 4, 5, 9].map(retryDelayMs)).toEqual([30_000, 120_000, 600_000, 3_600_000, 3_600_000, 3_600_000]);
  });

  it('gives up after the last attempt, leaving the e-mail failed with its error for the admins', async () => {
    quiet();
    const failing: MailSender = async () => {
      throw new Error('550 el servidor rechazó el mensaje');
    };
    const outbox = createOutbox(admin, failing, { maxAttempts: 2 });
    const message = confirmation();
    await outbox.enqueue(message);
    await outbox.idle();
    let [row] = await rowsFor(message.to);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    await makeDue(row!.id);
    expect(await outbox.deliverDue()).toMatchObject({ claimed: 1, sent: 0, gaveUp: 1 });
    [row] = await rowsFor(message.to);
    expect(row).toMatchObject({ status: 'failed', attempts: 2, next_attempt_at: null, last_error: '550 el servidor rechazó el mensaje' });
    expect((await outbox.deliverDue()).claimed).toBe(0);
  });
});

describe('the outbox', () => {
  it('queues one e-mail per dedupe key, even when enqueued twice at once and again later', async () => {
    const outbox = createOutbox(admin, smtpSender(smtpUrl, FROM));
    const message = confirmation();
    await Promise.all([outbox.enqueue(message), outbox.enqueue({ ...message })]);
    await outbox.enqueue({ ...message, subject: 'Otra vez' });
    await outbox.idle();
    expect(await rowsFor(message.to)).toHaveLength(1);
    expect(received).toHaveLength(1);
    expect(received[0]!.mail.subject).toBe(message.subject);
  });

  it('queues e-mails without a dedupe key each time', async () => {
    const outbox = createOutbox(admin, smtpSender(smtpUrl, FROM));
    const message = confirmation({ dedupeKey: null, kind: 'test' });
    await outbox.enqueue(message);
    await outbox.enqueue(message);
    await outbox.idle();
    expect(await rowsFor(message.to)).toHaveLength(2);
    expect(received).toHaveLength(2);
  });

  it('sends an e-mail whose sender died mid-send once its claim is 5 minutes old, and never one claimed just now', async () => {
    const outbox = createOutbox(admin, smtpSender(smtpUrl, FROM));
    const stuck = confirmation();
    const fresh = confirmation();
    const insert = (m: QueuedMail, claimedMsAgo: number) =>
      admin.from('mail_outbox').insert({
        to_address: m.to,
        subject: m.subject,
        html: m.html,
        text_body: m.text,
        kind: m.kind,
        dedupe_key: m.dedupeKey,
        status: 'sending',
        attempts: 1,
        claimed_at: new Date(Date.now() - claimedMsAgo).toISOString(),
        next_attempt_at: null,
      });
    expect((await insert(stuck, 6 * 60_000)).error).toBeNull();
    expect((await insert(fresh, 60_000)).error).toBeNull();
    expect(await outbox.deliverDue()).toMatchObject({ claimed: 1, sent: 1 });
    expect(received.map((r) => r.rcpt[0])).toEqual([stuck.to]);
    expect(await rowsFor(stuck.to)).toMatchObject([{ status: 'sent', attempts: 2 }]);
    expect(await rowsFor(fresh.to)).toMatchObject([{ status: 'sending', attempts: 1 }]);
  });

  it('sends each due e-mail once when two servers drain the outbox at the same time', async () => {
    quiet();
    const refusing = createOutbox(admin, async () => {
      throw new Error('sin conexión');
    });
    const messages = [confirmation(), confirmation(), confirmation(), confirmation()];
    for (const m of messages) await refusing.enqueue(m);
    await refusing.idle();
    for (const m of messages) await makeDue((await rowsFor(m.to))[0]!.id);
    const a = createOutbox(admin, smtpSender(smtpUrl, FROM));
    const b = createOutbox(admin, smtpSender(smtpUrl, FROM));
    const [ra, rb] = await Promise.all([a.deliverDue(), b.deliverDue()]);
    expect(ra.sent + rb.sent).toBe(messages.length);
    expect(received.map((r) => r.rcpt[0]).sort()).toEqual(messages.map((m) => m.to).sort());
  });

  it('is the sweeper’s through deliverDueMail(ctx), and a context with a plain function has nothing to deliver', async () => {
    const outbox = createOutbox(admin, smtpSender(smtpUrl, FROM));
    const ctx = { admin, mail: outbox, siteUrl: SITE };
    expect(await deliverDueMail(ctx)).toMatchObject({ claimed: expect.any(Number) });
    expect(await deliverDueMail({ mail: async () => undefined })).toEqual({ claimed: 0, sent: 0, retrying: 0, gaveUp: 0 });
  });
});

describe('never in the way of a payment', () => {
  it('resolves enqueue at once when the transport hangs, then records the timeout', async () => {
    quiet();
    const hanging: MailSender = () => new Promise<void>(() => undefined);
    const outbox = createOutbox(admin, hanging, { sendTimeoutMs: 300 });
    const message = confirmation();
    const started = Date.now();
    await expect(outbox.enqueue(message)).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2_000);
    await outbox.idle();
    const [row] = await rowsFor(message.to);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row!.last_error).toMatch(/tardó más de/);
  });

  it('resolves enqueue when the transport fails, and when the outbox itself is unreachable', async () => {
    quiet();
    const failing: MailSender = async () => {
      throw new Error('ECONNREFUSED');
    };
    const message = confirmation();
    await expect(createOutbox(admin, failing).enqueue(message)).resolves.toBeUndefined();
    // Calling the outbox like the server context does (ctx.mail(...)).
    const ctxMail = createOutbox(admin, failing);
    await expect(ctxMail(confirmation())).resolves.toBeUndefined();
    await ctxMail.idle();

    const nowhere = createClient('http://127.0.0.1:9', stack.serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
    const direct = vi.fn<MailSender>(async () => undefined);
    const offline = createOutbox(nowhere, direct);
    await expect(offline.enqueue(confirmation())).resolves.toBeUndefined();
    await offline.idle();
    // Without the outbox the e-mail is still attempted once, directly.
    expect(direct).toHaveBeenCalledTimes(1);
  });

  it('rejects a malformed SMTP_URL as a failed send, not as a broken server', async () => {
    quiet();
    const transport = mailTransportFor({ smtpUrl: 'http://no-es-smtp', mailFrom: FROM, supabaseUrl: stack.url, serviceRoleKey: stack.serviceRoleKey });
    await expect(transport(confirmation())).rejects.toThrow(/smtp:\/\/ o smtps:\/\//);
  });
});

describe('choosing the transport', () => {
  it('keeps the local stack’s e-mails in its mailbox when SMTP is not configured', async () => {
    const outbox = createOutbox(admin, mailTransportFor({ supabaseUrl: stack.url, serviceRoleKey: stack.serviceRoleKey }));
    const message = confirmation();
    await outbox.enqueue(message);
    await outbox.idle();
    const inbox = await mailboxMessages<{ subject: string; text: string; html: string }>(stack, message.to);
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({ subject: message.subject, text: message.text, html: message.html });
    expect(received).toHaveLength(0);
    expect(await rowsFor(message.to)).toMatchObject([{ status: 'sent' }]);
  });

  it('sends over SMTP when SMTP_URL and MAIL_FROM are set, even on the local stack', async () => {
    const outbox = createOutbox(admin, mailTransportFor({ smtpUrl, mailFrom: FROM, supabaseUrl: stack.url, serviceRoleKey: stack.serviceRoleKey }));
    const message = confirmation();
    await outbox.enqueue(message);
    await outbox.idle();
    expect(received.map((r) => r.rcpt[0])).toEqual([message.to]);
  });

  it('keeps a hosted project’s e-mails queued with the reason when no provider is configured', async () => {
    quiet();
    const transport = mailTransportFor({ supabaseUrl: 'https://proyecto.supabase.co', serviceRoleKey: 'x' });
    await expect(transport(confirmation())).rejects.toThrow(/sin proveedor de correo configurado/);
  });
});

describe('who may touch the outbox', () => {
  it('is out of reach of anonymous callers and shoppers, table and claim function alike', async () => {
    const anon = anonClient(stack);
    const read = await anon.from('mail_outbox').select('id').limit(1);
    expect(read.error).not.toBeNull();
    const write = await anon.from('mail_outbox').insert({ to_address: 'x@y.mx', subject: 's', html: 'h', text_body: 't', kind: 'k' });
    expect(write.error).not.toBeNull();
    const claim = await anon.rpc('mail_outbox_claim', { p_limit: 10 });
    expect(claim.error).not.toBeNull();

    const shopper = anonClient(stack);
    const { error } = await shopper.auth.signInWithPassword({ email: DEMO_SHOPPER.email, password: DEMO_SHOPPER.password });
    expect(error).toBeNull();
    expect((await shopper.from('mail_outbox').select('id').limit(1)).error).not.toBeNull();
    expect((await shopper.rpc('mail_outbox_claim', { p_limit: 10 })).error).not.toBeNull();
  });
});
