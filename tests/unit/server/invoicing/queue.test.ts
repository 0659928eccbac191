/**
 * The invoicing queue with a stand-in database and provider: a claimed factura is issued and
 * completed (the shopper e-mailed once), a provider failure is recorded with its backoff and never
 * thrown, a refunded order's factura is cancelled, the shopper's request and the month's factura
 * global send the database what the order recorded, and each refusal is a status with its message.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ORDER_STATUS } from '~/domain/orders.ts';
import type { ServerContext } from '~/server/context.ts';
import { issueGlobalInvoice, issueInvoice, processDueInvoices, requestOrderInvoice } from '~/server/invoicing/queue.ts';
import type { InvoiceProvider, IssuedInvoice } from '~/server/invoicing/types.ts';
import { fakeSupabase, type Call, type Result } from '../../../support/fake-supabase.ts';
import { CONCEPTS, CUSTOMER, INVOICE_ID, ORDER_ID, USER_ID, invoiceRow } from './invoice-row.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const ok = (data: unknown): Result[] => [{ data, error: null }];
const ISSUED: IssuedInvoice = { providerId: 'prov-1', cfdiUuid: 'AAAABBBB-CCCC-4DDD-8EEE-FFFF00001111', series: null, folio: '7' };

function fakeProvider(overrides: Partial<InvoiceProvider> = {}): InvoiceProvider & { issue: ReturnType<typeof vi.fn>; cancel: ReturnType<typeof vi.fn> } {
  return {
    name: 'simulated',
    testMode: true,
    issue: vi.fn(async () => ISSUED),
    download: vi.fn(),
    cancel: vi.fn(async () => undefined),
    ...overrides,
  } as never;
}

/** A context whose database answers `results` (per table or `rpc:name`), recording every call. */
function context(results: Record<string, Result[]>, invoicing: InvoiceProvider | null = fakeProvider()) {
  const db = fakeSupabase(results);
  const getUserById = vi.fn(async () => ({ data: { user: { email: 'cuenta@correo.test' } } }));
  const admin = Object.assign(db.client, { auth: { ...db.auth, admin: { getUserById } } });
  const mail = vi.fn(async (_mail: Record<string, unknown>) => undefined);
  const ctx = { admin, mail, siteUrl: 'https://tienda.mx', invoicing } as unknown as ServerContext;
  return { ctx, calls: db.calls, mail, getUserById, invoicing };
}

/** The arguments of each call of the RPC `name`. */
const rpcArgs = (calls: Call[], name: string) => calls.filter((c) => c.table === `rpc:${name}`).map((c) => c.steps[0]!.args[0] as Record<string, unknown>);
const rpcNames = (calls: Call[]) => calls.filter((c) => c.table.startsWith('rpc:')).map((c) => c.table.slice(4));

function quiet() {
  return { warn: vi.spyOn(console, 'warn').mockImplementation(() => undefined), error: vi.spyOn(console, 'error').mockImplementation(() => undefined) };
}

