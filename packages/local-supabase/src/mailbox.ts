/**
 * Local mailbox: every e-mail the stack sends is appended to `${dataDir}/mailbox.jsonl`
 * and shown at /mailbox (HTML) and /mailbox/api/messages (JSON), because the local stack
 * has no network to deliver mail with. The e-mails hold sign-in and recovery links, so the
 * JSON API answers only the service key and the page only this machine.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { callerFromRequest, corsHeaders, isLoopbackRequest, isServiceRole, readJson, sendJson } from './http.ts';
import type { Handler, StackContext } from './types.ts';

export interface MailMessage {
  id: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  created_at: string;
  links: string[];
}

function mailboxFile(ctx: StackContext): string {
  return path.join(ctx.config.dataDir, 'mailbox.jsonl');
}

/** Serialises appends and clears so two writers never interleave a line. */
const queues = new WeakMap<object, Promise<unknown>>();
function serialised<T>(ctx: StackContext, fn: () => Promise<T>): Promise<T> {
  const prev = queues.get(ctx.config) ?? Promise.resolve();
  const next = prev.then(fn, fn);
  queues.set(
    ctx.config,
    next.catch(() => undefined),
  );
  return next;
}

/** The http(s) links of an HTML body, in order, without duplicates. */
export function extractLinks(html: string): string[] {
  const links: string[] = [];
  for (const m of html.matchAll(/href\s*=\s*"([^"]+)"/gi)) {
    const url = decodeHtml(m[1]!);
    if (/^https?:\/\//i.test(url) && !links.includes(url)) links.push(url);
  }
  return links;
}

function decodeHtml(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Stores an outgoing e-mail in the local mailbox. */
export async function sendMail(ctx: StackContext, msg: { to: string; subject: string; html: string; text: string }): Promise<void> {
  const record: MailMessage = {
    id: randomUUID(),
    to: msg.to.toLowerCase(),
    subject: msg.subject,
    html: msg.html,
    text: msg.text,
    created_at: new Date().toISOString(),
    links: extractLinks(msg.html),
  };
  const file = mailboxFile(ctx);
  await serialised(ctx, async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.appendFile(file, JSON.stringify(record) + '\n', 'utf8');
  });
}

/** All stored messages, newest first; unreadable lines are skipped. */
export async function readMessages(ctx: StackContext, to?: string): Promise<MailMessage[]> {
  let raw = '';
  try {
    raw = await fs.readFile(mailboxFile(ctx), 'utf8');
  } catch {
    return [];
  }
  const wanted = to?.trim().toLowerCase();
  const out: MailMessage[] = [];
  for (const line of raw.split('\n')) {
    if (!line.trim()) continue;
    try {
      const m = JSON.parse(line) as MailMessage;
      if (!wanted || m.to === wanted) out.push(m);
    } catch {
      // A torn line (the process died mid-write) must not hide the other messages.
    }
  }
  return out.reverse();
}

const dateFormat = new Intl.DateTimeFormat('es-MX', {
  dateStyle: 'long',
  timeStyle: 'medium',
  timeZone: 'America/Mexico_City',
});

function renderPage(messages: MailMessage[], to: string | undefined, brand: string): string {
  const items = messages
    .map(
      (m) => `<article class="mensaje">
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta"><strong>Para:</strong> ${escapeHtml(m.to)} · <strong>Fecha:</strong> <time datetime="${escapeHtml(m.created_at)}">${escapeHtml(dateFormat.format(new Date(m.created_at)))}</time></p>
  <div class="cuerpo">${m.html}</div>
</article>`,
    )
    .join('\n');
  const filtro = to ? ` para ${escapeHtml(to)}` : '';
  return `<!doctype html>
<html lang="es-MX">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Buzón local · ${escapeHtml(brand)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:860px;margin:2rem auto;padding:0 1rem;color:#1b1b1b;background:#f6f6f8}
h1{font-size:1.6rem}
.mensaje{background:#fff;border:1px solid #ddd;border-radius:8px;padding:1rem 1.25rem;margin:1rem 0}
.mensaje h2{font-size:1.15rem;margin:0 0 .25rem}
.meta{color:#555;font-size:.9rem;margin:0 0 .75rem}
.cuerpo{border-top:1px solid #eee;padding-top:.75rem}
.aviso{background:#fff4ce;border:2px solid #8a6d00;border-radius:8px;padding:.75rem 1rem;color:#3d3000;font-weight:600}
a{color:#0b57d0}
</style>
</head>
<body>
<main>
<p class="aviso" role="note">Buzón local de desarrollo: solo existe en este equipo y guarda los correos que el servidor local de pruebas habría enviado. Ningún correo sale de aquí.</p>
<h1>Buzón local${filtro}</h1>
<p>Correos que la tienda envió en este equipo, del más reciente al más antiguo. ${messages.length} ${messages.length === 1 ? 'mensaje' : 'mensajes'}.</p>
${messages.length ? items : '<p>No hay correos todavía.</p>'}
</main>
</body>
</html>`;
}

