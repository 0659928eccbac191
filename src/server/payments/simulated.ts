/**
 * The endpoints of simulated mode only (404 in live mode): the simulated card form's "Pagar" and
 * its confirmation step, the simulated issuer's installment plans, and the simulated OXXO store
 * (pay or expire the checkout's voucher, and the voucher page the voucher e-mail links to).
 * Whatever they pay settles through the same path as a real provider's payment.
 */
import { z } from 'zod';
import { groupReference, oxxoDeadline } from '~/domain/mexican-payments.ts';
import { BRAND } from '~/domain/brand.ts';
import { centavos, formatCentavos } from '~/domain/money.ts';
import { orderDisplayId } from '~/domain/orders.ts';
import { PAYMENTS_SIMULATED_OXXO_PAGE_TEXT as PAGE, PAYMENTS_SIMULATED_TEXT, PAYMENTS_TEST_CARD_MESSAGES } from '~/i18n/payments.ts';
import type { ServerContext } from '../context.ts';
import { authenticate, type Caller } from '../http/auth.ts';
import { answer, ApiError, json, readJson } from '../http/json.ts';
import { escapeHtml as escape } from '../mail/html.ts';
import { closeAttempt } from '../orders/attempts.ts';
import { requirePayable } from '../orders/order.ts';
import { findOrder } from '../orders/order-row.ts';
import { settlementAnswer } from '../orders/settlement.ts';
import { settleIntent } from './cards.ts';
import { orderIdSchema, provider, providerIdSchema, simulatedCard } from './guards.ts';
import { planOptions } from './installments.ts';
import { ownVoucher, releaseOxxoOrder, settleOxxo } from './oxxo.ts';
import type { SimulatedCardProvider, SimulatedConfirmation } from './providers/simulated-card.ts';
import * as answers from '~/domain/api-answers.ts';

const secret = z.string({ error: PAYMENTS_SIMULATED_TEXT.secretMissing }).min(10).max(300);
const cardBody = z.object({
  clientSecret: secret,
  card: z.object({
    number: z.string({ error: PAYMENTS_TEST_CARD_MESSAGES.number }).max(40),
    expMonth: z.number({ error: PAYMENTS_TEST_CARD_MESSAGES.expiry }).int(),
    expYear: z.number({ error: PAYMENTS_TEST_CARD_MESSAGES.expiry }).int(),
    cvc: z.string({ error: PAYMENTS_TEST_CARD_MESSAGES.cvc }).max(8),
  }),
  save: z.boolean().default(false),
  /** Months of the 'meses sin intereses' plan chosen (null: 'Pago de contado'); checked by the provider. */
  installments: z.number().int().nullable().default(null),
});

/** After a simulated success the order is settled at once, as Stripe's webhook would. */
async function settleSimulated(ctx: ServerContext, result: SimulatedConfirmation, caller: Caller) {
  if (result.status !== 'succeeded') return answer(answers.simulatedCardAnswer, result);
  const settled = await settleIntent(ctx, result.intentId, null, caller.email);
  return json({ ...result, order: await settled.json() });
}

/**
 * Before the simulated card takes money: the intent's order must still be payable (a real card
 * form cannot ask, so Stripe's late payments are refunded instead; the 3-D Secure step below
 * does not ask either, like the bank's). A refused intent is cancelled.
 */
async function requirePayableIntent(ctx: ServerContext, card: SimulatedCardProvider, clientSecret: string): Promise<void> {
  const intent = await card.retrievePaymentIntent(clientSecret.split('_secret_')[0] ?? '');
  if (!intent?.orderId) return; // confirmCard answers the unknown intent itself
  const order = await findOrder(ctx, intent.orderId);
  if (!order) return;
  try {
    requirePayable(order);
  } catch (refusal) {
    if (intent.status !== 'succeeded') {
      await card.cancelPaymentIntent(intent.id);
      await closeAttempt(ctx, card.name, intent.id, 'canceled');
    }
    throw refusal;
  }
}

/** POST /api/payments/simulated/confirm: the simulated card form's "Pagar". */
export async function simulatedConfirm(request: Request, ctx: ServerContext): Promise<Response> {
  const card = simulatedCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, cardBody);
  await requirePayableIntent(ctx, card, body.clientSecret);
  const result = await provider(() => card.confirmCard(body.clientSecret, caller.id, body.card, body.save, new Date(), body.installments));
  return settleSimulated(ctx, result, caller);
}

/** POST /api/payments/simulated/authenticate {clientSecret, approve}: the card's confirm step. */
export async function simulatedAuthenticate(request: Request, ctx: ServerContext): Promise<Response> {
  const card = simulatedCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ clientSecret: secret, approve: z.boolean() }));
  const result = await provider(() => card.authenticate(body.clientSecret, caller.id, body.approve));
  return settleSimulated(ctx, result, caller);
}

/** POST /api/payments/simulated/installments {clientSecret, number}: the simulated issuer's plans. */
export async function simulatedInstallmentPlans(request: Request, ctx: ServerContext): Promise<Response> {
  const card = simulatedCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ clientSecret: z.string().min(10).max(300), number: z.string().max(40) }));
  const months = await provider(() => card.installmentPlans(body.clientSecret, caller.id, body.number));
  const intent = await card.retrievePaymentIntent(body.clientSecret.split('_secret_')[0] ?? '');
  return answer(answers.plansAnswer, { plans: planOptions(intent?.amount ?? centavos(0), months) });
}

