/**
 * The payments sweeper, run every minute by each server process (scripts/serve.mjs calls
 * POST /api/internal/sweep, postSweep below). Only the process holding the database lease sweeps
 * (sweep_expired_orders), so several servers never do the same work twice. The holder keeps the
 * lease between its sweeps (each renews it for about two intervals): one process is the sweeper
 * while it runs, and when it stops another takes over once the lease runs out. One sweep:
 *   1. releases the expired reservations (pending orders past expires_at become 'Cancelado' and
 *      their stock returns), as `select public.release_expired_orders()` would from pg_cron;
 *   2. closes the provider payments still open for orders that can no longer take them
 *      (cancels the PaymentIntent, voids the PayPal order); one that took money meanwhile is
 *      settled, which refunds it;
 *   3. retries refunds that failed earlier, and makes the refunds of preorders an arrival could not
 *      fill that its request left undone (a server stopped in the middle of 'Registrar llegada');
 *   4. expires the buylist submissions not received in time, and turns the restock and price-drop
 *      alerts the database queued into e-mails of the outbox;
 *   5. sends the e-mails of the outbox that are due (claimed with skip locked, so safe anywhere).
 */
import { hostname } from 'node:os';
import { z } from 'zod';
import { ORDER_STATUS } from '~/domain/orders.ts';
import { PAYMENTS_SWEEPER_OPERATOR_TEXT } from '~/i18n/payments.ts';
import { finishArrivalRefunds } from './admin/preorders.ts';
import { sendAlertMail } from './alerts/mail.ts';
import { closeOpenAttempt } from './orders/open-attempts.ts';
import type { ServerContext } from './context.ts';
import { requireShopServer } from './http/auth.ts';
import { json } from './http/json.ts';
import { deliverDueMail } from './mail/outbox.ts';
import { refundProviders, retryDueRefunds } from './orders/refunds.ts';
import { processDueInvoices } from './invoicing/queue.ts';

/** What one sweep did. */
export interface SweepReport {
  /** False when another process holds the lease (this one did nothing). */
  leader: boolean;
  released: number;
  closed: number;
  refunds: { retried: number; succeeded: number };
  mail: { claimed: number; sent: number; retrying: number; gaveUp: number };
}

/** What sweep_expired_orders answers: whether this process holds the lease, and the reservations it released. */
const leaseAnswer = z.object({ leader: z.boolean(), released: z.number() });

/**
 * How long a sweep holds the lease: two sweep intervals (SWEEP_INTERVAL_MS, default one minute,
 * as scripts/serve.mjs runs them) and five seconds, so the holder renews it before it runs out.
 */
export function sweepLeaseSeconds(intervalMs: number = Number(process.env.SWEEP_INTERVAL_MS || 60_000)): number {
  const every = Math.max(1000, Number.isFinite(intervalMs) ? intervalMs : 60_000);
  return Math.ceil((2 * every) / 1000) + 5;
}

/** How a sweep treats the lease. */
export interface SweepOptions {
  /**
   * True for a server's periodic sweeps: keep the lease after a successful sweep (for
   * `leaseSeconds`, default sweepLeaseSeconds()), so this process stays the sweeper. False (a
   * one-off sweep): hold it for 50 s at most and give it back at the end.
   */
  keepLease?: boolean;
  leaseSeconds?: number;
}

