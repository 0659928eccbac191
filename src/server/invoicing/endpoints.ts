/**
 * The factura endpoints:
 * - POST /api/orders/{id}/invoice {key}: the signed-in owner asks for the factura of a paid order
 *   (requestOrderInvoice); the same key again answers the same factura (a double click).
 * - GET /api/invoices/{id}/{pdf|xml}: the factura's file, for its shopper or an admin.
 * - POST /api/admin/invoices/global {year, month}: the month's factura global (admins only).
 */
import { z } from 'zod';
import { INVOICE_API_TEXT } from '~/i18n/invoices.ts';
import type { ServerContext } from '../context.ts';
import { authenticate, requireAdmin } from '../http/auth.ts';
import { ApiError, json, readJson } from '../http/json.ts';
import { INVOICE_FILE_TYPES, invoiceFileName } from './attachments.ts';
import { issueGlobalInvoice, requestOrderInvoice } from './queue.ts';
import type { InvoiceRow } from './types.ts';

const UUID = z.string().uuid();

const requestBody = z.object({
  key: z.string({ error: INVOICE_API_TEXT.invalidKey }).min(8, { error: INVOICE_API_TEXT.invalidKey }).max(100, { error: INVOICE_API_TEXT.invalidKey }),
});

/** POST /api/orders/{id}/invoice. */
export async function postOrderInvoice(request: Request, ctx: ServerContext, orderId: string | undefined): Promise<Response> {
  const id = UUID.safeParse(orderId);
  if (!id.success) throw new ApiError(400, INVOICE_API_TEXT.invalidOrder, 'invalid_order');
  const caller = await authenticate(request, ctx.admin);
  const { key } = await readJson(request, requestBody);
  const invoice = await requestOrderInvoice(ctx, caller.id, id.data, key);
  return json({ invoice }, invoice.replayed ? 200 : 201);
}

/** GET /api/invoices/{id}/{format}. */
export async function getInvoiceFile(request: Request, ctx: ServerContext, invoiceId: string | undefined, format: string | undefined): Promise<Response> {
  const id = UUID.safeParse(invoiceId);
  if (!id.success) throw new ApiError(404, INVOICE_API_TEXT.invoiceNotFound, 'not_found');
  if (format !== 'pdf' && format !== 'xml') throw new ApiError(400, INVOICE_API_TEXT.invalidFormat, 'invalid_format');
  const caller = await authenticate(request, ctx.admin);
  const { data, error } = await ctx.admin.from('invoices').select('*').eq('id', id.data).maybeSingle();
  if (error) throw new ApiError(502, INVOICE_API_TEXT.readFailed, 'upstream_error');
  const row = data as InvoiceRow | null;
  let allowed = row !== null && row.user_id === caller.id;
  if (row && !allowed) {
    const profile = await ctx.admin.from('profiles').select('is_admin').eq('id', caller.id).maybeSingle();
    allowed = profile.data?.is_admin === true;
  }
  // Someone else's factura is answered as if it did not exist.
  if (!row || !allowed) throw new ApiError(404, INVOICE_API_TEXT.invoiceNotFound, 'not_found');
  if (!row.provider_id || !['issued', 'cancelling', 'cancelled'].includes(row.status)) {
    throw new ApiError(409, INVOICE_API_TEXT.notIssued, 'not_issued');
  }
  const provider = ctx.invoicing ?? null;
  if (!provider || provider.name !== row.provider) throw new ApiError(503, INVOICE_API_TEXT.unavailable, 'invoicing_unavailable');
  let bytes: Uint8Array;
  try {
    bytes = await provider.download(row, format);
  } catch (err) {
    console.error(`[facturas] download ${row.id}:`, err);
    throw new ApiError(502, INVOICE_API_TEXT.providerFailed, 'provider_error');
  }
  return new Response(new Blob([bytes as BlobPart]), {
    status: 200,
    headers: {
      'content-type': INVOICE_FILE_TYPES[format],
      'content-disposition': `attachment; filename="${invoiceFileName(row, format)}"`,
      'cache-control': 'private, no-store',
    },
  });
}

const globalBody = z.object({
  year: z
    .number({ error: INVOICE_API_TEXT.invalidPeriod })
    .int({ error: INVOICE_API_TEXT.invalidPeriod })
    .min(2022, { error: INVOICE_API_TEXT.invalidPeriod })
    .max(2100, { error: INVOICE_API_TEXT.invalidPeriod }),
  month: z
    .number({ error: INVOICE_API_TEXT.invalidPeriod })
    .int({ error: INVOICE_API_TEXT.invalidPeriod })
    .min(1, { error: INVOICE_API_TEXT.invalidPeriod })
    .max(12, { error: INVOICE_API_TEXT.invalidPeriod }),
});

/** POST /api/admin/invoices/global. */
export async function postGlobalInvoice(request: Request, ctx: ServerContext): Promise<Response> {
  const caller = await requireAdmin(request, ctx.admin);
  const { year, month } = await readJson(request, globalBody);
  const invoice = await issueGlobalInvoice(ctx, year, month, caller.id);
  return json({ invoice }, 201);
}