/** Pays a simulated voucher at the 'store' and settles it as Stripe's webhook would. */
async function paySimulatedVoucher(ctx: ServerContext, card: SimulatedCardProvider, intentId: string, recipient: string | null) {
  const intent = await provider(() => card.payOxxo(intentId));
  return settleOxxo(ctx, intent, recipient);
}

/** POST /api/payments/simulated/oxxo/pay {orderId}: 'Simular pago en OXXO' on the checkout's voucher. */
export async function simulatedOxxoPay(request: Request, ctx: ServerContext): Promise<Response> {
  const card = simulatedCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId: orderIdSchema }));
  const { order, voucher } = await ownVoucher(ctx, caller, body.orderId);
  const settled = await paySimulatedVoucher(ctx, card, voucher.paymentIntentId, caller.email);
  return answer(answers.settlementAnswer, settlementAnswer(settled, order.id));
}

/**
 * POST /api/payments/simulated/oxxo/expire {orderId}: the voucher expires unpaid now (tests), as
 * Stripe reports it (payment_failed): the order is cancelled and its stock returns.
 */
export async function simulatedOxxoExpire(request: Request, ctx: ServerContext): Promise<Response> {
  const card = simulatedCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId: orderIdSchema }));
  const { order, voucher } = await ownVoucher(ctx, caller, body.orderId);
  const intent = await card.expireOxxo(voucher.paymentIntentId);
  const released = intent ? await releaseOxxoOrder(ctx, intent) : false;
  const after = await findOrder(ctx, order.id);
  return json({ orderId: order.id, status: after?.status ?? order.status, released });
}

function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html><html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="/favicon.svg" type="image/svg+xml"><title>${escape(title)} · ${BRAND.name}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#1d1b2c}h1{font-size:1.4rem}.ref{font-size:1.5rem;font-weight:700;letter-spacing:.05em}button{font:inherit;padding:.6rem 1.2rem;border-radius:.4rem;border:0;background:#4b2fc9;color:#fff;cursor:pointer}.note{background:#fff4d6;padding:.5rem .75rem;border-radius:.4rem}</style></head>
<body><main>${body}</main></body></html>`;
  return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
}

/**
 * GET/POST /api/payments/simulated/oxxo/{intentId}?token=…: the simulated voucher page the
 * voucher e-mail links to (its token is the capability): it shows the voucher and, posted,
 * 'Simular pago en OXXO' pays it as the store would. Simulated mode only.
 */
export async function simulatedOxxoCounter(request: Request, ctx: ServerContext, intentId: string | undefined): Promise<Response> {
  const card = simulatedCard(ctx);
  const url = new URL(request.url);
  const token = url.searchParams.get('token') ?? '';
  const id = providerIdSchema.safeParse(intentId ?? '');
  const expected = id.success ? await card.voucherToken(id.data) : null;
  if (!id.success || !expected || token.length !== expected.length || token !== expected) {
    return page(PAGE.notFoundTitle, `<h1>${PAGE.notFoundHeading}</h1><p>${PAGE.invalidLink}</p>`, 404);
  }
  const intent = (await card.retrievePaymentIntent(id.data))!;
  const order = intent.orderId ? await findOrder(ctx, intent.orderId) : null;
  const number = orderDisplayId(intent.orderId ?? '');
  const orderLink = `/checkout/${intent.orderId ?? ''}`;
  if (request.method === 'POST') {
    try {
      const settled = await paySimulatedVoucher(ctx, card, id.data, null);
      const answer = settlementAnswer(settled, intent.orderId!);
      return page(
        PAGE.paidTitle,
        `<h1>${PAGE.paidTitle}</h1><p role="status">${PAGE.paid(escape(number), escape(answer.status.toLowerCase()))}</p><p><a href="${escape(orderLink)}">${PAGE.viewOrder}</a></p>`,
      );
    } catch (error) {
      const message = error instanceof ApiError ? error.message : PAGE.notRecorded;
      return page(
        PAGE.notRecordedTitle,
        `<h1>${PAGE.notRecordedTitle}</h1><p role="alert">${escape(message)}</p><p><a href="${escape(orderLink)}">${PAGE.viewOrder}</a></p>`,
        error instanceof ApiError ? error.status : 500,
      );
    }
  }
  const voucher = (await card.retrievePaymentIntent(id.data))?.voucher ?? null;
  const status = order?.status ?? '';
  const body = voucher
    ? `<h1>${PAGE.voucherTitle}</h1><p class="note">${PAGE.testMode}</p>
<p>${PAGE.order(escape(number))} · ${PAGE.amountDue} <strong>${escape(formatCentavos(centavos(voucher.amount)))}</strong></p>
<p>${PAGE.reference}<br><span class="ref">${escape(groupReference(voucher.reference))}</span></p>
<p>${escape(oxxoDeadline(voucher.expiresAt))}</p>
<form method="post" action="${escape(`${url.pathname}?token=${encodeURIComponent(token)}`)}"><button type="submit">${PAGE.pay}</button></form>`
    : `<h1>${PAGE.voucherTitle}</h1><p role="status">${PAGE.noLongerPending}${status ? PAGE.orderStatus(escape(status.toLowerCase())) : ''}.</p>`;
  return page(PAGE.voucherTitle, `${body}<p><a href="${escape(orderLink)}">${PAGE.viewOrder}</a></p>`);
}
