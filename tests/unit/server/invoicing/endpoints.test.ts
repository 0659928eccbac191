/**
 * The factura endpoints with a stand-in database and queue: the ids and formats checked before
 * anything else, 401 without a token, someone else's factura answered as missing, the file served
 * with its name and type, and every refusal a status with a Spanish message.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';
import type { InvoiceProvider } from '~/server/invoicing/types.ts';
import { fakeSupabase, type Result } from '../../../support/fake-supabase.ts';
import { INVOICE_ID, ORDER_ID, USER_ID, invoiceRow } from './invoice-row.ts';

const queue = vi.hoisted(() => ({
  requestOrderInvoice: vi.fn(),
  issueGlobalInvoice: vi.fn(),
}));
vi.mock('~/server/invoicing/queue.ts', () => queue);

const { getInvoiceFile, postGlobalInvoice, postOrderInvoice } = await import('~/server/invoicing/endpoints.ts');

afterEach(() => {
  vi.restoreAllMocks();
  queue.requestOrderInvoice.mockReset();
  queue.issueGlobalInvoice.mockReset();
});

const provider = (download: InvoiceProvider['download'] = async () => new TextEncoder().encode('%PDF-1.4 factura')): InvoiceProvider => ({
  name: 'simulated',
  testMode: true,
  issue: vi.fn(),
  download: vi.fn(download),
  cancel: vi.fn(),
});

/** A context whose caller is `userId` (null: the token is refused) and whose database answers `results`. */
function context(results: Record<string, Result[]> = {}, userId: string | null = USER_ID, invoicing: InvoiceProvider | null = provider()) {
  const db = fakeSupabase(results);
  db.auth.getUser.mockResolvedValue(
    userId ? { data: { user: { id: userId, email: 'ana@correo.test' } }, error: null } : { data: { user: null }, error: { message: 'bad jwt' } },
  );
  const ctx = { admin: db.client, mail: vi.fn(), siteUrl: 'https://tienda.mx', invoicing } as unknown as ServerContext;
  return { ctx, calls: db.calls, invoicing };
}

const request = (method: string, token: string | null, body?: unknown) =>
  new Request('https://tienda.mx/api/x', {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function answer(run: () => Promise<Response>) {
  const res = await handle(run);
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, res, body: type.includes('json') ? await res.json() : new Uint8Array(await res.arrayBuffer()) };
}

describe('postOrderInvoice', () => {
  it('asks the queue for the factura of the caller and the order with the key: 201 issued, 200 replayed', async () => {
    const { ctx } = context();
    queue.requestOrderInvoice.mockResolvedValueOnce({ id: INVOICE_ID, status: 'issued', replayed: false });
    const first = await answer(() => postOrderInvoice(request('POST', 'tok', { key: 'clave-0001' }), ctx, ORDER_ID));
    expect(first).toMatchObject({ status: 201, body: { invoice: { id: INVOICE_ID, status: 'issued', replayed: false } } });
    expect(queue.requestOrderInvoice).toHaveBeenCalledWith(ctx, USER_ID, ORDER_ID, 'clave-0001');
    queue.requestOrderInvoice.mockResolvedValueOnce({ id: INVOICE_ID, status: 'issued', replayed: true });
    expect((await answer(() => postOrderInvoice(request('POST', 'tok', { key: 'clave-0001' }), ctx, ORDER_ID))).status).toBe(200);
  });

  it('refuses an order id that is no uuid (400), a missing token (401) and a missing or short key (400), in Spanish', async () => {
    const { ctx } = context();
    expect(await answer(() => postOrderInvoice(request('POST', 'tok', { key: 'clave-0001' }), ctx, 'no-es-un-id'))).toMatchObject({
      status: 400,
      body: { error: 'invalid_order', message: 'Pedido no válido.' },
    });
    expect(await answer(() => postOrderInvoice(request('POST', 'tok', { key: 'clave-0001' }), ctx, undefined))).toMatchObject({ status: 400 });
    expect(await answer(() => postOrderInvoice(request('POST', null, { key: 'clave-0001' }), ctx, ORDER_ID))).toMatchObject({
      status: 401,
      body: { error: 'not_authenticated' },
    });
    expect(await answer(() => postOrderInvoice(request('POST', 'tok', { key: 'corta' }), ctx, ORDER_ID))).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', message: 'Falta la clave de la solicitud.' },
    });
    expect(await answer(() => postOrderInvoice(request('POST', 'tok', {}), ctx, ORDER_ID))).toMatchObject({
      status: 400,
      body: { message: 'Falta la clave de la solicitud.' },
    });
    expect(await answer(() => postOrderInvoice(request('POST', 'tok', { key: 'x'.repeat(101) }), ctx, ORDER_ID))).toMatchObject({ status: 400 });
    expect(queue.requestOrderInvoice).not.toHaveBeenCalled();
  });

  it('refuses a token Supabase Auth does not accept', async () => {
    const { ctx } = context({}, null);
    expect((await answer(() => postOrderInvoice(request('POST', 'tok', { key: 'clave-0001' }), ctx, ORDER_ID))).status).toBe(401);
    expect(queue.requestOrderInvoice).not.toHaveBeenCalled();
  });
});

