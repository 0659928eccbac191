/**
 * Facturas through their handlers against the local stack: with the simulated provider (a test
 * factura issued at once, its PDF saying 'SIN VALIDEZ FISCAL' and its XML with the same data) and
 * with Facturapi's SDK pointed at a local Facturapi stub (issue, download, cancel after a refund,
 * the month's factura global, a retry after the provider failed). Orders are bought and paid the
 * way the browser does it, with the simulated card.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_SHOPPER } from '../../scripts/seed/constants.ts';
import { refundOrder } from '~/server/admin/orders.ts';
import type { AdminContext, ServerContext } from '~/server/context.ts';
import { getInvoiceFile, postGlobalInvoice, postOrderInvoice } from '~/server/invoicing/endpoints.ts';
import { invoiceAttachments } from '~/server/invoicing/attachments.ts';
import { createInvoicing } from '~/server/invoicing/index.ts';
import { issueInvoice, processDueInvoices } from '~/server/invoicing/queue.ts';
import type { InvoiceProvider } from '~/server/invoicing/types.ts';
import { createOutbox } from '~/server/mail/outbox.ts';
import { smtpSender } from '~/server/mail/transport.ts';
import type { QueuedMail } from '~/server/mail/types.ts';
import { createPaymentIntent } from '~/server/payments/cards.ts';
import { simulatedConfirm } from '~/server/payments/simulated.ts';
import { createAdminClient } from '~/server/supabase.ts';
import { handle } from '~/server/http/json.ts';
import { apiRequest as req, callApi as call } from '../support/api-requests.ts';
import { startFacturapiStub, type FacturapiStub } from '../support/facturapi-stub.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { pdfText } from '../support/pdf-text.ts';
import { serverContext } from '../support/server-context.ts';
import { releasePendingOrders } from '../support/shop-rows.ts';
import { anonClient, newPendingOrder, signIn } from '../support/shopper.ts';
import { startTestStack, type TestStack } from '../../packages/local-supabase/tests/helpers.ts';

const PRODUCT = 'pk-factura-prueba';
// A persona física's RFC with SAT's check digit (computed by the database's own rfc_check_digit below).
const RFC_BASE = 'GODE561231GR';

let stack: TestStack;
let service: SupabaseClient;
let shopper: SupabaseClient;
let shopperToken: string;
let adminToken: string;
let rfc: string;
let stub: FacturapiStub;
let simulated: AdminContext;
let live: AdminContext;
const mails: QueuedMail[] = [];

async function paidOrder(quantity = 1): Promise<string> {
  const id = await newPendingOrder(shopper, [{ product_id: PRODUCT, quantity }]);
  const intent = await call(() => createPaymentIntent(req('POST', '/x', shopperToken, { orderId: id }), simulated));
  const card = { number: '4242424242424242', expMonth: 1, expYear: 2040, cvc: '123' };
  const paid = await call(() => simulatedConfirm(req('POST', '/x', shopperToken, { clientSecret: intent.body.clientSecret, card }), simulated));
  expect(paid.body.status).toBe('succeeded');
  return id;
}

const ask = (ctx: ServerContext, orderId: string, key: string, token: string | null = shopperToken) =>
  call(() => postOrderInvoice(req('POST', `/api/orders/${orderId}/invoice`, token, { key }), ctx, orderId));

async function download(ctx: ServerContext, invoiceId: string, format: string, token: string | null = shopperToken) {
  const res = await handle(() => getInvoiceFile(req('GET', `/api/invoices/${invoiceId}/${format}`, token), ctx, invoiceId, format));
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    disposition: res.headers.get('content-disposition'),
    bytes: new Uint8Array(await res.arrayBuffer()),
  };
}

async function orderTotal(id: string): Promise<number> {
  const { data, error } = await service.from('orders').select('total').eq('id', id).single();
  if (error) throw new Error(error.message);
  return Number(data.total);
}

const mxn = (pesos: number) => new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' }).format(pesos);

async function invoiceRow(id: string) {
  const { data, error } = await service.from('invoices').select('*').eq('id', id).single();
  if (error) throw new Error(error.message);
  return data as Record<string, any>;
}

async function saveTaxProfile(): Promise<void> {
  const { error } = await service.from('tax_profiles').upsert({
    user_id: DEMO_SHOPPER.id,
    rfc,
    legal_name: 'Ana García López',
    tax_regime: '612',
    tax_zip: '06700',
    cfdi_use: 'G03',
    invoice_email: 'facturas@ana.mx',
  });
  if (error) throw new Error(error.message);
}

beforeAll(async () => {
  stack = await startTestStack();
  service = createAdminClient(stack.url, stack.serviceRoleKey);
  stub = await startFacturapiStub();
  const mail = async (m: QueuedMail) => {
    mails.push(m);
  };
  const base = serverContext(service, { mode: 'simulated' }, mail);
  const asUser = (t: string) => anonClient(stack, t);
  simulated = { ...base, asUser, invoicing: createInvoicing({ paymentsMode: 'simulated' }) };
  live = {
    ...base,
    asUser,
    invoicing: createInvoicing({ paymentsMode: 'live', facturapiKey: stub.key, facturapiApiBase: stub.url, issuerZip: '44100' }),
  };
  ({ token: shopperToken, client: shopper } = await signIn(stack, DEMO_SHOPPER));
  ({ token: adminToken } = await signIn(stack, DEMO_ADMIN));
  await releasePendingOrders(service, DEMO_SHOPPER.id);
  const inserted = await service
    .from('products')
    .insert({ id: PRODUCT, name: 'Caja de sobres para facturar', price: 1160, stock: 500, limit_per_customer: 100, franchise_id: 'pokemon' });
  if (inserted.error) throw new Error(inserted.error.message);
  const digit = await service.rpc('rfc_check_digit', { p_rfc: `${RFC_BASE}0` });
  if (digit.error) throw new Error(digit.error.message);
  rfc = `${RFC_BASE}${digit.data as string}`;
  await saveTaxProfile();
}, 120_000);

afterAll(async () => {
  await stub?.stop();
  await stack?.stop();
});

describe('which provider runs', () => {
  it('no key: simulated in simulated mode, none in live mode; a key: Facturapi', () => {
    expect(createInvoicing({ paymentsMode: 'simulated' })?.name).toBe('simulated');
    expect(createInvoicing({ paymentsMode: 'live' })).toBeNull();
    expect(createInvoicing({ paymentsMode: 'live', facturapiKey: '  ' })).toBeNull();
    expect(createInvoicing({ paymentsMode: 'simulated', facturapiKey: 'sk_test_x' })?.name).toBe('facturapi');
  });
});

describe('simulated provider', () => {
  it('issues a test factura at once, replays the same key, refuses a second factura, and e-mails it', async () => {
    const orderId = await paidOrder(2);
    const first = await ask(simulated, orderId, 'clave-sim-0001');
    expect(first.status).toBe(201);
    expect(first.body.invoice).toMatchObject({ status: 'issued', replayed: false });
    const again = await ask(simulated, orderId, 'clave-sim-0001');
    expect(again.status).toBe(200);
    expect(again.body.invoice.id).toBe(first.body.invoice.id);
    const other = await ask(simulated, orderId, 'clave-sim-0002');
    expect(other).toMatchObject({ status: 409, body: { error: 'already_invoiced', message: 'Este pedido ya tiene factura.' } });
    const row = await invoiceRow(first.body.invoice.id);
    const total = await orderTotal(orderId);
    expect(total).toBeGreaterThanOrEqual(2320);
    expect(row).toMatchObject({ provider: 'simulated', payment_form: '04', payment_method: 'PUE', total });
    expect(Math.round((row.subtotal + row.iva) * 100)).toBe(Math.round(total * 100));
    const product = row.concepts.find((c: any) => c.sku === PRODUCT);
    expect(product).toMatchObject({ quantity: 2, amount: 232000, base: 200000, iva: 32000 });
    expect(row.customer).toMatchObject({ rfc, legal_name: 'Ana García López', tax_regime: '612', cfdi_use: 'G03' });
    const mail = mails.find((m) => m.kind === 'invoice_issued' && m.dedupeKey === `invoice_issued:${row.id}`);
    expect(mail?.to).toBe('facturas@ana.mx');
    expect(mail?.text).toContain(row.cfdi_uuid);
    expect(mail?.text).toContain('sin validez fiscal');
  });

  it("serves a PDF saying 'SIN VALIDEZ FISCAL' and an XML with the same data, to the shopper and the back office only", async () => {
    const orderId = await paidOrder(1);
    const { body } = await ask(simulated, orderId, 'clave-sim-0003');
    const id = body.invoice.id as string;
    const row = await invoiceRow(id);
    const pdf = await download(simulated, id, 'pdf');
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.disposition).toContain('.pdf');
    expect(Buffer.from(pdf.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf.bytes);
    expect(text).toContain('SIN VALIDEZ FISCAL');
    expect(text).toContain(rfc);
    expect(text).toContain('Ana García López');
    expect(text).toContain(row.cfdi_uuid);
    expect(text).toContain(mxn(row.total));
    expect(text).toContain('$1,160.00');
    const xml = await download(simulated, id, 'xml');
    const xmlText = Buffer.from(xml.bytes).toString('utf8');
    expect(xml.type).toContain('application/xml');
    expect(xmlText).toContain('SIN VALIDEZ FISCAL');
    expect(xmlText).toContain(`Rfc="${rfc}"`);
    expect(xmlText).toContain(`Total="${Number(row.total).toFixed(2)}"`);
    expect(xmlText).toContain(`SubTotal="${Number(row.subtotal).toFixed(2)}"`);
    expect(xmlText).toContain('Importe="1000.00"');
    expect(xmlText).toContain(`UUID="${row.cfdi_uuid}"`);
    expect((await download(simulated, id, 'pdf', adminToken)).status).toBe(200);
    expect((await download(simulated, id, 'pdf', null)).status).toBe(401);
    expect((await download(simulated, id, 'doc')).status).toBe(400);
    expect((await download(simulated, '00000000-0000-4000-8000-000000000000', 'pdf')).status).toBe(404);
  });

  it('answers each refusal with a 4xx and a Spanish message', async () => {
    const pending = await newPendingOrder(shopper, [{ product_id: PRODUCT, quantity: 1 }]);
    expect(await ask(simulated, pending, 'clave-sim-0010')).toMatchObject({
      status: 409,
      body: { error: 'not_paid', message: 'Solo se pueden facturar pedidos pagados.' },
    });
    await releasePendingOrders(service, DEMO_SHOPPER.id);
    expect((await ask(simulated, pending, 'clave-sim-0011', null)).status).toBe(401);
    expect((await ask(simulated, 'no-es-un-id', 'clave-sim-0012')).status).toBe(400);
    expect((await ask(simulated, pending, 'corta')).status).toBe(400);
    expect((await ask(simulated, pending, 'clave-sim-0013', adminToken)).status).toBe(404);

    const lastMonth = await paidOrder(1);
    const moved = await service
      .from('orders')
      .update({ paid_at: new Date(Date.now() - 40 * 86_400_000).toISOString() })
      .eq('id', lastMonth);
    expect(moved.error).toBeNull();
    const closed = await ask(simulated, lastMonth, 'clave-sim-0014');
    expect(closed).toMatchObject({ status: 409, body: { error: 'window_closed' } });
    expect(closed.body.message).toContain('último día del mes');

    const noData = await paidOrder(1);
    await service.from('tax_profiles').delete().eq('user_id', DEMO_SHOPPER.id);
    try {
      expect(await ask(simulated, noData, 'clave-sim-0015')).toMatchObject({
        status: 409,
        body: { error: 'no_tax_profile', message: 'Primero guarda tus datos de facturación.' },
      });
    } finally {
      await saveTaxProfile();
    }
  });
});

describe('Facturapi (local stub)', () => {
  it('issues through the SDK with the IVA included per item, the payment form and the receiver, and downloads its files', async () => {
    const orderId = await paidOrder(3);
    const { status, body } = await ask(live, orderId, 'clave-fa-0001');
    expect(status).toBe(201);
    expect(body.invoice.status).toBe('issued');
    const row = await invoiceRow(body.invoice.id);
    const sent = stub.invoices.get(row.provider_id)!;
    expect(sent.uuid).toBe(row.cfdi_uuid);
    expect(sent.body).toMatchObject({
      customer: { legal_name: 'Ana García López', tax_id: rfc, tax_system: '612', address: { zip: '06700' } },
      payment_form: '04',
      payment_method: 'PUE',
      use: 'G03',
      external_id: row.id,
    });
    const product = sent.body.items.find((i: any) => i.product.sku === PRODUCT);
    expect(product).toMatchObject({
      quantity: 3,
      product: { price: 1160, tax_included: true, product_key: expect.stringMatching(/^\d{8}$/), unit_key: 'H87' },
    });
    const itemsTotal = sent.body.items.reduce((s: number, i: any) => s + i.quantity * i.product.price, 0);
    expect(Math.round(itemsTotal * 100)).toBe(Math.round(row.total * 100));
    const pdf = await download(live, row.id, 'pdf');
    expect(pdf.status).toBe(200);
    expect(Buffer.from(pdf.bytes).toString('latin1')).toContain(row.provider_id);
    const xml = await download(live, row.id, 'xml');
    expect(Buffer.from(xml.bytes).toString('utf8')).toContain(row.cfdi_uuid);
  });

  it('a provider failure never blocks the purchase: the factura waits as failed and is issued on the retry', async () => {
    const orderId = await paidOrder(1);
    stub.failNext(1);
    const { status, body } = await ask(live, orderId, 'clave-fa-0002');
    expect(status).toBe(201);
    expect(body.invoice.status).toBe('failed');
    const failed = await invoiceRow(body.invoice.id);
    expect(failed.attempts).toBe(1);
    expect(failed.last_error).toBeTruthy();
    expect(Date.parse(failed.next_attempt_at)).toBeGreaterThan(Date.now());
    const { data: order } = await service.from('orders').select('status').eq('id', orderId).single();
    expect(order?.status).toBe('Pagado');
    // Not due yet: the sweep leaves it alone; the retry claims it and issues it.
    const sweep = await processDueInvoices(live);
    expect(sweep.claimed).toBe(0);
    await issueInvoice(live, failed.id);
    const issued = await invoiceRow(failed.id);
    expect(issued).toMatchObject({ status: 'issued', attempts: 2, last_error: null });
    const events = await service.from('invoice_events').select('to_status').eq('invoice_id', failed.id).order('id');
    expect(events.data?.map((e) => e.to_status)).toEqual(['pending', 'issuing', 'failed', 'issuing', 'issued']);
  });

  it("a refunded order's factura is cancelled at Facturapi (motive 03) and the shopper is told once", async () => {
    const orderId = await paidOrder(1);
    const { body } = await ask(live, orderId, 'clave-fa-0003');
    const row = await invoiceRow(body.invoice.id);
    const refunded = await call(() => refundOrder(req('POST', `/api/admin/orders/${orderId}/refund`, adminToken, { way: 'store_credit' }), live, orderId));
    expect(refunded.status).toBe(200);
    const report = await processDueInvoices(live);
    expect(report.cancellationsRequested).toBeGreaterThanOrEqual(1);
    const after = await invoiceRow(row.id);
    expect(after.status).toBe('cancelled');
    expect(after.cancel_motive).toBe('03');
    expect(stub.invoices.get(row.provider_id)).toMatchObject({ status: 'canceled', cancellation_motive: '03' });
    await processDueInvoices(live);
    const told = mails.filter((m) => m.kind === 'invoice_cancelled' && m.dedupeKey === `invoice_cancelled:${row.id}`);
    expect(told).toHaveLength(1);
    expect(told[0]!.subject).toContain('Cancelamos la factura');
  });

  it("issues the month's factura global to público en general with its periodicity, once", async () => {
    const a = await paidOrder(1);
    const b = await paidOrder(2);
    for (const id of [a, b]) {
      const moved = await service.from('orders').update({ paid_at: '2023-05-10T18:00:00Z' }).eq('id', id);
      expect(moved.error).toBeNull();
    }
    const post = (token: string | null, payload: unknown) => call(() => postGlobalInvoice(req('POST', '/api/admin/invoices/global', token, payload), live));
    expect((await post(shopperToken, { year: 2023, month: 5 })).status).toBe(403);
    expect((await post(adminToken, { year: 2023, month: 13 })).status).toBe(400);
    const made = await post(adminToken, { year: 2023, month: 5 });
    expect(made.status).toBe(201);
    expect(made.body.invoice.orders).toBe(2);
    const row = await invoiceRow(made.body.invoice.id);
    const totals = [await orderTotal(a), await orderTotal(b)];
    expect(row).toMatchObject({ kind: 'global', status: 'issued', period_year: 2023, period_month: 5, total: totals[0]! + totals[1]! });
    const sent = stub.invoices.get(row.provider_id)!;
    expect(sent.body).toMatchObject({
      customer: { tax_id: 'XAXX010101000', legal_name: 'PUBLICO EN GENERAL', tax_system: '616', address: { zip: '44100' } },
      use: 'S01',
      global: { periodicity: 'month', months: '05', year: 2023 },
    });
    // One concept per sale, in the order the sales were paid (the same instant here, so any order).
    const concepts = sent.body.items.map((i: any) => [i.quantity, i.product.product_key, i.product.unit_key, i.product.price]);
    expect(concepts.sort((x: number[], y: number[]) => Number(x[3]) - Number(y[3]))).toEqual(
      [...totals].sort((x, y) => x - y).map((total) => [1, '01010101', 'ACT', total]),
    );
    const again = await post(adminToken, { year: 2023, month: 5 });
    expect(again).toMatchObject({ status: 409, body: { error: 'already_issued' } });
    const current = new Date();
    const open = await post(adminToken, { year: current.getUTCFullYear(), month: current.getUTCMonth() + 1 });
    expect(open.status).toBe(409);
  });
});

describe('the factura e-mail through the outbox and SMTP', () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp?.close();
  });

  /** The simulated provider, whose next `failures` downloads fail as an unreachable provider does. */
  function flakyProvider(failures: number): InvoiceProvider & { downloads: number } {
    const inner = createInvoicing({ paymentsMode: 'simulated' })!;
    let left = failures;
    const provider = {
      name: inner.name,
      testMode: inner.testMode,
      downloads: 0,
      issue: (row: Parameters<InvoiceProvider['issue']>[0]) => inner.issue(row),
      cancel: (row: Parameters<InvoiceProvider['cancel']>[0], motive: Parameters<InvoiceProvider['cancel']>[1]) => inner.cancel(row, motive),
      async download(row: Parameters<InvoiceProvider['download']>[0], format: Parameters<InvoiceProvider['download']>[1]) {
        provider.downloads += 1;
        if (left > 0) {
          left -= 1;
          throw new Error('proveedor sin respuesta');
        }
        return inner.download(row, format);
      },
    };
    return provider;
  }

  function outboxContext(provider: InvoiceProvider) {
    const outbox = createOutbox(service, smtpSender(smtp.url, 'Cartas Mx <facturas@cartas.test>'), {
      resolveAttachments: invoiceAttachments(service, provider),
    });
    return { outbox, ctx: { ...simulated, mail: outbox, invoicing: provider } as AdminContext };
  }

  const outboxRow = async (invoiceId: string) => {
    const { data, error } = await service.from('mail_outbox').select('*').eq('dedupe_key', `invoice_issued:${invoiceId}`).single();
    if (error) throw new Error(error.message);
    return data;
  };

  const receivedFor = (uuid: string) => smtp.received.filter(({ mail }) => String(mail.text).includes(uuid));

  it("attaches the factura's PDF and XML, fetched from the provider when sent; the outbox row stores only where to fetch them", async () => {
    smtp.reset();
    const { outbox, ctx } = outboxContext(flakyProvider(0));
    const orderId = await paidOrder(1);
    const { status, body } = await ask(ctx, orderId, 'clave-mail-0001');
    expect(status).toBe(201);
    await outbox.idle();
    const row = await invoiceRow(body.invoice.id);
    const got = receivedFor(row.cfdi_uuid);
    expect(got).toHaveLength(1);
    const { rcpt, mail } = got[0]!;
    expect(rcpt).toEqual(['facturas@ana.mx']);
    expect(mail.subject).toBe(`Tu factura del pedido #${orderId.slice(-6).toUpperCase()}`);
    const folio = orderId.slice(-6).toUpperCase();
    expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      [`factura-${folio}.pdf`, 'application/pdf'],
      [`factura-${folio}.xml`, 'application/xml'],
    ]);
    const [pdf, xml] = mail.attachments;
    expect(pdf!.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pdfWords = pdfText(new Uint8Array(pdf!.content));
    expect(pdfWords).toContain('SIN VALIDEZ FISCAL');
    expect(pdfWords).toContain(row.cfdi_uuid);
    expect(pdfWords).toContain(rfc);
    const xmlText = xml!.content.toString('utf8');
    expect(xmlText).toContain(`UUID="${row.cfdi_uuid}"`);
    expect(xmlText).toContain(`Total="${Number(row.total).toFixed(2)}"`);
    // The row keeps the references, never the files.
    const stored = await outboxRow(row.id);
    expect(stored).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(stored.attachments).toEqual([
      { source: 'invoice', invoice_id: row.id, format: 'pdf', filename: `factura-${folio}.pdf` },
      { source: 'invoice', invoice_id: row.id, format: 'xml', filename: `factura-${folio}.xml` },
    ]);
  });

  it('a file the provider cannot serve fails the send, which is retried like any outbox failure, then carries both files', async () => {
    smtp.reset();
    const provider = flakyProvider(1);
    const { outbox, ctx } = outboxContext(provider);
    const orderId = await paidOrder(1);
    const { body } = await ask(ctx, orderId, 'clave-mail-0002');
    expect(body.invoice.status).toBe('issued');
    await outbox.idle();
    const row = await invoiceRow(body.invoice.id);
    expect(receivedFor(row.cfdi_uuid)).toHaveLength(0);
    const failed = await outboxRow(row.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed.last_error).toContain(`no se pudo descargar la factura ${row.id}: proveedor sin respuesta`);
    expect(Date.parse(failed.next_attempt_at!)).toBeGreaterThan(Date.now());
    // Due now: the next delivery fetches the files again and sends the e-mail with both.
    const due = await service
      .from('mail_outbox')
      .update({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
      .eq('id', failed.id);
    expect(due.error).toBeNull();
    const report = await outbox.deliverDue();
    expect(report).toMatchObject({ sent: 1, retrying: 0 });
    const got = receivedFor(row.cfdi_uuid);
    expect(got).toHaveLength(1);
    expect(got[0]!.mail.attachments.map((a) => a.contentType)).toEqual(['application/pdf', 'application/xml']);
    expect(await outboxRow(row.id)).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    expect(provider.downloads).toBe(3);
  });

  it("attaches Facturapi's own PDF and XML, downloaded through the SDK from the local stub", async () => {
    smtp.reset();
    const provider = live.invoicing!;
    const outbox = createOutbox(service, smtpSender(smtp.url, 'Cartas Mx <facturas@cartas.test>'), {
      resolveAttachments: invoiceAttachments(service, provider),
    });
    const orderId = await paidOrder(1);
    const { body } = await ask({ ...live, mail: outbox } as AdminContext, orderId, 'clave-mail-0003');
    expect(body.invoice.status).toBe('issued');
    await outbox.idle();
    const row = await invoiceRow(body.invoice.id);
    const [got] = receivedFor(row.cfdi_uuid);
    expect(got?.mail.attachments.map((a) => a.filename)).toEqual([
      `factura-${orderId.slice(-6).toUpperCase()}.pdf`,
      `factura-${orderId.slice(-6).toUpperCase()}.xml`,
    ]);
    expect(got!.mail.attachments[0]!.content.toString('latin1')).toContain(row.provider_id);
    expect(got!.mail.attachments[1]!.content.toString('utf8')).toContain(row.cfdi_uuid);
  });
});
