/**
 * Issuing and cancelling facturas. The database holds the queue (public.invoices, see
 * supabase/migrations/20261129009000_invoices.sql); this module does the provider's part:
 * - a shopper's request is stored ('pending') and issued at once; a provider that fails or does
 *   not answer leaves it 'failed', and the sweeper retries it after 1, 2, 4 … 60 minutes, up to
 *   MAX_INVOICE_ATTEMPTS. The purchase is never affected.
 * - an issued factura is e-mailed to the receiver's address with its PDF and XML attached;
 * - the sweeper also finds the facturas of orders refunded since, by whatever path, and cancels
 *   them at the provider (motive '03': the operation did not happen), telling the shopper once;
 *   a refunded sale of an issued factura global gets a credit note instead (./credit-notes.ts).
 */
import {
  globalInvoiceBreakdown,
  globalInvoicePeriod,
  InvoiceAmountsError,
  orderInvoiceBreakdown,
  paymentFormFor,
  PUBLIC_CFDI_USE,
  PUBLIC_LEGAL_NAME,
  PUBLIC_RFC,
  PUBLIC_TAX_REGIME,
  type PaymentForm,
} from '~/domain/invoices.ts';
import { centavos } from '~/domain/money.ts';
import { orderDisplayId, ORDER_STATUS } from '~/domain/orders.ts';
import { INVOICE_API_TEXT, INVOICE_CONCEPT_TEXT, INVOICE_PROVIDER_ERROR_TEXT } from '~/i18n/invoices.ts';
import type { ServerContext } from '../context.ts';
import { ApiError } from '../http/json.ts';
import { findOrder } from '../orders/order-row.ts';
import { invoiceCancelledEmail, invoiceIssuedEmail } from '../mail/templates/invoice.ts';
import { invoiceAttachmentRefs } from './attachments.ts';
import { requestDueCreditNotes } from './credit-notes.ts';
import { globalSalesOf, paidAmountsOf, saleLinesOf } from './sale-row.ts';
import type { InvoiceProvider, InvoiceRow } from './types.ts';
import { customerOf } from './types.ts';

/** A server context; its `invoicing` provider is missing or null where invoicing is unavailable. */
type InvoicingContext = ServerContext;

/** Attempts before a factura is left 'failed' for good (the back office lists it). */
const MAX_INVOICE_ATTEMPTS = 8;