describe('issueInvoice', () => {
  it('claims the factura, issues it, completes it with what the provider answered and e-mails the receiver once', async () => {
    const { ctx, calls, mail, invoicing } = context({ 'rpc:claim_invoices': ok([invoiceRow({ attempts: 2 })]), 'rpc:complete_invoice': ok(true) });
    await issueInvoice(ctx, INVOICE_ID);
    expect(rpcArgs(calls, 'claim_invoices')).toEqual([{ p_limit: 1, p_id: INVOICE_ID, p_provider: 'simulated' }]);
    expect(invoicing!.issue).toHaveBeenCalledWith(expect.objectContaining({ id: INVOICE_ID, attempts: 2 }));
    expect(rpcArgs(calls, 'complete_invoice')).toEqual([
      { p_id: INVOICE_ID, p_attempt: 2, p_provider_id: 'prov-1', p_cfdi_uuid: ISSUED.cfdiUuid, p_series: undefined, p_folio: '7' },
    ]);
    expect(rpcNames(calls)).not.toContain('fail_invoice');
    expect(mail).toHaveBeenCalledOnce();
    const sent = mail.mock.calls[0]![0];
    expect(sent).toMatchObject({ to: CUSTOMER.email, kind: 'invoice_issued', dedupeKey: `invoice_issued:${INVOICE_ID}` });
    expect(sent.text).toContain(ISSUED.cfdiUuid);
    expect(sent.text).toContain('sin validez fiscal');
    expect(sent.text).toContain('https://tienda.mx/account?tab=orders');
  });

  it("e-mails the account's address when the tax data has none, with no test notice from a live provider", async () => {
    const live = fakeProvider({ testMode: false });
    const row = invoiceRow({ customer: { ...CUSTOMER, email: null } });
    const { ctx, mail, getUserById } = context({ 'rpc:claim_invoices': ok([row]), 'rpc:complete_invoice': ok(true) }, live);
    await issueInvoice(ctx, INVOICE_ID);
    expect(getUserById).toHaveBeenCalledWith(USER_ID);
    expect(mail.mock.calls[0]![0]).toMatchObject({ to: 'cuenta@correo.test' });
    expect(mail.mock.calls[0]![0].text).not.toContain('sin validez fiscal');
  });

  it('sends no e-mail when the database did not take the completion (a stale attempt) or for a factura global', async () => {
    const stale = context({ 'rpc:claim_invoices': ok([invoiceRow()]), 'rpc:complete_invoice': ok(false) });
    await issueInvoice(stale.ctx, INVOICE_ID);
    expect(stale.mail).not.toHaveBeenCalled();
    const global = context({ 'rpc:claim_invoices': ok([invoiceRow({ kind: 'global', order_id: null })]), 'rpc:complete_invoice': ok(true) });
    await issueInvoice(global.ctx, INVOICE_ID);
    expect(rpcArgs(global.calls, 'complete_invoice')).toHaveLength(1);
    expect(global.mail).not.toHaveBeenCalled();
  });

  it('does nothing without a provider, or when nothing was claimed', async () => {
    const none = context({}, null);
    await issueInvoice(none.ctx, INVOICE_ID);
    expect(none.calls).toEqual([]);
    const empty = context({ 'rpc:claim_invoices': ok([]) });
    await issueInvoice(empty.ctx, INVOICE_ID);
    expect(rpcNames(empty.calls)).toEqual(['claim_invoices']);
    expect(empty.invoicing!.issue).not.toHaveBeenCalled();
  });

  it('throws when the claim itself fails', async () => {
    const { ctx } = context({ 'rpc:claim_invoices': [{ data: null, error: { message: 'sin conexión' } }] });
    await expect(issueInvoice(ctx, INVOICE_ID)).rejects.toThrow('claim_invoices: sin conexión');
  });

  it('records a provider failure with its backoff (1, 2, 4 … 60 minutes) and never throws', async () => {
    const { warn } = quiet();
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-29T12:00:00.000Z') });
    const expected: Array<[number, string]> = [
      [1, '2026-11-29T12:01:00.000Z'],
      [2, '2026-11-29T12:02:00.000Z'],
      [3, '2026-11-29T12:04:00.000Z'],
      [6, '2026-11-29T12:32:00.000Z'],
      [7, '2026-11-29T13:00:00.000Z'],
    ];
    for (const [attempts, next] of expected) {
      const failing = fakeProvider({ issue: vi.fn(async () => Promise.reject(new Error('Facturapi no contestó'))) });
      const { ctx, calls, mail } = context({ 'rpc:claim_invoices': ok([invoiceRow({ attempts })]) }, failing);
      await expect(issueInvoice(ctx, INVOICE_ID)).resolves.toBeUndefined();
      expect(rpcArgs(calls, 'fail_invoice')).toEqual([{ p_id: INVOICE_ID, p_attempt: attempts, p_error: 'Facturapi no contestó', p_next_attempt_at: next }]);
      expect(rpcNames(calls)).not.toContain('complete_invoice');
      expect(mail).not.toHaveBeenCalled();
    }
    expect(warn).toHaveBeenCalledTimes(expected.length);
  });

  it('gives up after the last attempt: no next attempt, and the error says the attempts ran out', async () => {
    quiet();
    const failing = fakeProvider({ issue: vi.fn(async () => Promise.reject(new Error('RFC no válido'))) });
    const { ctx, calls } = context({ 'rpc:claim_invoices': ok([invoiceRow({ attempts: 8 })]) }, failing);
    await issueInvoice(ctx, INVOICE_ID);
    expect(rpcArgs(calls, 'fail_invoice')).toEqual([
      { p_id: INVOICE_ID, p_attempt: 8, p_error: 'RFC no válido · Se agotaron los 8 intentos', p_next_attempt_at: null },
    ]);
  });

  it("records a database refusal of the completion as a failure too, keeps long errors to 1000 characters, and survives fail_invoice's own error", async () => {
    const { error } = quiet();
    const refused = context({ 'rpc:claim_invoices': ok([invoiceRow()]), 'rpc:complete_invoice': [{ data: null, error: { message: 'estado inválido' } }] });
    await issueInvoice(refused.ctx, INVOICE_ID);
    expect(rpcArgs(refused.calls, 'fail_invoice')[0]).toMatchObject({ p_error: 'estado inválido' });

    const long = fakeProvider({ issue: vi.fn(async () => Promise.reject('x'.repeat(5000))) });
    const failing = context({ 'rpc:claim_invoices': ok([invoiceRow()]), 'rpc:fail_invoice': [{ data: null, error: { message: 'sin conexión' } }] }, long);
    await expect(issueInvoice(failing.ctx, INVOICE_ID)).resolves.toBeUndefined();
    expect(rpcArgs(failing.calls, 'fail_invoice')[0]!.p_error).toBe('x'.repeat(1000));
    expect(error).toHaveBeenCalledWith(expect.stringContaining('sin conexión'));
  });

  it('cancels a factura being cancelled with its motive (03 when none), completes it and tells the shopper only the first time', async () => {
    const cancelling = invoiceRow({ status: 'cancelling', cancel_motive: '02', provider_id: 'prov-1', cfdi_uuid: ISSUED.cfdiUuid });
    const first = context({ 'rpc:claim_invoices': ok([cancelling]), 'rpc:mark_invoice_shopper_told': ok(true) });
    await issueInvoice(first.ctx, INVOICE_ID);
    expect(first.invoicing!.cancel).toHaveBeenCalledWith(cancelling, '02');
    expect(first.invoicing!.issue).not.toHaveBeenCalled();
    expect(rpcArgs(first.calls, 'complete_invoice_cancellation')).toEqual([{ p_id: INVOICE_ID }]);
    expect(first.mail).toHaveBeenCalledOnce();
    expect(first.mail.mock.calls[0]![0]).toMatchObject({ to: CUSTOMER.email, kind: 'invoice_cancelled', dedupeKey: `invoice_cancelled:${INVOICE_ID}` });
    expect(first.mail.mock.calls[0]![0].subject).toContain('Cancelamos la factura');

    const again = context({ 'rpc:claim_invoices': ok([{ ...cancelling, cancel_motive: null }]), 'rpc:mark_invoice_shopper_told': ok(false) });
    await issueInvoice(again.ctx, INVOICE_ID);
    expect(again.invoicing!.cancel).toHaveBeenCalledWith(expect.anything(), '03');
    expect(again.mail).not.toHaveBeenCalled();
  });

  it('records a failed cancellation for a retry', async () => {
    quiet();
    const failing = fakeProvider({ cancel: vi.fn(async () => Promise.reject(new Error('SAT no disponible'))) });
    const { ctx, calls, mail } = context({ 'rpc:claim_invoices': ok([invoiceRow({ status: 'cancelling', provider_id: 'prov-1' })]) }, failing);
    await issueInvoice(ctx, INVOICE_ID);
    expect(rpcNames(calls)).toEqual(['claim_invoices', 'fail_invoice']);
    expect(rpcArgs(calls, 'fail_invoice')[0]).toMatchObject({ p_error: 'SAT no disponible' });
    expect(mail).not.toHaveBeenCalled();
  });
});