/** Answers every /mailbox request. */
export const handleMailbox: Handler = async (req, res, rawPath, url, ctx) => {
  const p = rawPath.replace(/\/+$/, '') || '/';
  const method = req.method ?? 'GET';
  if (method === 'OPTIONS') {
    res.writeHead(204, corsHeaders());
    res.end();
    return;
  }
  const to = url.searchParams.get('to') ?? undefined;
  if (p === '/' && (method === 'GET' || method === 'HEAD')) {
    if (!isLoopbackRequest(req)) {
      sendJson(res, 403, { error: 'forbidden', message: 'El buzón local solo se muestra en este equipo (127.0.0.1).' });
      return;
    }
    const html = renderPage(await readMessages(ctx, to), to, ctx.config.brand);
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      // The bodies are the stack's own e-mails; still, no script runs and no other site frames it.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
    });
    res.end(method === 'HEAD' ? undefined : html);
    return;
  }
  if (p === '/api/messages' && method === 'GET') {
    if (!(await isServiceRole(req, ctx))) {
      sendJson(res, 401, { error: 'unauthorized', message: 'Se requiere la clave de servicio (apikey o Authorization: Bearer).' });
      return;
    }
    sendJson(res, 200, await readMessages(ctx, to), { 'cache-control': 'no-store' });
    return;
  }
  if (p === '/api/messages' && method === 'DELETE') {
    const caller = await callerFromRequest(req, ctx);
    if (!caller || caller.role !== 'service_role') {
      sendJson(res, 403, { error: 'forbidden', message: 'Se requiere la clave de servicio.' });
      return;
    }
    await serialised(ctx, async () => {
      if (to) {
        const keep = (await readMessages(ctx)).filter((m) => m.to !== to.trim().toLowerCase()).reverse();
        await fs.writeFile(mailboxFile(ctx), keep.map((m) => JSON.stringify(m) + '\n').join(''), 'utf8');
      } else {
        await fs.rm(mailboxFile(ctx), { force: true });
      }
    });
    res.writeHead(204, corsHeaders());
    res.end();
    return;
  }
  if (p === '/api/messages' && method === 'POST') {
    // The shop's server sends its own e-mails (order confirmations) here, with the service key.
    const caller = await callerFromRequest(req, ctx);
    if (!caller || caller.role !== 'service_role') {
      sendJson(res, 403, { error: 'forbidden', message: 'Se requiere la clave de servicio.' });
      return;
    }
    const body = await readJson<Record<string, unknown>>(req, {});
    const fields = ['to', 'subject', 'html', 'text'] as const;
    if (!body || fields.some((f) => typeof body[f] !== 'string') || !/^[^\s@]+@[^\s@]+$/.test(String(body.to))) {
      sendJson(res, 400, { error: 'invalid_request', message: 'Se requieren to, subject, html y text.' });
      return;
    }
    await sendMail(ctx, { to: String(body.to), subject: String(body.subject), html: String(body.html), text: String(body.text) });
    sendJson(res, 201, { ok: true });
    return;
  }
  if (p === '/api/messages' || p === '/') {
    sendJson(res, 405, { error: 'method_not_allowed', message: 'Método no permitido.' });
    return;
  }
  sendJson(res, 404, { error: 'not_found', message: 'No encontrado.' });
};
