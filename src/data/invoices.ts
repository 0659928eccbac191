/**
 * Facturas from the browser: the factura of one of the shopper's orders and whether they saved
 * their tax data (both read under row-level security: only their own), asking for it
 * (POST /api/orders/{id}/invoice) and downloading its PDF or XML (GET /api/invoices/{id}/{format},
 * with the session's token).
 */
import * as z from 'zod/mini';
import { authHeaders, callApi } from './api.ts';
import { getSupabase } from './supabase.ts';

/** A factura as the shopper sees it. */
export interface OrderInvoice {
  id: string;
  status: 'pending' | 'issuing' | 'issued' | 'failed' | 'cancelling' | 'cancelled';
  cfdiUuid: string | null;
  provider: string;
}

/** The order's latest factura (its own, never a credit note against the factura global), or null; throws when it cannot be read. */
export async function loadOrderInvoice(orderId: string): Promise<OrderInvoice | null> {
  const { data, error } = await getSupabase()
    .from('invoices')
    .select('id, status, cfdi_uuid, provider')
    .eq('order_id', orderId)
    .eq('kind', 'order')
    .order('created_at', { ascending: false })
    .limit(1)
    .maybeSingle();
  if (error) throw new Error(error.message);
  return data ? { id: data.id, status: data.status as OrderInvoice['status'], cfdiUuid: data.cfdi_uuid, provider: data.provider } : null;
}

/** Whether the signed-in shopper saved their tax data (row-level security shows only their own row). */
export async function hasTaxProfile(): Promise<boolean> {
  const { data, error } = await getSupabase().from('tax_profiles').select('user_id').limit(1).maybeSingle();
  if (error) throw new Error(error.message);
  return data !== null;
}

const requested = z.object({ invoice: z.object({ id: z.string(), status: z.string(), replayed: z.boolean() }) });

/** Asks for the order's factura; `key` is the same for repeated clicks of one button. */
export async function requestInvoice(orderId: string, key: string): Promise<{ ok: boolean; message: string | null; code: number }> {
  const answer = await callApi(`/api/orders/${encodeURIComponent(orderId)}/invoice`, { method: 'POST', body: { key }, schema: requested });
  return { ok: answer.ok, message: answer.message, code: answer.status };
}

/** Downloads the factura's PDF or XML as a file the browser saves; false when it failed. */
export async function downloadInvoice(invoiceId: string, format: 'pdf' | 'xml', fileName: string): Promise<boolean> {
  const response = await fetch(`/api/invoices/${encodeURIComponent(invoiceId)}/${format}`, { headers: await authHeaders() });
  if (!response.ok) return false;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `${fileName}.${format}`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return true;
}
