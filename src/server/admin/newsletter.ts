/**
 * The newsletter list for the back office: JSON for the 'Boletín' screen and CSV for
 * 'Exportar CSV'. Only the service role reads newsletter_subscribers, after the caller was
 * checked to be an admin.
 */
import type { ServerContext } from '../context.ts';
import { answer } from '../http/json.ts';
import { requireAdmin } from '../http/auth.ts';
import * as answers from '~/domain/api-answers.ts';

/** One subscriber. */
export type Subscriber = {
  email: string;
  created_at: string;
};

/** One CSV field as RFC 4180 wants it: quoted when it holds a comma, quote, CR or LF; quotes doubled. */
export function csvField(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  // A leading =, +, - or @ would run as a formula in a spreadsheet.
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows as CSV: a header row, CRLF line ends (RFC 4180). */
export function toCsv(header: readonly string[], rows: ReadonlyArray<readonly unknown[]>): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** Every subscriber, newest first (pages of 1,000 rows, the REST cap). */
export async function allSubscribers(ctx: ServerContext): Promise<Subscriber[]> {
  const out: Subscriber[] = [];
  for (let from = 0; ; from += 1000) {
    const { data, error } = await ctx.admin
      .from('newsletter_subscribers')
      .select('email, created_at')
      .order('created_at', { ascending: false })
      .order('email')
      .range(from, from + 999);
    if (error) throw new Error(`newsletter_subscribers: ${error.message}`);
    const rows: Subscriber[] = data ?? [];
    out.push(...rows);
    if (rows.length < 1000 || out.length >= 200_000) return out;
  }
}

/** GET /api/admin/newsletter: {count, subscribers}. */
export async function newsletterList(request: Request, ctx: ServerContext): Promise<Response> {
  await requireAdmin(request, ctx.admin);
  const subscribers = await allSubscribers(ctx);
  return answer(answers.subscribersAnswer, { count: subscribers.length, subscribers });
}

/** GET /api/admin/newsletter.csv: 'correo,fecha_de_suscripcion' and one row per subscriber. */
export async function newsletterCsv(request: Request, ctx: ServerContext): Promise<Response> {
  await requireAdmin(request, ctx.admin);
  const subscribers = await allSubscribers(ctx);
  const body = toCsv(
    ['correo', 'fecha_de_suscripcion'],
    subscribers.map((s) => [s.email, s.created_at]),
  );
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="boletin-${day}.csv"`,
      'cache-control': 'no-store',
    },
  });
}
