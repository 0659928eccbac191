/**
 * What the back-office screens read and write. Reads go to Supabase with the admin's own session
 * (row-level security and the admin-only functions decide); order actions, refunds, the
 * newsletter and rebuilds go through the shop's /api/admin endpoints with the admin's token.
 */
import { getSupabase } from '../../data/supabase.ts';
import { ADMIN_PAGE_SIZE } from '../../domain/orders.ts';

/** The admin's access token for the shop's own endpoints. */
export async function accessToken(): Promise<string> {
  const { data } = await getSupabase().auth.getSession();
  return data.session?.access_token ?? '';
}

/** A call to the shop's /api/admin with the admin's token; the JSON answer and the status. */
export async function adminFetch<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<{ ok: boolean; status: number; data: T | null; message: string }> {
  try {
    const response = await fetch(path, {
      method: init.method ?? 'GET',
      headers: {
        Authorization: `Bearer ${await accessToken()}`,
        ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    });
    const data = (await response.json().catch(() => null)) as (T & { message?: string }) | null;
    return { ok: response.ok, status: response.status, data, message: data?.message ?? '' };
  } catch {
    return { ok: false, status: 0, data: null, message: 'No se pudo conectar con la tienda. Intenta de nuevo.' };
  }
}

// Resumen --------------------------------------------------------------------------------------

/** One day of sales. */
export interface SalesDay {
  day: string;
  orders: number;
  total: number | string;
}

/** admin_summary(). */
export interface Summary {
  sales: SalesDay[];
  toShip: number;
  pendingPayment: number;
  refundsToReview: number;
  lowStock: Array<{ id: string; name: string; stock: number }>;
  lowStockCount: number;
}

/** The 'Resumen' numbers. */
export async function loadSummary(): Promise<Summary | null> {
  const { data, error } = await getSupabase().rpc('admin_summary');
  // admin_summary returns jsonb in this shape (supabase/migrations/20261123002000_back_office.sql).
  return error ? null : (data as unknown as Summary);
}

/** A refund that has not gone through yet (payments_needing_attention). */
export interface RefundToReview {
  id: string;
  order_id: string;
  provider: string;
  amount: number | string;
  status: string;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
}

/** The refunds the shop must keep an eye on, oldest first. */
export async function loadRefundsToReview(): Promise<RefundToReview[]> {
  const { data, error } = await getSupabase()
    .from('payments_needing_attention')
    .select('id, order_id, provider, amount, status, attempts, last_error, next_attempt_at')
    .order('created_at')
    .limit(50);
  return error ? [] : ((data ?? []) as RefundToReview[]);
}

// Pedidos --------------------------------------------------------------------------------------

/** One order as the back office lists it (admin_orders). */
export interface AdminOrder {
  id: string;
  created_at: string;
  status: string;
  user_id: string;
  customer_email: string | null;
  customer_name: string | null;
  subtotal: number | string;
  discount: number | string;
  shipping: number | string;
  total: number | string;
  coupon_code: string | null;
  paid_at: string | null;
  payment_provider: string | null;
  payment_ref: string | null;
  shipping_address: Record<string, string | null> | null;
  carrier: string | null;
  tracking_number: string | null;
  shipped_at: string | null;
  completed_at: string | null;
  refunded_at: string | null;
  refund_ref: string | null;
  total_count: number;
}

/** Filters of the order list. */
export interface OrderFilter {
  status: string;
  from: string;
  to: string;
  search: string;
  page: number;
}

/** One page of orders and how many match in all. */
export async function loadOrders(filter: OrderFilter): Promise<{ orders: AdminOrder[]; total: number } | null> {
  const { data, error } = await getSupabase().rpc('admin_orders', {
    p_status: filter.status || null,
    p_from: filter.from || null,
    p_to: filter.to || null,
    p_search: filter.search.trim() || null,
    p_limit: ADMIN_PAGE_SIZE,
    p_offset: (Math.max(1, filter.page) - 1) * ADMIN_PAGE_SIZE,
  });
  if (error) return null;
  const orders = (data ?? []) as AdminOrder[];
  return { orders, total: Number(orders[0]?.total_count ?? 0) };
}

/** One line of an order with the product's name. */
export interface AdminOrderLine {
  id: string;
  quantity: number;
  price: number | string;
  product_id: string | null;
  name: string | null;
}

/** One status change of an order. */
export interface OrderEvent {
  id: number;
  created_at: string;
  from_status: string | null;
  to_status: string;
  actor: string | null;
  note: string | null;
}

/** An order with its lines and history. */
export interface OrderDetail {
  order: AdminOrder;
  lines: AdminOrderLine[];
  events: OrderEvent[];
}

/** One order in full; null when it cannot be read. */
export async function loadOrderDetail(orderId: string): Promise<OrderDetail | null> {
  const supabase = getSupabase();
  const [orderResult, linesResult, eventsResult] = await Promise.all([
    supabase.rpc('admin_orders', { p_order_id: orderId, p_limit: 1 }),
    supabase.from('order_items').select('id, quantity, price, product_id').eq('order_id', orderId),
    supabase.from('order_events').select('id, created_at, from_status, to_status, actor, note').eq('order_id', orderId).order('created_at').order('id'),
  ]);
  const order = ((orderResult.data ?? []) as AdminOrder[])[0];
  if (orderResult.error || linesResult.error || eventsResult.error || !order) return null;
  const items = (linesResult.data ?? []) as Omit<AdminOrderLine, 'name'>[];
  const ids = [...new Set(items.map((i) => i.product_id).filter((id): id is string => !!id))];
  const names = new Map<string, string>();
  if (ids.length > 0) {
    const products = await supabase.from('products').select('id, name').in('id', ids);
    for (const p of (products.data ?? []) as Array<{ id: string; name: string }>) names.set(p.id, p.name);
  }
  return {
    order,
    lines: items.map((i) => ({ ...i, name: i.product_id ? (names.get(i.product_id) ?? null) : null })),
    events: (eventsResult.data ?? []) as OrderEvent[],
  };
}

/** Ships, completes or cancels an order through the server (and the database function). */
export function changeOrderStatus(orderId: string, body: { status: string; carrier?: string; trackingNumber?: string; note?: string }) {
  return adminFetch<{ status: string }>(`/api/admin/orders/${encodeURIComponent(orderId)}/status`, { method: 'POST', body });
}

/** 'Cancelar y reembolsar' through the server and the payment provider. */
export function refundOrder(orderId: string) {
  return adminFetch<{ status: string; refund: string }>(`/api/admin/orders/${encodeURIComponent(orderId)}/refund`, { method: 'POST', body: {} });
}

// Catálogo ---------------------------------------------------------------------------------------

/** Asks for a catalogue rebuild; false when it could not be started. */
export async function requestRebuild(reason?: { productId?: string }): Promise<boolean> {
  const answer = await adminFetch('/api/admin/rebuild', { method: 'POST', body: reason ?? {} });
  return answer.ok;
}