describe('processDueInvoices', () => {
  it("asks to cancel refunded orders' facturas, then works the due ones and reports what happened", async () => {
    quiet();
    const issue = vi.fn(async (row: { id: string }) => (row.id === 'falla' ? Promise.reject(new Error('caído')) : ISSUED));
    const { ctx, calls } = context(
      {
        invoices: ok([{ order_id: ORDER_ID }, { order_id: null }, { order_id: 'otro-pedido' }]),
        'rpc:request_invoice_cancellation': [
          { data: null, error: null },
          { data: null, error: { message: 'ya cancelada' } },
        ],
        'rpc:claim_invoices': ok([invoiceRow({ id: 'bien' }), invoiceRow({ id: 'falla' })]),
        'rpc:complete_invoice': ok(false),
      },
      fakeProvider({ issue }),
    );
    expect(await processDueInvoices(ctx, 5)).toEqual({ cancellationsRequested: 1, creditNotesRequested: 0, claimed: 2, done: 1, failed: 1 });
    const refunded = calls.find((c) => c.table === 'invoices')!.steps;
    expect(refunded).toContainEqual({ method: 'eq', args: ['orders.status', ORDER_STATUS.refunded] });
    expect(refunded).toContainEqual({ method: 'in', args: ['status', ['pending', 'failed', 'issued']] });
    expect(rpcArgs(calls, 'request_invoice_cancellation')).toEqual([
      { p_order_id: ORDER_ID, p_motive: '03' },
      { p_order_id: 'otro-pedido', p_motive: '03' },
    ]);
    expect(rpcArgs(calls, 'claim_invoices')).toEqual([{ p_limit: 5, p_provider: 'simulated' }]);
    expect(rpcArgs(calls, 'fail_invoice').map((a) => a.p_id)).toEqual(['falla']);
  });

  it('does nothing without a provider, claims 20 by default, and throws when the database cannot be read', async () => {
    const none = context({}, null);
    expect(await processDueInvoices(none.ctx)).toEqual({ cancellationsRequested: 0, creditNotesRequested: 0, claimed: 0, done: 0, failed: 0 });
    expect(none.calls).toEqual([]);
    const idle = context({ invoices: ok([]), 'rpc:claim_invoices': ok([]) });
    expect(await processDueInvoices(idle.ctx)).toEqual({ cancellationsRequested: 0, creditNotesRequested: 0, claimed: 0, done: 0, failed: 0 });
    expect(rpcArgs(idle.calls, 'claim_invoices')).toEqual([{ p_limit: 20, p_provider: 'simulated' }]);
    const broken = context({ invoices: [{ data: null, error: { message: 'sin conexión' } }] });
    await expect(processDueInvoices(broken.ctx)).rejects.toThrow('invoices: sin conexión');
  });
});

