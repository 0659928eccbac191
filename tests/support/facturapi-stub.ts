/**
 * A local Facturapi (API v2) for the tests, answering what Facturapi's documentation says it
 * answers and refusing what it refuses, as far as the shop uses it:
 * - every request needs `Authorization: Bearer <the test key>` (else 401);
 * - POST /v2/invoices checks the receiver (razón social, RFC in SAT's format, régimen of 3 digits,
 *   a 5-digit fiscal postal code), each item (quantity, description, ClaveProdServ of 8 digits,
 *   a positive price), the payment form against SAT's catalogue, PUE/PPD, the uso del CFDI, and a
 *   factura to XAXX010101000 without `global` (or with a uso other than S01); it answers the
 *   invoice with its id, a folio fiscal and status 'valid'. A reused idempotency_key is refused
 *   (409) and creates nothing. `type` is 'I' (ingreso, the default) or 'E' (egreso: a credit
 *   note), and an egreso needs `related_documents` ([{relationship, documents: [folio fiscal]}],
 *   relationship from SAT's c_TipoRelacion, each folio a UUID);
 * - GET /v2/invoices/{id}/pdf and /xml answer the files; DELETE /v2/invoices/{id}?motive= cancels
 *   ('01' needs a substitution; an unknown id is 404);
 * - `failNext(n)` makes the next n requests answer 500, as an outage would.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubInvoice {
  id: string;
  uuid: string;
  status: 'valid' | 'canceled';
  body: Record<string, any>;
  total: number;
  cancellation_motive: string | null;
}

export interface FacturapiStub {
  /** The API base the SDK is pointed at (…/v2). */
  url: string;
  key: string;
  invoices: Map<string, StubInvoice>;
  requests: Array<{ method: string; path: string }>;
  failNext(count: number): void;
  stop(): Promise<void>;
}

const PAYMENT_FORMS = new Set([
  '01',
  '02',
  '03',
  '04',
  '05',
  '06',
  '08',
  '12',
  '13',
  '14',
  '15',
  '17',
  '23',
  '24',
  '25',
  '26',
  '27',
  '28',
  '29',
  '30',
  '31',
  '99',
]);
const RFC = /^[A-ZÑ&]{3,4}[0-9]{6}[A-Z0-9]{3}$/;
const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
/** SAT's c_TipoRelacion. */
const RELATIONSHIPS = new Set(['01', '02', '03', '04', '05', '06', '07']);

/** What an egreso's (or any invoice's) related_documents lacks, or null. */
function invalidRelated(body: Record<string, any>): [string, string] | null {
  const related = body.related_documents;
  if (related === undefined && body.type !== 'E') return null;
  if (!Array.isArray(related) || related.length === 0) return ['related_documents is required for an egreso', 'related_documents'];
  for (const [i, group] of related.entries()) {
    if (!RELATIONSHIPS.has(group?.relationship)) return ['relationship is not valid', `related_documents.${i}.relationship`];
    if (!Array.isArray(group.documents) || group.documents.length === 0 || !group.documents.every((d: unknown) => typeof d === 'string' && UUID.test(d))) {
      return ['documents must be folio fiscal UUIDs', `related_documents.${i}.documents`];
    }
  }
  return null;
}

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type });
  res.end(typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body));
}

const refuse = (res: ServerResponse, status: number, message: string, path?: string) => send(res, status, { message, status, ...(path ? { path } : {}) });

async function bodyOf(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : {};
}