const issued = invoiceRow({ status: 'issued', provider_id: `sim_inv_${INVOICE_ID}`, cfdi_uuid: 'AAAABBBB-CCCC-4DDD-8EEE-FFFF00001111' });
const file = (ctx: ServerContext, format: string | undefined, token: string | null = 'tok', id: string | undefined = INVOICE_ID) =>
  answer(() => getInvoiceFile(request('GET', token), ctx, id, format));

describe('getInvoiceFile', () => {
  it("serves its owner the factura's file with its type, name and no caching", async () => {
    const { ctx, calls, invoicing } = context({ invoices: [{ data: issued, error: null }] });
    const pdf = await file(ctx, 'pdf');
    expect(pdf.status).toBe(200);
    expect(Buffer.from(pdf.body as Uint8Array).toString('latin1')).toBe('%PDF-1.4 factura');
    expect(pdf.res.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.res.headers.get('content-disposition')).toBe('attachment; filename="factura-28950E.pdf"');
    expect(pdf.res.headers.get('cache-control')).toBe('private, no-store');
    expect(invoicing!.download).toHaveBeenCalledWith(issued, 'pdf');
    expect(calls[0]!.steps).toContainEqual({ method: 'eq', args: ['id', INVOICE_ID] });
    // The owner's own factura needs no look at the profile.
    expect(calls.map((c) => c.table)).toEqual(['invoices']);
  });

  it("names a factura global's XML by its month", async () => {
    const global = { ...issued, kind: 'global', order_id: null, user_id: null, period_year: 2023, period_month: 5 };
    const { ctx } = context({ invoices: [{ data: global, error: null }], profiles: [{ data: { is_admin: true }, error: null }] }, 'admin-1');
    const xml = await file(ctx, 'xml');
    expect(xml.status).toBe(200);
    expect(xml.res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(xml.res.headers.get('content-disposition')).toBe('attachment; filename="factura-global-2023-05.xml"');
  });

  it("answers someone else's factura as missing, unless the caller is an admin", async () => {
    const stranger = context({ invoices: [{ data: issued, error: null }], profiles: [{ data: { is_admin: false }, error: null }] }, 'otro-usuario');
    expect(await file(stranger.ctx, 'pdf')).toMatchObject({ status: 404, body: { error: 'not_found', message: 'Factura no encontrada.' } });
    expect(stranger.invoicing!.download).not.toHaveBeenCalled();
    const admin = context({ invoices: [{ data: issued, error: null }], profiles: [{ data: { is_admin: true }, error: null }] }, 'admin-1');
    expect((await file(admin.ctx, 'pdf')).status).toBe(200);
  });

  it('refuses an id that is no uuid (404), an unknown format (400) and a missing token (401) before reading anything', async () => {
    const { ctx, calls } = context({ invoices: [{ data: issued, error: null }] });
    expect(await file(ctx, 'pdf', 'tok', 'factura-1')).toMatchObject({ status: 404, body: { message: 'Factura no encontrada.' } });
    expect(await file(ctx, 'doc')).toMatchObject({ status: 400, body: { error: 'invalid_format', message: 'Formato no válido: usa pdf o xml.' } });
    expect(await file(ctx, undefined)).toMatchObject({ status: 400 });
    expect(await file(ctx, 'pdf', null)).toMatchObject({ status: 401 });
    expect(calls).toEqual([]);
  });

  it('answers a missing factura 404, a read failure 502, one not issued yet 409', async () => {
    expect(await file(context({ invoices: [{ data: null, error: null }] }).ctx, 'pdf')).toMatchObject({ status: 404 });
    expect(await file(context({ invoices: [{ data: null, error: { message: 'caído' } }] }).ctx, 'pdf')).toMatchObject({
      status: 502,
      body: { error: 'upstream_error', message: 'No se pudo leer la información. Intenta de nuevo.' },
    });
    for (const row of [
      { ...issued, status: 'pending' },
      { ...issued, status: 'failed' },
      { ...issued, provider_id: null },
    ]) {
      expect(await file(context({ invoices: [{ data: row, error: null }] }).ctx, 'pdf')).toMatchObject({
        status: 409,
        body: { error: 'not_issued', message: 'La factura todavía no está lista.' },
      });
    }
    expect((await file(context({ invoices: [{ data: { ...issued, status: 'cancelled' }, error: null }] }).ctx, 'pdf')).status).toBe(200);
  });

  it('answers 503 without the provider that issued it, and 502 when the provider fails to serve it', async () => {
    expect(await file(context({ invoices: [{ data: issued, error: null }] }, USER_ID, null).ctx, 'pdf')).toMatchObject({
      status: 503,
      body: { error: 'invoicing_unavailable', message: 'La facturación no está disponible por ahora.' },
    });
    expect((await file(context({ invoices: [{ data: { ...issued, provider: 'facturapi' }, error: null }] }).ctx, 'pdf')).status).toBe(503);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failing = provider(async () => {
      throw new Error('sin conexión');
    });
    expect(await file(context({ invoices: [{ data: issued, error: null }] }, USER_ID, failing).ctx, 'xml')).toMatchObject({
      status: 502,
      body: { error: 'provider_error', message: 'El servicio de facturación no respondió. Intenta de nuevo.' },
    });
    expect(logged).toHaveBeenCalled();
  });
});

describe('postGlobalInvoice', () => {
  it("asks the queue for the month's factura global as the admin: 201", async () => {
    const { ctx } = context({ profiles: [{ data: { is_admin: true }, error: null }] }, 'admin-1');
    queue.issueGlobalInvoice.mockResolvedValueOnce({ id: INVOICE_ID, orders: 2 });
    expect(await answer(() => postGlobalInvoice(request('POST', 'tok', { year: 2023, month: 5 }), ctx))).toEqual(
      expect.objectContaining({ status: 201, body: { invoice: { id: INVOICE_ID, orders: 2 } } }),
    );
    expect(queue.issueGlobalInvoice).toHaveBeenCalledWith(ctx, 2023, 5, 'admin-1');
  });

  it('refuses a shopper (403), no token (401) and a month that is not one (400), in Spanish', async () => {
    const shopper = context({ profiles: [{ data: { is_admin: false }, error: null }] });
    expect((await answer(() => postGlobalInvoice(request('POST', 'tok', { year: 2023, month: 5 }), shopper.ctx))).status).toBe(403);
    expect((await answer(() => postGlobalInvoice(request('POST', null, { year: 2023, month: 5 }), shopper.ctx))).status).toBe(401);
    const admin = context({ profiles: [{ data: { is_admin: true }, error: null }] }, 'admin-1');
    for (const body of [
      { year: 2023, month: 13 },
      { year: 2023, month: 0 },
      { year: 2021, month: 5 },
      { year: 2023, month: 5.5 },
      { year: '2023', month: 5 },
      {},
    ]) {
      expect(await answer(() => postGlobalInvoice(request('POST', 'tok', body), admin.ctx))).toMatchObject({
        status: 400,
        body: { error: 'invalid_request', message: 'Mes no válido.' },
      });
    }
    expect(queue.issueGlobalInvoice).not.toHaveBeenCalled();
  });
});