const paidOrder = {
  id: ORDER_ID,
  user_id: USER_ID,
  status: ORDER_STATUS.paid,
  subtotal: '2320.00',
  discount: '0.00',
  shipping: '99.00',
  total: '2419.00',
  credit_applied: '0.00',
  paid_at: '2026-11-20T18:00:00Z',
  expires_at: null,
  shipping_address_id: null,
  shipping_address: null,
  payment_provider: 'simulated',
  payment_ref: 'sim_1',
  payment_method: 'card',
  installments: null,
  oxxo_voucher: null,
};
const items = [
  {
    quantity: 2,
    price: '1160.00',
    offer_label: null,
    product_id: 'pk-caja',
    products: { name: 'Caja de sobres', sat_product_key: '60141000', sat_unit_key: 'H87' },
  },
];

function requestContext(overrides: Record<string, Result[]> = {}, invoicing: InvoiceProvider | null = fakeProvider()) {
  return context(
    {
      orders: ok(paidOrder),
      order_items: ok(items),
      'rpc:request_order_invoice': ok({ id: INVOICE_ID, status: 'pending', replayed: false }),
      'rpc:claim_invoices': ok([invoiceRow()]),
      'rpc:complete_invoice': ok(true),
      invoices: ok({ status: 'issued' }),
      ...overrides,
    },
    invoicing,
  );
}

