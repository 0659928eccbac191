/**
 * How an e-mail leaves the shop: over SMTP (to an SMTP server in this process), into the local
 * stack's mailbox (fetch stubbed), or nowhere with the reason. The outbox that calls these:
 * tests/unit/server/mail/outbox.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isLocalStack, localMailboxSender, mailTransportFor, smtpSender, unconfiguredSender } from '~/server/mail/transport.ts';
import type { MailMessage } from '~/server/mail/types.ts';
import { startSmtpServer, type TestSmtpServer } from '../../../support/smtp-server.ts';

const message: MailMessage = { to: 'comprador@correo.test', subject: 'Tu pedido <1>', html: '<p>Gracias</p>', text: 'Gracias' };
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp?.close();
});
afterEach(() => {
  smtp.reset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function quiet(): void {
  for (const level of ['info', 'warn', 'error'] as const) vi.spyOn(console, level).mockImplementation(() => undefined);
}

describe('isLocalStack', () => {
  it('is true only for a URL on this machine', () => {
    expect(isLocalStack('http://127.0.0.1:54321')).toBe(true);
    expect(isLocalStack('http://localhost:54321/')).toBe(true);
    expect(isLocalStack('http://[::1]:54321')).toBe(true);
    expect(isLocalStack('https://proyecto.supabase.co')).toBe(false);
    expect(isLocalStack('no es una URL')).toBe(false);
  });
});

describe('smtpSender', () => {
  it('sends both parts from the sender, the HTML wrapped in a Spanish document with the subject escaped', async () => {
    await smtpSender(smtp.url, 'Cartas Mx <pedidos@cartas.test>')(message);
    expect(smtp.received).toHaveLength(1);
    const { rcpt, mail } = smtp.received[0]!;
    expect(rcpt).toEqual(['comprador@correo.test']);
    expect(mail.from?.text).toContain('pedidos@cartas.test');
    expect(mail.subject).toBe('Tu pedido <1>');
    expect(mail.text?.trim()).toBe('Gracias');
    expect(mail.html).toContain('<html lang="es">');
    expect(mail.html).toContain('<title>Tu pedido &lt;1&gt;</title>');
    expect(mail.html).toContain('<p>Gracias</p>');
  });

  it('refuses a URL that is not smtp:// or smtps://', () => {
    expect(() => smtpSender('https://smtp.test', 'x@y.test')).toThrow('SMTP_URL debe empezar con smtp:// o smtps://, no https://.');
    expect(() => smtpSender('nada', 'x@y.test')).toThrow(/SMTP_URL no es una URL válida/);
  });
});

describe('localMailboxSender', () => {
  it("posts the message to the stack's mailbox with the service key, and fails on an error answer", async () => {
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(new Response('{}', { status: 201 }))
      .mockResolvedValueOnce(new Response('', { status: 500 }));
    vi.stubGlobal('fetch', fetchMock);
    const send = localMailboxSender('http://127.0.0.1:54321/', 'service-key');
    await send(message);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('http://127.0.0.1:54321/mailbox/api/messages');
    expect(init?.method).toBe('POST');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer service-key');
    expect(JSON.parse(init?.body as string)).toEqual(message);
    await expect(send(message)).rejects.toThrow('buzón local: 500');
  });
});

describe('mailTransportFor', () => {
  it('sends over SMTP when SMTP_URL and MAIL_FROM are both set, even on the local stack', async () => {
    const send = mailTransportFor({ smtpUrl: ` ${smtp.url} `, mailFrom: 'pedidos@cartas.test', supabaseUrl: 'http://127.0.0.1:54321', serviceRoleKey: 'k' });
    await send(message);
    expect(smtp.received.map((r) => r.rcpt[0])).toEqual([message.to]);
  });

  it("uses the local stack's mailbox when SMTP is not (fully) configured", async () => {
    quiet();
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(new Response('{}', { status: 201 }));
    vi.stubGlobal('fetch', fetchMock);
    await mailTransportFor({ smtpUrl: smtp.url, supabaseUrl: 'http://localhost:54321', serviceRoleKey: 'k' })(message);
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(smtp.received).toHaveLength(0);
  });

  it('fails every send with the reason on a hosted project without SMTP, or with a malformed SMTP_URL', async () => {
    quiet();
    await expect(mailTransportFor({ supabaseUrl: 'https://proyecto.supabase.co', serviceRoleKey: 'k' })(message)).rejects.toThrow(
      /sin proveedor de correo configurado/,
    );
    await expect(
      mailTransportFor({ smtpUrl: 'smtp//roto', mailFrom: 'a@b.test', supabaseUrl: 'http://127.0.0.1:54321', serviceRoleKey: 'k' })(message),
    ).rejects.toThrow(/SMTP_URL no es una URL válida/);
  });

  it('unconfiguredSender fails with the reason it was given', async () => {
    quiet();
    await expect(unconfiguredSender('sin SMTP')(message)).rejects.toThrow('sin SMTP');
  });
});