/** Wait before the next attempt after `attempts` failed ones: 1, 2, 4 … 60 minutes. */
function invoiceRetryDelayMs(attempts: number): number {
  return Math.min(60, 2 ** Math.max(0, attempts - 1)) * 60_000;
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

/** The Spanish answer for each refusal of request_order_invoice / create_global_invoice. */
const REFUSALS: Record<string, number> = {
  order_not_found: 404,
  not_paid: 409,
  window_closed: 409,
  no_tax_profile: 409,
  already_invoiced: 409,
  in_global_invoice: 409,
  amount_mismatch: 409,
  unknown_payment_form: 409,
  invalid_key: 400,
  invalid_period: 400,
  month_open: 409,
  already_issued: 409,
  nothing_to_invoice: 409,
  candidates_changed: 409,
  invalid_concepts: 409,
};

function refusal(error: { message: string; details?: string | null }): ApiError {
  const code = error.details ?? '';
  const status = REFUSALS[code];
  if (status) return new ApiError(status, error.message, code);
  return new ApiError(502, INVOICE_API_TEXT.readFailed, 'upstream_error');
}

function requireProvider(ctx: InvoicingContext): InvoiceProvider {
  if (!ctx.invoicing) throw new ApiError(503, INVOICE_API_TEXT.unavailable, 'invoicing_unavailable');
  return ctx.invoicing;
}

/** The concepts of one paid order, from what the order recorded (never from the browser). */
async function orderConcepts(ctx: ServerContext, orderId: string, order: { discount: number; shipping: number; total: number }) {
  const { data, error } = await ctx.admin
    .from('order_items')
    .select('quantity, price, offer_label, product_id, products(name, sat_product_key, sat_unit_key)')
    .eq('order_id', orderId)
    .order('id');
  if (error) throw new Error(`order_items: ${error.message}`);
  const lines = saleLinesOf(data ?? [], INVOICE_CONCEPT_TEXT.product);
  return orderInvoiceBreakdown(
    { lines, discount: centavos(order.discount), shipping: centavos(order.shipping), total: centavos(order.total) },
    INVOICE_CONCEPT_TEXT.shipping,
  );
}

/** What the shopper's request answers. */
interface RequestedInvoice {
  id: string;
  status: string;
  replayed: boolean;
}

/**
 * A shopper asks for the factura of their own paid order. The database checks ownership, the
 * payment, the month, the saved tax data and that no other factura exists; then it is issued at
 * once (its failure is only recorded: the sweeper retries it).
 */
export async function requestOrderInvoice(ctx: InvoicingContext, userId: string, orderId: string, requestKey: string): Promise<RequestedInvoice> {
  const provider = requireProvider(ctx);
  const order = await findOrder(ctx, orderId);
  if (!order || order.user_id !== userId) throw new ApiError(404, INVOICE_API_TEXT.orderNotFound, 'order_not_found');
  let concepts;
  try {
    concepts = await orderConcepts(ctx, orderId, order);
  } catch (err) {
    if (err instanceof InvoiceAmountsError) throw new ApiError(409, INVOICE_API_TEXT.amountsMismatch, 'amount_mismatch');
    throw err;
  }
  const form: PaymentForm | null = paymentFormFor({
    method: order.payment_method,
    total: order.total,
    creditApplied: order.credit_applied,
    cardFunding: order.card_funding,
    installments: order.installments,
  });
  const { data, error } = await ctx.admin.rpc('request_order_invoice', {
    p_user_id: userId,
    p_order_id: orderId,
    p_request_key: requestKey,
    p_payment_form: form ?? '',
    p_concepts: concepts.concepts as unknown as never,
    p_provider: provider.name,
  });
  if (error) throw refusal(error);
  const answer = data as unknown as RequestedInvoice;
  if (!answer.replayed) {
    await issueInvoice(ctx, answer.id);
    const { data: row } = await ctx.admin.from('invoices').select('status').eq('id', answer.id).maybeSingle();
    if (row) answer.status = row.status;
  }
  return answer;
}

/** Issues (or cancels) one claimed factura and records the outcome; never throws. */
async function work(ctx: InvoicingContext, provider: InvoiceProvider, row: InvoiceRow): Promise<'done' | 'failed'> {
  const cancelling = row.status === 'cancelling';
  try {
    if (cancelling) {
      await provider.cancel(row, (row.cancel_motive as '02' | '03' | null) ?? '03');
      const { error } = await ctx.admin.rpc('complete_invoice_cancellation', { p_id: row.id });
      if (error) throw new Error(error.message);
      await tellCancelled(ctx, row);
    } else {
      const issued = await provider.issue(row);
      const { data, error } = await ctx.admin.rpc('complete_invoice', {
        p_id: row.id,
        p_attempt: row.attempts,
        p_provider_id: issued.providerId,
        p_cfdi_uuid: issued.cfdiUuid,
        p_series: issued.series ?? undefined,
        p_folio: issued.folio ?? undefined,
      });
      if (error) throw new Error(error.message);
      if (data === true) await tellIssued(ctx, { ...row, cfdi_uuid: issued.cfdiUuid }, provider.testMode);
    }
    return 'done';
  } catch (err) {
    const giveUp = row.attempts >= MAX_INVOICE_ATTEMPTS;
    const next = giveUp ? null : new Date(Date.now() + invoiceRetryDelayMs(row.attempts)).toISOString();
    const message = giveUp ? `${describe(err)} · ${INVOICE_PROVIDER_ERROR_TEXT.attemptsExhausted(row.attempts)}` : describe(err);
    const { error } = await ctx.admin.rpc('fail_invoice', { p_id: row.id, p_attempt: row.attempts, p_error: message, p_next_attempt_at: next as string });
    if (error) console.error(`[facturas] fail_invoice ${row.id}: ${error.message}`);
    console.warn(`[facturas] ${cancelling ? 'cancel' : 'issue'} ${row.id} attempt ${row.attempts}: ${message}`);
    return 'failed';
  }
}

/** Claims the factura `id` when it is waiting and issues (or cancels) it now. */
export async function issueInvoice(ctx: InvoicingContext, id: string): Promise<void> {
  const provider = ctx.invoicing ?? null;
  if (!provider) return;
  const { data, error } = await ctx.admin.rpc('claim_invoices', { p_limit: 1, p_id: id, p_provider: provider.name });
  if (error) throw new Error(`claim_invoices: ${error.message}`);
  for (const row of (data ?? []) as InvoiceRow[]) await work(ctx, provider, row);
}

/** What one sweep of the facturas did. */
interface InvoiceSweepReport {
  cancellationsRequested: number;
  /** Credit notes queued for refunded sales of a factura global (./credit-notes.ts). */
  creditNotesRequested: number;
  claimed: number;
  done: number;
  failed: number;
}

/**
 * The sweeper's part: asks for the cancellation of the facturas of orders refunded since, then
 * issues or cancels the facturas that are due, a few at a time.
 */
export async function processDueInvoices(ctx: InvoicingContext, limit = 20): Promise<InvoiceSweepReport> {
  const report: InvoiceSweepReport = { cancellationsRequested: 0, creditNotesRequested: 0, claimed: 0, done: 0, failed: 0 };
  const provider = ctx.invoicing ?? null;
  if (!provider) return report;
  const { data: refunded, error: refundedError } = await ctx.admin
    .from('invoices')
    .select('order_id, orders!inner(status)')
    .eq('kind', 'order')
    .in('status', ['pending', 'failed', 'issued'])
    .eq('orders.status', ORDER_STATUS.refunded)
    .limit(50);
  if (refundedError) throw new Error(`invoices: ${refundedError.message}`);
  for (const { order_id } of refunded ?? []) {
    if (!order_id) continue;
    const { error } = await ctx.admin.rpc('request_invoice_cancellation', { p_order_id: order_id, p_motive: '03' });
    if (error) console.error(`[facturas] request_invoice_cancellation ${order_id}: ${error.message}`);
    else report.cancellationsRequested += 1;
  }
  report.creditNotesRequested = await requestDueCreditNotes(ctx, provider).catch((failure: unknown) => {
    console.error(`[facturas] notas de crédito: ${describe(failure)}`);
    return 0;
  });
  const { data, error } = await ctx.admin.rpc('claim_invoices', { p_limit: limit, p_provider: provider.name });
  if (error) throw new Error(`claim_invoices: ${error.message}`);
  for (const row of (data ?? []) as InvoiceRow[]) {
    report.claimed += 1;
    report[await work(ctx, provider, row)] += 1;
  }
  return report;
}

/** Where the shopper's e-mails about a factura go: the tax data's e-mail, else the account's. */
async function recipientOf(ctx: ServerContext, row: InvoiceRow): Promise<string | null> {
  const email = customerOf(row).email;
  if (email) return email;
  if (!row.user_id) return null;
  const { data } = await ctx.admin.auth.admin.getUserById(row.user_id);
  return data.user?.email ?? null;
}

async function tellIssued(ctx: ServerContext, row: InvoiceRow, testMode: boolean): Promise<void> {
  if (row.kind !== 'order' || !row.order_id) return;
  const to = await recipientOf(ctx, row);
  if (!to) return;
  const mail = invoiceIssuedEmail({ orderId: row.order_id, cfdiUuid: row.cfdi_uuid, siteUrl: ctx.siteUrl, testMode });
  // The PDF and XML go attached: the outbox stores where to fetch them and downloads them when it sends.
  await ctx.mail({ to, ...mail, kind: 'invoice_issued', dedupeKey: `invoice_issued:${row.id}`, attachmentRefs: invoiceAttachmentRefs(row) });
}

async function tellCancelled(ctx: ServerContext, row: InvoiceRow): Promise<void> {
  if (row.kind !== 'order' || !row.order_id) return;
  const { data: first } = await ctx.admin.rpc('mark_invoice_shopper_told', { p_id: row.id });
  if (first !== true) return;
  const to = await recipientOf(ctx, row);
  if (!to) return;
  const mail = invoiceCancelledEmail({ orderId: row.order_id, cfdiUuid: row.cfdi_uuid, siteUrl: ctx.siteUrl });
  await ctx.mail({ to, ...mail, kind: 'invoice_cancelled', dedupeKey: `invoice_cancelled:${row.id}` });
}

/** The back office's factura global of a month: the uninvoiced sales, their concepts, then the queue. */
export async function issueGlobalInvoice(
  ctx: InvoicingContext,
  year: number,
  month: number,
  actor: string,
  now: Date = new Date(),
): Promise<{ id: string; orders: number }> {
  const provider = requireProvider(ctx);
  let period;
  try {
    period = globalInvoicePeriod(year, month);
  } catch {
    throw new ApiError(400, INVOICE_API_TEXT.invalidPeriod, 'invalid_period');
  }
  const { data: rows, error } = await ctx.admin.rpc('invoice_global_candidates', { p_year: period.year, p_month: month });
  if (error) throw refusal(error);
  const candidates = globalSalesOf(rows ?? []);
  const { data: orders, error: ordersError } = await ctx.admin
    .from('orders')
    .select('id, total, credit_applied, payment_method, card_funding, installments')
    .in(
      'id',
      candidates.map((c) => c.order_id),
    );
  if (ordersError) throw new Error(`orders: ${ordersError.message}`);
  const byId = new Map((orders ?? []).map((o) => [o.id, o]));
  const sales = candidates.map((c) => ({ reference: orderDisplayId(c.order_id).slice(1), total: c.total }));
  const breakdown = globalInvoiceBreakdown(sales, INVOICE_CONCEPT_TEXT.globalSale);
  // SAT: the form that paid the largest amount of the period.
  const byForm = new Map<string, number>();
  for (const c of candidates) {
    const o = byId.get(c.order_id);
    const form = o ? paymentFormFor({ method: o.payment_method, cardFunding: o.card_funding, installments: o.installments, ...paidAmountsOf(o) }) : null;
    if (form) byForm.set(form, (byForm.get(form) ?? 0) + c.total);
  }
  const form = [...byForm.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? '01';
  const customer = { rfc: PUBLIC_RFC, legal_name: PUBLIC_LEGAL_NAME, tax_regime: PUBLIC_TAX_REGIME, tax_zip: '', cfdi_use: PUBLIC_CFDI_USE };
  const { data: created, error: createError } = await ctx.admin.rpc('create_global_invoice', {
    p_year: period.year,
    p_month: month,
    p_order_ids: candidates.map((c) => c.order_id),
    p_concepts: breakdown.concepts as unknown as never,
    p_customer: customer as unknown as never,
    p_payment_form: form,
    p_provider: provider.name,
    p_actor: actor,
    p_now: now.toISOString(),
  });
  if (createError) throw refusal(createError);
  const result = created as unknown as { id: string; orders: number };
  await issueInvoice(ctx, result.id);
  return { id: result.id, orders: result.orders };
}