/** What POST /invoices refuses, or null. */
function invalid(body: Record<string, any>): [string, string] | null {
  const c = body.customer;
  if (body.type !== undefined && !['I', 'E'].includes(body.type)) return ['type is not valid', 'type'];
  const related = invalidRelated(body);
  if (related) return related;
  if (!c || typeof c !== 'object') return ['customer is required', 'customer'];
  if (!c.legal_name) return ['customer.legal_name is required', 'customer.legal_name'];
  if (!RFC.test(c.tax_id ?? '')) return ['customer.tax_id is not a valid RFC', 'customer.tax_id'];
  if (!/^[0-9]{3}$/.test(c.tax_system ?? '')) return ['customer.tax_system is required', 'customer.tax_system'];
  if (!/^[0-9]{5}$/.test(c.address?.zip ?? '')) return ['customer.address.zip is required', 'customer.address.zip'];
  if (!Array.isArray(body.items) || body.items.length === 0) return ['items must have at least one item', 'items'];
  for (const [i, item] of body.items.entries()) {
    const p = item.product ?? {};
    if (!(typeof item.quantity === 'number' && item.quantity > 0)) return ['quantity must be positive', `items.${i}.quantity`];
    if (!p.description) return ['product.description is required', `items.${i}.product.description`];
    if (!/^[0-9]{8}$/.test(p.product_key ?? '')) return ['product.product_key must have 8 digits', `items.${i}.product.product_key`];
    if (!(typeof p.price === 'number' && p.price > 0)) return ['product.price must be positive', `items.${i}.product.price`];
  }
  if (!PAYMENT_FORMS.has(body.payment_form)) return ['payment_form is not valid', 'payment_form'];
  if (body.payment_method && !['PUE', 'PPD'].includes(body.payment_method)) return ['payment_method is not valid', 'payment_method'];
  if (body.payment_method !== 'PPD' && body.payment_form === '99') return ['payment_form 99 requires PPD', 'payment_form'];
  if (c.tax_id === 'XAXX010101000') {
    const g = body.global;
    if (
      !g ||
      !['day', 'week', 'fortnight', 'month', 'two_months'].includes(g.periodicity) ||
      !/^(0[1-9]|1[0-8])$/.test(g.months ?? '') ||
      !Number.isInteger(g.year)
    ) {
      return ['global is required for público en general', 'global'];
    }
    if (body.use !== 'S01') return ['use must be S01 for público en general', 'use'];
  } else if (!body.use) return ['use is required', 'use'];
  return null;
}

/** A tiny PDF naming the factura. */
function pdfOf(invoice: StubInvoice): string {
  return `%PDF-1.4\n% Facturapi stub ${invoice.id} ${invoice.uuid}\n%%EOF\n`;
}

export async function startFacturapiStub(key = 'sk_test_facturapi_stub'): Promise<FacturapiStub> {
  const invoices = new Map<string, StubInvoice>();
  const keys = new Set<string>();
  const requests: Array<{ method: string; path: string }> = [];
  let failures = 0;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://stub');
      requests.push({ method: req.method ?? '', path: url.pathname });
      if (req.headers.authorization !== `Bearer ${key}`) return refuse(res, 401, 'Unauthorized');
      if (failures > 0) {
        failures -= 1;
        return refuse(res, 500, 'Internal server error');
      }
      const parts = url.pathname.split('/').filter(Boolean); // ['v2', 'invoices', id?, file?]
      if (parts[0] !== 'v2' || parts[1] !== 'invoices') return refuse(res, 404, 'Not found');
      if (req.method === 'POST' && parts.length === 2) {
        const body = await bodyOf(req);
        const problem = invalid(body);
        if (problem) return refuse(res, 400, problem[0], problem[1]);
        if (body.idempotency_key) {
          if (keys.has(body.idempotency_key)) return refuse(res, 409, 'idempotency_key already used');
          keys.add(body.idempotency_key);
        }
        const total = body.items.reduce((sum: number, item: any) => sum + item.quantity * item.product.price, 0);
        const invoice: StubInvoice = {
          id: `inv_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
          uuid: randomUUID().toUpperCase(),
          status: 'valid',
          body,
          total: Math.round(total * 100) / 100,
          cancellation_motive: null,
        };
        invoices.set(invoice.id, invoice);
        return send(res, 200, {
          id: invoice.id,
          uuid: invoice.uuid,
          status: 'valid',
          series: 'F',
          folio_number: invoices.size,
          total: invoice.total,
          livemode: false,
        });
      }
      const invoice = invoices.get(parts[2] ?? '');
      if (!invoice) return refuse(res, 404, 'Invoice not found');
      if (req.method === 'GET' && parts[3] === 'pdf') return send(res, 200, pdfOf(invoice), 'application/pdf');
      if (req.method === 'GET' && parts[3] === 'xml')
        return send(res, 200, `<?xml version="1.0"?><cfdi:Comprobante UUID="${invoice.uuid}"/>`, 'application/xml');
      if (req.method === 'DELETE' && parts.length === 3) {
        const motive = url.searchParams.get('motive');
        if (!motive || !['01', '02', '03', '04'].includes(motive)) return refuse(res, 400, 'motive is required', 'motive');
        if (motive === '01' && !url.searchParams.get('substitution')) return refuse(res, 400, 'substitution is required with motive 01', 'substitution');
        if (invoice.status === 'canceled') return refuse(res, 400, 'Invoice already canceled');
        invoice.status = 'canceled';
        invoice.cancellation_motive = motive;
        return send(res, 200, { id: invoice.id, uuid: invoice.uuid, status: 'canceled', cancellation_status: 'accepted' });
      }
      return refuse(res, 404, 'Not found');
    })().catch((err: unknown) => refuse(res, 500, String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v2`,
    key,
    invoices,
    requests,
    failNext: (count) => {
      failures = count;
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
