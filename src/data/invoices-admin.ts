/**
 * The back office's Facturas: every factura (read as the admin, under row-level security), the
 * month's factura global preview (admin_global_invoice_preview) and its issue
 * (POST /api/admin/invoices/global).
 */
import * as z from 'zod/mini';
import { callApi } from './api.ts';
import { getSupabase } from './supabase.ts';

export interface AdminInvoice {
  id: string;
  kind: 'order' | 'global' | 'credit_note';
  orderId: string | null;
  status: 'pending' | 'issuing' | 'issued' | 'failed' | 'cancelling' | 'cancelled';
  receiver: string;
  rfc: string;
  total: number;
  cfdiUuid: string | null;
  lastError: string | null;
  createdAt: string;
  periodYear: number | null;
  periodMonth: number | null;
}

/** The latest 200 facturas, newest first; throws when they cannot be read. */
export async function loadInvoices(): Promise<AdminInvoice[]> {
  const { data, error } = await getSupabase()
    .from('invoices')
    .select('id, kind, order_id, status, customer, total, cfdi_uuid, last_error, created_at, period_year, period_month')
    .order('created_at', { ascending: false })
    .limit(200);
  if (error) throw new Error(error.message);
  return (data ?? []).map((row) => {
    const customer = (row.customer ?? {}) as { legal_name?: string; rfc?: string };
    return {
      id: row.id,
      kind: row.kind as AdminInvoice['kind'],
      orderId: row.order_id,
      status: row.status as AdminInvoice['status'],
      receiver: customer.legal_name ?? '',
      rfc: customer.rfc ?? '',
      total: Number(row.total),
      cfdiUuid: row.cfdi_uuid,
      lastError: row.last_error,
      createdAt: row.created_at,
      periodYear: row.period_year,
      periodMonth: row.period_month,
    };
  });
}

export interface GlobalPreview {
  orders: number;
  total: number;
  issued: boolean;
}

/** The month's uninvoiced sales: how many and their total. */
export async function previewGlobalInvoice(year: number, month: number): Promise<GlobalPreview> {
  const { data, error } = await getSupabase().rpc('admin_global_invoice_preview', { p_year: year, p_month: month });
  if (error) throw new Error(error.message);
  const preview = data as { orders: number; total: number | string; issued: boolean };
  return { orders: Number(preview.orders), total: Number(preview.total), issued: preview.issued };
}

const issued = z.object({ invoice: z.object({ id: z.string(), orders: z.number() }) });

/** Issues the month's factura global; the server's message when it refuses. */
export async function issueGlobalInvoice(year: number, month: number): Promise<{ ok: boolean; message: string | null }> {
  const answer = await callApi('/api/admin/invoices/global', { method: 'POST', body: { year, month }, schema: issued });
  return { ok: answer.ok, message: answer.message };
}
