/**
 * Credit notes against the factura global, through the handlers and the sweeper against the local
 * stack: sales paid with the simulated card go into a month's factura global; when one of them is
 * refunded from the back office, the next sweep queues and issues one CFDI de egreso related to
 * the global (Facturapi's SDK against the local Facturapi stub: type 'E', related_documents with
 * relationship '01'), once however often the sweep runs, retried after the provider failed; the
 * stub refuses an egreso without a valid related document; and the simulated provider serves a
 * test credit note (PDF and XML, 'SIN VALIDEZ FISCAL', TipoDeComprobante 'E', CfdiRelacionados).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import Facturapi from 'facturapi';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_ADMIN, DEMO_SHOPPER } from '../../scripts/seed/constants.ts';
import { orderDisplayId } from '~/domain/orders.ts';
import { refundOrder } from '~/server/admin/orders.ts';
import type { AdminContext, ServerContext } from '~/server/context.ts';
import { getInvoiceFile, postGlobalInvoice } from '~/server/invoicing/endpoints.ts';
import { FacturapiProvider } from '~/server/invoicing/facturapi.ts';
import { createInvoicing } from '~/server/invoicing/index.ts';
import { issueInvoice, processDueInvoices } from '~/server/invoicing/queue.ts';
import type { InvoiceRow } from '~/server/invoicing/types.ts';
import { createPaymentIntent } from '~/server/payments/cards.ts';
import { simulatedConfirm } from '~/server/payments/simulated.ts';
import { createAdminClient } from '~/server/supabase.ts';
import { handle } from '~/server/http/json.ts';
import { apiRequest as req, callApi as call } from '../support/api-requests.ts';
import { startFacturapiStub, type FacturapiStub } from '../support/facturapi-stub.ts';
import { pdfText } from '../support/pdf-text.ts';
import { serverContext } from '../support/server-context.ts';
import { releasePendingOrders } from '../support/shop-rows.ts';
import { anonClient, newPendingOrder, signIn } from '../support/shopper.ts';
import { startTestStack, type TestStack } from '../../packages/local-supabase/tests/helpers.ts';

const PRODUCT = 'pk-nota-credito-prueba';

let stack: TestStack;
let service: SupabaseClient;
let shopper: SupabaseClient;
let shopperToken: string;
let adminToken: string;
let stub: FacturapiStub;
let simulated: AdminContext;
let live: AdminContext;

async function paidOrder(quantity: number, paidAt: string): Promise<string> {
  const id = await newPendingOrder(shopper, [{ product_id: PRODUCT, quantity }]);
  const intent = await call(() => createPaymentIntent(req('POST', '/x', shopperToken, { orderId: id }), simulated));
  const card = { number: '4242424242424242', expMonth: 1, expYear: 2040, cvc: '123' };
  const paid = await call(() => simulatedConfirm(req('POST', '/x', shopperToken, { clientSecret: intent.body.clientSecret, card }), simulated));
  expect(paid.body.status).toBe('succeeded');
  const moved = await service.from('orders').update({ paid_at: paidAt }).eq('id', id);
  expect(moved.error).toBeNull();
  return id;
}

async function orderTotal(id: string): Promise<number> {
  const { data, error } = await service.from('orders').select('total').eq('id', id).single();
  if (error) throw new Error(error.message);
  return Number(data.total);
}

async function invoiceRow(id: string) {
  const { data, error } = await service.from('invoices').select('*').eq('id', id).single();
  if (error) throw new Error(error.message);
  return data as Record<string, any>;
}

async function creditNotesOf(orderId: string) {
  const { data, error } = await service.from('invoices').select('*').eq('kind', 'credit_note').eq('order_id', orderId);
  if (error) throw new Error(error.message);
  return (data ?? []) as Array<Record<string, any>>;
}

async function globalOf(ctx: ServerContext, year: number, month: number) {
  const made = await call(() => postGlobalInvoice(req('POST', '/api/admin/invoices/global', adminToken, { year, month }), ctx));
  expect(made.status).toBe(201);
  const row = await invoiceRow(made.body.invoice.id);
  expect(row).toMatchObject({ kind: 'global', status: 'issued' });
  return row;
}

const refund = async (ctx: AdminContext, orderId: string) => {
  const refunded = await call(() => refundOrder(req('POST', `/api/admin/orders/${orderId}/refund`, adminToken, { way: 'store_credit' }), ctx, orderId));
  expect(refunded.status).toBe(200);
};

async function download(ctx: ServerContext, invoiceId: string, format: string, token: string) {
  const res = await handle(() => getInvoiceFile(req('GET', `/api/invoices/${invoiceId}/${format}`, token), ctx, invoiceId, format));
  return { status: res.status, disposition: res.headers.get('content-disposition'), bytes: new Uint8Array(await res.arrayBuffer()) };
}

beforeAll(async () => {
  stack = await startTestStack();
  service = createAdminClient(stack.url, stack.serviceRoleKey);
  stub = await startFacturapiStub();
  const base = serverContext(service, { mode: 'simulated' }, async () => undefined);
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
    .insert({ id: PRODUCT, name: 'Caja de sobres para la nota de crédito', price: 1160, stock: 500, limit_per_customer: 100, franchise_id: 'pokemon' });
  if (inserted.error) throw new Error(inserted.error.message);
}, 120_000);

afterAll(async () => {
  await stub?.stop();
  await stack?.stop();
});

describe('credit notes through Facturapi (the local stub)', () => {
  let global: Record<string, any>;
  let first: string;
  let second: string;

  beforeAll(async () => {
    first = await paidOrder(1, '2023-07-10T18:00:00Z');
    second = await paidOrder(2, '2023-07-11T18:00:00Z');
    global = await globalOf(live, 2023, 7);
  });

  it('a refunded sale of the global gets one CFDI de egreso related to it, however often the sweep runs', async () => {
    await refund(live, first);
    const report = await processDueInvoices(live);
    expect(report.creditNotesRequested).toBe(1);
    const [note, ...others] = await creditNotesOf(first);
    expect(others).toEqual([]);
    const total = await orderTotal(first);
    expect(note).toMatchObject({
      kind: 'credit_note',
      status: 'issued',
      provider: 'facturapi',
      user_id: null,
      total,
      related_invoice_id: global.id,
      related_cfdi_uuid: global.cfdi_uuid,
      period_year: 2023,
      period_month: 7,
      payment_form: global.payment_form,
    });
    expect(Math.round((note!.subtotal + note!.iva) * 100)).toBe(Math.round(total * 100));
    const sent = stub.invoices.get(note!.provider_id)!;
    expect(sent.body).toMatchObject({
      type: 'E',
      related_documents: [{ relationship: '01', documents: [global.cfdi_uuid] }],
      customer: { tax_id: 'XAXX010101000', legal_name: 'PUBLICO EN GENERAL', tax_system: '616', address: { zip: '44100' } },
      use: 'S01',
      payment_method: 'PUE',
      payment_form: stub.invoices.get(global.provider_id)!.body.payment_form,
      global: { periodicity: 'month', months: '07', year: 2023 },
      external_id: note!.id,
      idempotency_key: note!.id,
    });
    expect(sent.body.items).toEqual([
      {
        quantity: 1,
        product: {
          description: `Devolución del pedido ${orderDisplayId(first)}`,
          product_key: '84111506',
          unit_key: 'ACT',
          price: total,
          tax_included: true,
          taxes: [{ type: 'IVA', rate: 0.16 }],
          sku: orderDisplayId(first).slice(1),
        },
      },
    ]);
    // The global itself stays as it was: not cancelled, not re-issued.
    expect((await invoiceRow(global.id)).status).toBe('issued');
    expect(stub.invoices.get(global.provider_id)!.status).toBe('valid');

    const again = await processDueInvoices(live);
    expect(again.creditNotesRequested).toBe(0);
    expect(await creditNotesOf(first)).toHaveLength(1);
    expect([...stub.invoices.values()].filter((i) => i.body.type === 'E' && i.body.external_id === note!.id)).toHaveLength(1);

    // The back office downloads it; the shopper whose sale it was does not see it.
    const pdf = await download(live, note!.id, 'pdf', adminToken);
    expect(pdf.status).toBe(200);
    expect(pdf.disposition).toContain(`nota-credito-${orderDisplayId(first).slice(1)}.pdf`);
    expect((await download(live, note!.id, 'xml', adminToken)).status).toBe(200);
    expect((await download(live, note!.id, 'pdf', shopperToken)).status).toBe(404);
  });

  it('is retried after Facturapi failed, and issued once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await refund(live, second);
    stub.failNext(1);
    const report = await processDueInvoices(live);
    expect(report).toMatchObject({ creditNotesRequested: 1, failed: 1 });
    const [failed] = await creditNotesOf(second);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed!.last_error).toBeTruthy();
    expect(failed!.next_attempt_at).not.toBeNull();
    await issueInvoice(live, failed!.id);
    const [issued, ...others] = await creditNotesOf(second);
    expect(others).toEqual([]);
    expect(issued).toMatchObject({ status: 'issued', attempts: 2, total: await orderTotal(second), related_cfdi_uuid: global.cfdi_uuid });
    expect([...stub.invoices.values()].filter((i) => i.body.external_id === failed!.id)).toHaveLength(1);
    const { data: events } = await service.from('invoice_events').select('to_status').eq('invoice_id', failed!.id).order('id');
    expect((events ?? []).map((e) => e.to_status)).toEqual(['pending', 'issuing', 'failed', 'issuing', 'issued']);
    warn.mockRestore();
  });

  it('Facturapi refuses an egreso without a valid related document', async () => {
    const client = new Facturapi(stub.key);
    client.BASE_URL = stub.url;
    const body = {
      type: 'E',
      customer: { legal_name: 'PUBLICO EN GENERAL', tax_id: 'XAXX010101000', tax_system: '616', address: { zip: '44100' } },
      items: [{ quantity: 1, product: { description: 'Devolución', product_key: '84111506', unit_key: 'ACT', price: 116, tax_included: true } }],
      payment_form: '04',
      payment_method: 'PUE',
      use: 'S01',
      global: { periodicity: 'month', months: '07', year: 2023 },
    };
    const before = stub.invoices.size;
    await expect(client.invoices.create(body)).rejects.toThrow(/related_documents is required/);
    await expect(client.invoices.create({ ...body, related_documents: [{ relationship: '01', documents: [] }] })).rejects.toThrow(/documents must be/);
    await expect(client.invoices.create({ ...body, related_documents: [{ relationship: '99', documents: [global.cfdi_uuid] }] })).rejects.toThrow(
      /relationship is not valid/,
    );
    // The shop's provider sends what it stored: a malformed folio is refused by Facturapi, nothing is stamped.
    const provider = new FacturapiProvider(stub.key, '44100', stub.url);
    const note = (await creditNotesOf(first))[0] as InvoiceRow;
    await expect(provider.issue({ ...note, id: crypto.randomUUID(), related_cfdi_uuid: 'no-es-un-folio' })).rejects.toThrow(/documents must be/);
    await expect(provider.issue({ ...note, id: crypto.randomUUID(), related_cfdi_uuid: null })).rejects.toThrow(/folio fiscal de la factura global/);
    expect(stub.invoices.size).toBe(before);
  });
});

describe('credit notes of the simulated provider', () => {
  it('issues a test credit note: PDF and XML marked SIN VALIDEZ FISCAL, TipoDeComprobante E, related to the global', async () => {
    const sold = await paidOrder(3, '2023-08-10T18:00:00Z');
    const global = await globalOf(simulated, 2023, 8);
    await refund(simulated, sold);
    // The Facturapi sweeper does not take the simulated global's sales.
    expect((await processDueInvoices(live)).creditNotesRequested).toBe(0);
    expect((await processDueInvoices(simulated)).creditNotesRequested).toBe(1);
    const [note] = await creditNotesOf(sold);
    const total = await orderTotal(sold);
    expect(note).toMatchObject({ status: 'issued', provider: 'simulated', total, related_cfdi_uuid: global.cfdi_uuid });

    const pdf = await download(simulated, note!.id, 'pdf', adminToken);
    expect(pdf.status).toBe(200);
    expect(Buffer.from(pdf.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf.bytes);
    expect(text).toContain('SIN VALIDEZ FISCAL');
    expect(text).toContain('Nota de crédito de prueba (CFDI 4.0 de egreso)');
    expect(text).toContain(`CFDI relacionado (01 Nota de crédito de los documentos relacionados): ${global.cfdi_uuid}`);
    expect(text).toContain('XAXX010101000');
    expect(text).toContain(`Devolución del pedido ${orderDisplayId(sold)}`);

    const xml = await download(simulated, note!.id, 'xml', adminToken);
    expect(xml.status).toBe(200);
    expect(xml.disposition).toContain(`nota-credito-${orderDisplayId(sold).slice(1)}.xml`);
    const doc = new TextDecoder().decode(xml.bytes);
    expect(doc).toContain('SIN VALIDEZ FISCAL');
    expect(doc).toContain('TipoDeComprobante="E"');
    expect(doc).toMatch(new RegExp(`<cfdi:CfdiRelacionados TipoRelacion="01">\\s*<cfdi:CfdiRelacionado UUID="${global.cfdi_uuid}"/>`));
    expect(doc).toContain('<cfdi:InformacionGlobal Periodicidad="04" Meses="08" Año="2023"/>');
    expect(doc).toContain('Rfc="XAXX010101000"');
    expect(doc).toContain('UsoCFDI="S01"');
    expect(doc).toContain('ClaveProdServ="84111506"');
    expect(doc).toContain(`Total="${total.toFixed(2)}"`);
    expect(doc).toContain(`UUID="${note!.cfdi_uuid}"`);
  });
});
