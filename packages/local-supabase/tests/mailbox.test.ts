/**
 * The local mailbox: e-mails the auth server sends are listed newest first, as JSON for
 * the service role and as a Spanish HTML page (for this machine only) with clickable links,
 * and only the service role may empty it.
 */
import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from './helpers.ts';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ autoconfirm: false, siteUrl: 'http://localhost:4321' });
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

const anonClient = () => createClient(stack.url, stack.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });

interface Mail {
  id: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  created_at: string;
  links: string[];
}

async function messages(query = ''): Promise<Mail[]> {
  const res = await fetch(`${stack.url}/mailbox/api/messages${query}`, {
    headers: { apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/json');
  return (await res.json()) as Mail[];
}

describe('mailbox', () => {
  it('lists the sent e-mails newest first, filtered by recipient, with their links', async () => {
    const sb = anonClient();
    const first = `buzon.uno.${Date.now()}@correo.mx`;
    const second = `buzon.dos.${Date.now()}@correo.mx`;
    expect((await sb.auth.signUp({ email: first, password: 'secreto-123' })).error).toBeNull();
    expect((await sb.auth.signUp({ email: second, password: 'secreto-123' })).error).toBeNull();

    const all = await messages();
    const mine = all.filter((m) => m.to === first || m.to === second);
    expect(mine.map((m) => m.to)).toEqual([second, first]);
    expect(Date.parse(mine[0]!.created_at)).toBeGreaterThanOrEqual(Date.parse(mine[1]!.created_at));

    const onlyFirst = await messages(`?to=${encodeURIComponent(first.toUpperCase())}`);
    expect(onlyFirst).toHaveLength(1);
    const mail = onlyFirst[0]!;
    expect(Object.keys(mail).sort()).toEqual(['created_at', 'html', 'id', 'links', 'subject', 'text', 'to']);
    expect(mail.subject).toBe('Confirma tu cuenta en Cartas Mx');
    expect(mail.html).toContain('Cartas Mx');
    expect(mail.links).toHaveLength(1);
    expect(mail.links[0]).toMatch(new RegExp(`^${stack.url}/auth/v1/verify\\?token=[0-9a-f]+&type=signup&redirect_to=`));
    expect(mail.text).toContain(mail.links[0]!);
  });

  it('shows an HTML page in Spanish with each message and clickable links', async () => {
    const email = `buzon.html.${Date.now()}@correo.mx`;
    await anonClient().auth.signUp({ email, password: 'secreto-123' });
    const res = await fetch(`${stack.url}/mailbox`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('<html lang="es-MX">');
    expect(html).toContain('Buzón local');
    expect(html).toContain('Buzón local de desarrollo: solo existe en este equipo');
    expect(html).toContain(email);
    expect(html).toContain('Confirma tu cuenta en Cartas Mx');
    const [mail] = await messages(`?to=${encodeURIComponent(email)}`);
    const href = mail!.links[0]!.replace(/&/g, '&amp;');
    expect(html).toContain(`href="${href}"`);
    // Newest first: this message appears before any older one.
    const older = (await messages()).find((m) => m.to !== email);
    if (older) expect(html.indexOf(email)).toBeLessThan(html.indexOf(older.to));
  });

  it('only the service role may empty it', async () => {
    const email = `buzon.borrar.${Date.now()}@correo.mx`;
    await anonClient().auth.signUp({ email, password: 'secreto-123' });
    const denied = await fetch(`${stack.url}/mailbox/api/messages`, {
      method: 'DELETE',
      headers: { apikey: stack.anonKey, authorization: `Bearer ${stack.anonKey}` },
    });
    expect(denied.status).toBe(403);
    expect((await messages()).length).toBeGreaterThan(0);

    const ok = await fetch(`${stack.url}/mailbox/api/messages`, {
      method: 'DELETE',
      headers: { apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` },
    });
    expect(ok.status).toBe(204);
    expect(await messages()).toEqual([]);
    const page = await (await fetch(`${stack.url}/mailbox`)).text();
    expect(page).toContain('No hay correos todavía.');
  });

  it('the JSON list needs the service key: no key, the anon key or a user token get 401 JSON', async () => {
    const email = `buzon.privado.${Date.now()}@correo.mx`;
    await anonClient().auth.signUp({ email, password: 'secreto-123' });
    const url = `${stack.url}/mailbox/api/messages?to=${encodeURIComponent(email)}`;
    const refused: Array<Record<string, string>> = [
      {},
      { apikey: stack.anonKey },
      { apikey: stack.anonKey, authorization: `Bearer ${stack.anonKey}` },
      { authorization: 'Bearer nada' },
    ];
    for (const headers of refused) {
      const res = await fetch(url, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/json');
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.error).toBe('unauthorized');
      expect(JSON.stringify(body)).not.toContain(email);
    }
    // Either header carries the key.
    const accepted: Array<Record<string, string>> = [{ apikey: stack.serviceRoleKey }, { authorization: `Bearer ${stack.serviceRoleKey}` }];
    for (const headers of accepted) {
      const res = await fetch(url, { headers });
      expect(res.status).toBe(200);
      expect(((await res.json()) as Mail[]).map((m) => m.to)).toEqual([email]);
    }
  });

  it('serves the HTML page to this machine only: a request naming another host is refused', async () => {
    const local = await fetch(`${stack.url}/mailbox`);
    expect(local.status).toBe(200);
    expect(local.headers.get('x-frame-options')).toBe('DENY');
    expect(local.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // A page of another site reaching 127.0.0.1 through its own DNS name (DNS rebinding) sends its host.
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const u = new URL(`${stack.url}/mailbox`);
      const req = request({ host: u.hostname, port: u.port, path: '/mailbox', headers: { host: 'sitio-ajeno.example:80' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});
