/**
 * The alert e-mails the database queued (table alert_mail_queue: a restock alert that fired, a
 * price drop on a favorite) become e-mails of the outbox: the sweeper calls `sendAlertMail` each
 * minute. Each queued row is one e-mail under the dedupe key `alert:<row id>`, so a row handed over
 * twice (a sweep that died before marking it) is still one e-mail; once handed over it is marked
 * mailed.
 */
import { z } from 'zod';
import { databasePriceCentavos } from '~/domain/money.ts';
import type { ServerContext } from '../context.ts';
import { priceDropEmail } from '../mail/templates/price-drop.ts';
import { restockAlertEmail } from '../mail/templates/restock-alert.ts';

/** One row of alert_mail_due: what the e-mail says and to whom. */
const dueRow = z.object({
  id: z.union([z.number(), z.string()]).transform((id) => String(id)),
  kind: z.enum(['restock', 'price_drop']),
  email: z.string().min(3),
  product_id: z.string(),
  product_name: z.string(),
  offer_label: z.string().nullable(),
  units: z.number().nullable(),
  old_price: z.union([z.number(), z.string()]).nullable(),
  new_price: z.union([z.number(), z.string()]).nullable(),
  cancel_token: z.string().nullable(),
});
type DueRow = z.infer<typeof dueRow>;

/** What one `sendAlertMail` did. */
export interface AlertMailReport {
  queued: number;
  /** Rows that can never become an e-mail (logged and set aside). */
  skipped: number;
}

/** The e-mail of one queued row, or null when the row cannot make one. */
export function alertEmail(row: DueRow, siteUrl: string): { kind: string; subject: string; html: string; text: string } | null {
  if (row.kind === 'restock') {
    if (!row.cancel_token) return null;
    const mail = restockAlertEmail(
      { productId: row.product_id, productName: row.product_name, offerLabel: row.offer_label, units: row.units ?? 1, cancelToken: row.cancel_token },
      siteUrl,
    );
    return { kind: 'restock_alert', ...mail };
  }
  const before = databasePriceCentavos(row.old_price);
  const now = databasePriceCentavos(row.new_price);
  if (before === null || now === null) return null;
  return {
    kind: 'price_drop',
    ...priceDropEmail(
      { productId: row.product_id, productName: row.product_name, offerLabel: row.offer_label, before, now, cancelToken: row.cancel_token },
      siteUrl,
    ),
  };
}

/** Hands the queued alert e-mails (up to `limit`) to the outbox and marks them mailed. */
export async function sendAlertMail(ctx: Pick<ServerContext, 'admin' | 'mail' | 'siteUrl'>, limit = 100): Promise<AlertMailReport> {
  const { data, error } = await ctx.admin.rpc('alert_mail_due', { p_limit: limit });
  if (error) throw new Error(`alert_mail_due: ${error.message}`);
  const report: AlertMailReport = { queued: 0, skipped: 0 };
  const mailed: string[] = [];
  const done: string[] = [];
  for (const raw of data ?? []) {
    const parsed = dueRow.safeParse(raw);
    const mail = parsed.success ? alertEmail(parsed.data, ctx.siteUrl) : null;
    if (!parsed.success || !mail) {
      // Such a row never makes an e-mail (no address, say): it is set aside, so it does not hold
      // back the rows after it.
      report.skipped += 1;
      console.error('[avisos] un aviso sin correo posible se descarta', raw);
      const id = (raw as { id?: unknown }).id;
      if (typeof id === 'number' || typeof id === 'string') done.push(String(id));
      continue;
    }
    await ctx.mail({ to: parsed.data.email, subject: mail.subject, html: mail.html, text: mail.text, kind: mail.kind, dedupeKey: `alert:${parsed.data.id}` });
    mailed.push(parsed.data.id);
  }
  done.push(...mailed);
  if (done.length > 0) {
    const { error: markError } = await ctx.admin.from('alert_mail_queue').update({ mailed_at: new Date().toISOString() }).in('id', done.map(Number));
    if (markError) throw new Error(`alert_mail_queue: ${markError.message}`);
  }
  report.queued = mailed.length;
  return report;
}