describe('requestOrderInvoice', () => {
  it('sends the database the concepts the order recorded and its payment form, then issues the factura at once', async () => {
    const { ctx, calls, invoicing } = requestContext();
    expect(await requestOrderInvoice(ctx, USER_ID, ORDER_ID, 'clave-0001')).toEqual({ id: INVOICE_ID, status: 'issued', replayed: false });
    expect(rpcArgs(calls, 'request_order_invoice')).toEqual([
      { p_user_id: USER_ID, p_order_id: ORDER_ID, p_request_key: 'clave-0001', p_payment_form: '04', p_concepts: CONCEPTS, p_provider: 'simulated' },
    ]);
    expect(rpcArgs(calls, 'claim_invoices')).toEqual([{ p_limit: 1, p_id: INVOICE_ID, p_provider: 'simulated' }]);
    expect(invoicing!.issue).toHaveBeenCalledOnce();
  });

  it('answers a replayed request as the database did, without issuing again', async () => {
    const { ctx, calls, invoicing } = requestContext({ 'rpc:request_order_invoice': ok({ id: INVOICE_ID, status: 'issued', replayed: true }) });
    expect(await requestOrderInvoice(ctx, USER_ID, ORDER_ID, 'clave-0001')).toEqual({ id: INVOICE_ID, status: 'issued', replayed: true });
    expect(rpcNames(calls)).toEqual(['request_order_invoice']);
    expect(invoicing!.issue).not.toHaveBeenCalled();
  });

  it('a provider failure never fails the request: the factura is answered as failed, waiting for its retry', async () => {
    quiet();
    const failing = fakeProvider({ issue: vi.fn(async () => Promise.reject(new Error('caído'))) });
    const { ctx, calls } = requestContext({ invoices: ok({ status: 'failed' }) }, failing);
    expect(await requestOrderInvoice(ctx, USER_ID, ORDER_ID, 'clave-0001')).toMatchObject({ status: 'failed', replayed: false });
    expect(rpcNames(calls)).toContain('fail_invoice');
  });

  it("refuses without a provider (503), someone else's or a missing order (404), amounts that do not add up (409)", async () => {
    await expect(requestOrderInvoice(requestContext({}, null).ctx, USER_ID, ORDER_ID, 'clave-0001')).rejects.toMatchObject({
      status: 503,
      code: 'invoicing_unavailable',
      message: 'La facturación no está disponible por ahora.',
    });
    await expect(requestOrderInvoice(requestContext().ctx, 'otro-usuario', ORDER_ID, 'clave-0001')).rejects.toMatchObject({
      status: 404,
      code: 'order_not_found',
      message: 'Pedido no encontrado.',
    });
    await expect(requestOrderInvoice(requestContext({ orders: ok(null) }).ctx, USER_ID, ORDER_ID, 'clave-0001')).rejects.toMatchObject({ status: 404 });
    const mismatch = requestContext({ orders: ok({ ...paidOrder, total: '2500.00' }) });
    await expect(requestOrderInvoice(mismatch.ctx, USER_ID, ORDER_ID, 'clave-0001')).rejects.toMatchObject({ status: 409, code: 'amount_mismatch' });
    expect(rpcNames(mismatch.calls)).toEqual([]);
  });

  it("answers the database's refusal with its status and message, and anything else as 502", async () => {
    const refusal = { message: 'Este pedido ya tiene factura.', details: 'already_invoiced' };
    await expect(
      requestOrderInvoice(requestContext({ 'rpc:request_order_invoice': [{ data: null, error: refusal }] }).ctx, USER_ID, ORDER_ID, 'clave-0001'),
    ).rejects.toMatchObject({ status: 409, code: 'already_invoiced', message: 'Este pedido ya tiene factura.' });
    const badKey = { message: 'Clave no válida', details: 'invalid_key' };
    await expect(
      requestOrderInvoice(requestContext({ 'rpc:request_order_invoice': [{ data: null, error: badKey }] }).ctx, USER_ID, ORDER_ID, 'clave-0001'),
    ).rejects.toMatchObject({ status: 400, code: 'invalid_key' });
    const unknown = { message: 'deadlock detected', details: null };
    await expect(
      requestOrderInvoice(requestContext({ 'rpc:request_order_invoice': [{ data: null, error: unknown }] }).ctx, USER_ID, ORDER_ID, 'clave-0001'),
    ).rejects.toMatchObject({ status: 502, code: 'upstream_error', message: 'No se pudo leer la información. Intenta de nuevo.' });
  });
});