/** One sweep by `holder` (a name unique to this process). */
export async function sweep(ctx: ServerContext, holder: string, options: SweepOptions = {}): Promise<SweepReport> {
  const keepLease = options.keepLease === true;
  const leaseSeconds = options.leaseSeconds ?? (keepLease ? sweepLeaseSeconds() : 50);
  const { data, error } = await ctx.admin.rpc('sweep_expired_orders', { p_holder: holder, p_seconds: leaseSeconds });
  if (error) throw new Error(`sweep_expired_orders: ${error.message}`);
  const lease = leaseAnswer.parse(data);
  const noMail = { claimed: 0, sent: 0, retrying: 0, gaveUp: 0 };
  const report: SweepReport = { leader: lease.leader, released: lease.released, closed: 0, refunds: { retried: 0, succeeded: 0 }, mail: noMail };
  if (!lease.leader) return report;
  let failed = true;
  try {
    // Only attempts of providers this server has, and not those it could not close a moment ago
    // (each waits 1, 2, 4 … 60 minutes after a failed look), so none starves the others.
    const { data: open, error: openError } = await ctx.admin
      .from('payment_attempts')
      .select('id, order_id, provider, ref, orders!inner(status)')
      .eq('status', 'open')
      .neq('orders.status', ORDER_STATUS.pending)
      .in('provider', refundProviders(ctx))
      .lte('next_check_at', new Date().toISOString())
      .order('next_check_at')
      .limit(50);
    if (openError) throw new Error(`payment_attempts: ${openError.message}`);
    for (const attempt of open ?? []) {
      let problem: string | null = PAYMENTS_SWEEPER_OPERATOR_TEXT.stillProcessing;
      try {
        if (await closeOpenAttempt(ctx, attempt)) {
          report.closed += 1;
          problem = null;
        }
      } catch (failure) {
        problem = failure instanceof Error ? failure.message : String(failure);
        console.error(`[pagos] no se pudo cerrar el pago ${attempt.provider} ${attempt.ref} del pedido ${attempt.order_id}:`, failure);
      }
      if (problem !== null) {
        const { error: deferError } = await ctx.admin.rpc('defer_payment_attempt', { p_attempt_id: attempt.id, p_error: problem });
        if (deferError) console.error(`[pagos] defer_payment_attempt: ${deferError.message}`);
      }
    }
    report.refunds = await retryDueRefunds(ctx);
    await finishArrivalRefunds(ctx).catch((failure: unknown) => console.error('[preventas] no se pudieron terminar los reembolsos de una llegada:', failure));
    // Facturas: those of orders refunded since are cancelled, those due are issued or retried.
    await processDueInvoices(ctx).catch((failure: unknown) => console.error('[facturas]', failure));
    // Buylist submissions not received in time give their reserved copies back (their e-mails are queued).
    const { error: buylistError } = await ctx.admin.rpc('release_expired_buylist_submissions', {});
    if (buylistError) console.error('[buylist] release_expired_buylist_submissions:', buylistError.message);
    // The restock and price-drop alerts the database queued become e-mails of the outbox.
    await sendAlertMail(ctx).catch((failure: unknown) => console.error('[avisos] no se pudieron escribir los correos de avisos:', failure));
    report.mail = await deliverDueMail(ctx).catch((failure: unknown) => {
      console.error('[correo] no se pudieron reintentar los correos:', failure);
      return noMail;
    });
    failed = false;
  } finally {
    // A sweep that failed gives the lease back, so another process may try at once; a server's
    // periodic sweep otherwise keeps it and this process stays the sweeper.
    if (failed || !keepLease) await ctx.admin.rpc('end_sweep', { p_holder: holder });
  }
  if (report.released > 0 || report.closed > 0 || report.refunds.retried > 0) {
    console.info(
      `[pagos] barrido: ${report.released} reservas liberadas, ${report.closed} pagos cerrados, ${report.refunds.succeeded}/${report.refunds.retried} reembolsos reintentados`,
    );
  }
  return report;
}

/** This process's name in the sweeper's lease (as scripts/serve.mjs names it in the rebuild jobs). */
const holder = `${hostname()}-${process.pid}`;
let last: { at: string; report: SweepReport } | null = null;

/**
 * POST /api/internal/sweep: the server's periodic sweep (this process stays the sweeper while it
 * runs). Only for the shop's own servers: the bearer token is the service role key. `ctx` is
 * built only once the caller is known to be the shop.
 */
export async function postSweep(request: Request, ctx: () => ServerContext, serviceRoleKey: string | undefined): Promise<Response> {
  requireShopServer(request, serviceRoleKey);
  const at = new Date().toISOString();
  const report = await sweep(ctx(), holder, { keepLease: true });
  last = { at, report };
  return json(report);
}

/** GET /api/internal/sweep: when this process last swept and what it did (for operators, with the same key). */
export async function getSweep(request: Request, serviceRoleKey: string | undefined): Promise<Response> {
  requireShopServer(request, serviceRoleKey);
  return json({ holder, last });
}
