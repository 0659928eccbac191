/**
 * The back office's orders: the list and one order in full, read with the admin's own session;
 * status changes and refunds through the shop's /api/admin endpoints with the admin's token.
 */
import type * as z from 'zod/mini';
import { getSupabase } from '../supabase.ts';
import { safeCallApi, type ApiAnswer } from '../api.ts';
import { orderStatusAnswer, refundAnswer, refundOptionsAnswer } from '~/domain/api-answers.ts';
import type { RefundOptions, RefundWay } from '~/domain/refunds.ts';
import type { Database } from '../database.types.ts';
import { ADMIN_PAGE_SIZE } from '~/domain/orders.ts';
import { type Centavos, toCentavos, tryToCentavos } from '~/domain/money.ts';

type AdminOrderRow = Database['public']['Functions']['admin_orders']['Returns'][number];

/** One order as the back office lists it (admin_orders), its amounts as Centavos (null when the row has none). */
export type AdminOrder = Omit<AdminOrderRow, 'subtotal' | 'discount' | 'shipping' | 'total'> & {
  subtotalCentavos: Centavos | null;
  discountCentavos: Centavos | null;
  shippingCentavos: Centavos | null;
  totalCentavos: Centavos | null;
};

/** The back office's order from an admin_orders row: numeric amounts become Centavos here. */
export function adminOrderOf({ subtotal, discount, shipping, total, ...row }: AdminOrderRow): AdminOrder {
  return {
    ...row,
    subtotalCentavos: tryToCentavos(subtotal),
    discountCentavos: tryToCentavos(discount),
    shippingCentavos: tryToCentavos(shipping),
    totalCentavos: tryToCentavos(total),
  };
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
  const orders = (data ?? []).map(adminOrderOf);
  return { orders, total: Number(orders[0]?.total_count ?? 0) };
}

/** One line of an order with the product's name. */
export interface AdminOrderLine {
  id: string;
  quantity: number;
  /** The unit price the order was priced at. */
  priceCentavos: Centavos;
  product_id: string | null;
  name: string | null;
  /** The single card's offer as sold: 'LP · Inglés · Parallel'; null for a product sold as a whole. */
  offerLabel: string | null;
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
    supabase.from('order_items').select('id, quantity, price, product_id, offer_label').eq('order_id', orderId),
    supabase.from('order_events').select('id, created_at, from_status, to_status, actor, note').eq('order_id', orderId).order('created_at').order('id'),
  ]);
  const row = (orderResult.data ?? [])[0];
  if (orderResult.error || linesResult.error || eventsResult.error || !row) return null;
  const order = adminOrderOf(row);
  const items = linesResult.data ?? [];
  const ids = [...new Set(items.map((i) => i.product_id).filter((id): id is string => !!id))];
  const names = new Map<string, string>();
  if (ids.length > 0) {
    const products = await supabase.from('products').select('id, name').in('id', ids);
    for (const p of products.data ?? []) names.set(p.id, p.name);
  }
  return {
    order,
    lines: items.map(({ price, offer_label, ...i }) => ({
      ...i,
      priceCentavos: toCentavos(price),
      name: i.product_id ? (names.get(i.product_id) ?? null) : null,
      offerLabel: offer_label || null,
    })),
    events: eventsResult.data ?? [],
  };
}

/** Ships, completes or cancels an order through the server (and the database function). */
export function changeOrderStatus(
  orderId: string,
  body: { status: string; carrier?: string; trackingNumber?: string; note?: string },
): Promise<ApiAnswer<{ status: string }>> {
  return safeCallApi(`/api/admin/orders/${encodeURIComponent(orderId)}/status`, { method: 'POST', body, schema: orderStatusAnswer });
}

/**
 * How a refund goes back: through the provider that took the money (card, PayPal), to the
 * shopper's balance ('saldo a favor'), or as a bank transfer the shop made itself.
 */
export type { RefundWay };

/** What 'Cancelar y reembolsar' sends. */
export interface RefundRequest {
  way: RefundWay;
  /** The bank transfer's reference (4 to 100 characters); only for 'bank_transfer'. */
  reference?: string;
  /** A shipped or completed order's units came back and go on sale again. */
  restock: boolean;
}

/** The ways the server allows for refunding this order (the default first); a 409 says why it cannot be refunded. */
export function refundOptions(orderId: string): Promise<ApiAnswer<RefundOptions>> {
  return safeCallApi(`/api/admin/orders/${encodeURIComponent(orderId)}/refund`, { schema: refundOptionsAnswer });
}

/** 'Cancelar y reembolsar' through the server: by the provider, to the balance or as a bank transfer. */
export function refundOrder(orderId: string, request: RefundRequest): Promise<ApiAnswer<z.infer<typeof refundAnswer>>> {
  const body = { way: request.way, restock: request.restock, ...(request.way === 'bank_transfer' ? { reference: request.reference ?? '' } : {}) };
  return safeCallApi(`/api/admin/orders/${encodeURIComponent(orderId)}/refund`, { method: 'POST', body, schema: refundAnswer });
}