describe('issueGlobalInvoice', () => {
  const candidates = [
    { order_id: 'pedido-aaa111', paid_at: null, total: 300 },
    { order_id: 'pedido-bbb222', paid_at: null, total: '1160.00' },
    { order_id: 'pedido-ccc333', paid_at: null, total: 1000 },
    { order_id: null, paid_at: null, total: 50 },
    { order_id: 'pedido-ddd444', paid_at: null, total: null },
  ];
  const orders = [
    { id: 'pedido-aaa111', total: 300, credit_applied: 0, payment_method: 'card' },
    { id: 'pedido-bbb222', total: 1160, credit_applied: 0, payment_method: 'oxxo' },
    { id: 'pedido-ccc333', total: 1000, credit_applied: 0, payment_method: 'card' },
  ];
  const globalContext = (overrides: Record<string, Result[]> = {}, invoicing: InvoiceProvider | null = fakeProvider()) =>
    context(
      {
        'rpc:invoice_global_candidates': ok(candidates),
        orders: ok(orders),
        'rpc:create_global_invoice': ok({ id: INVOICE_ID, orders: 3 }),
        'rpc:claim_invoices': ok([]),
        ...overrides,
      },
      invoicing,
    );

  it('creates the factura to público en general, one concept per sale, paid by the form that paid most, then issues it', async () => {
    const now = new Date('2023-06-02T10:00:00.000Z');
    const { ctx, calls } = globalContext();
    expect(await issueGlobalInvoice(ctx, 2023, 5, 'admin-1', now)).toEqual({ id: INVOICE_ID, orders: 3 });
    expect(rpcArgs(calls, 'invoice_global_candidates')).toEqual([{ p_year: 2023, p_month: 5 }]);
    const [created] = rpcArgs(calls, 'create_global_invoice');
    expect(created).toMatchObject({
      p_year: 2023,
      p_month: 5,
      p_order_ids: ['pedido-aaa111', 'pedido-bbb222', 'pedido-ccc333'],
      p_customer: { rfc: 'XAXX010101000', legal_name: 'PUBLICO EN GENERAL', tax_regime: '616', tax_zip: '', cfdi_use: 'S01' },
      // Card paid $1,300.00 in two sales, OXXO $1,160.00 in one.
      p_payment_form: '04',
      p_provider: 'simulated',
      p_actor: 'admin-1',
      p_now: '2023-06-02T10:00:00.000Z',
    });
    const concepts = created!.p_concepts as Array<Record<string, unknown>>;
    expect(concepts.map((c) => [c.sku, c.quantity, c.productKey, c.unitKey, c.description, c.amount])).toEqual([
      ['AAA111', 1, '01010101', 'ACT', 'Venta', 30000],
      ['BBB222', 1, '01010101', 'ACT', 'Venta', 116000],
      ['CCC333', 1, '01010101', 'ACT', 'Venta', 100000],
    ]);
    expect(concepts.every((c) => (c.base as number) + (c.iva as number) === c.amount)).toBe(true);
    expect(rpcArgs(calls, 'claim_invoices')).toEqual([{ p_limit: 1, p_id: INVOICE_ID, p_provider: 'simulated' }]);
  });

  it("refuses a month that is not one (400) before asking, without a provider (503), and answers the database's refusals", async () => {
    const early = globalContext();
    await expect(issueGlobalInvoice(early.ctx, 2021, 5, 'admin-1')).rejects.toMatchObject({ status: 400, code: 'invalid_period', message: 'Mes no válido.' });
    await expect(issueGlobalInvoice(early.ctx, 2023, 13, 'admin-1')).rejects.toMatchObject({ status: 400 });
    expect(early.calls).toEqual([]);
    await expect(issueGlobalInvoice(globalContext({}, null).ctx, 2023, 5, 'admin-1')).rejects.toMatchObject({ status: 503 });
    const open = globalContext({ 'rpc:create_global_invoice': [{ data: null, error: { message: 'El mes sigue abierto.', details: 'month_open' } }] });
    await expect(issueGlobalInvoice(open.ctx, 2023, 5, 'admin-1')).rejects.toMatchObject({ status: 409, code: 'month_open', message: 'El mes sigue abierto.' });
    expect(rpcNames(open.calls)).not.toContain('claim_invoices');
  });
});
