/**
 * What the back office reads and writes. Reads go to Supabase with the admin's own session
 * (row-level security and the admin-only functions decide); order actions, refunds, the
 * newsletter and rebuilds go through the shop's /api/admin endpoints (./api.ts) with the admin's
 * token.
 */
import { getSupabase } from './supabase.ts';
import * as z from 'zod/mini';
import { safeCallApi, authHeaders, type ApiAnswer } from './api.ts';
import { orderStatusAnswer, rebuildStartedAnswer, rebuildStatusAnswer, refundAnswer, refundOptionsAnswer, subscribersAnswer } from '~/domain/api-answers.ts';
import type { RefundOptions, RefundWay } from '~/domain/refunds.ts';
import type { Database, Tables, TablesInsert } from './database.types.ts';
import { ADMIN_PAGE_SIZE } from '~/domain/orders.ts';
import { type Centavos, toCentavos, tryToCentavos } from '~/domain/money.ts';
import { isSinglesType } from '~/domain/catalog.ts';
import { summarizeOffers, type OffersSummary } from './singles-admin.ts';

// Resumen --------------------------------------------------------------------------------------

/** One day of sales. */
export interface SalesDay {
  day: string;
  orders: number;
  totalCentavos: Centavos;
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

// admin_summary's jsonb (supabase/migrations/20261123002000_back_office.sql); a day's total is a numeric in pesos.
const pesoAmount = z.pipe(
  z.union([z.number(), z.string()]),
  z.transform((value, ctx): Centavos => {
    const cents = tryToCentavos(value);
    if (cents === null) {
      ctx.issues.push({ code: 'custom', message: 'Importe no válido.', input: value });
      return z.NEVER;
    }
    return cents;
  }),
);
const count = z.number().check(z.int());
const summaryAnswer = z.object({
  sales: z.array(
    z.pipe(
      z.object({ day: z.string(), orders: count, total: pesoAmount }),
      z.transform(({ day, orders, total }): SalesDay => ({ day, orders, totalCentavos: total })),
    ),
  ),
  toShip: count,
  pendingPayment: count,
  refundsToReview: count,
  lowStock: z.array(z.object({ id: z.string(), name: z.string(), stock: count })),
  lowStockCount: count,
});

/** The 'Resumen' numbers; null when they cannot be read or do not have the expected shape. */
export async function loadSummary(): Promise<Summary | null> {
  const { data, error } = await getSupabase().rpc('admin_summary');
  if (error) return null;
  const parsed = summaryAnswer.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/**
 * Where a refund stands: retried by the shop ('processing', 'failed') or stopped for an admin
 * ('manual'); 'chargeback': a chargeback on an order that used the balance, whose balance is held
 * until an admin decides (its amount is the balance held).
 */
export type RefundReviewStatus = 'processing' | 'failed' | 'manual' | 'chargeback';

/** A refund that has not gone through yet, with whose money it is (admin_refunds_to_review). */
export interface RefundToReview {
  id: string;
  order_id: string;
  /** The provider the refund goes back through (only to name the method; never shown itself). */
  provider: string;
  amountCentavos: Centavos;
  status: RefundReviewStatus;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  customer_name: string | null;
  customer_email: string | null;
}

// admin_refunds_to_review's jsonb (supabase/migrations/20261125000100_store_credit_oxxo.sql, chargebacks since
// 20261129000200_system_actor_chargebacks_oxxo.sql); amount is a numeric in pesos.
const refundsToReviewAnswer = z.array(
  z.pipe(
    z.object({
      id: z.string(),
      order_id: z.string(),
      provider: z.string(),
      amount: pesoAmount,
      status: z.enum(['processing', 'failed', 'manual', 'chargeback']),
      attempts: count,
      last_error: z.nullable(z.string()),
      next_attempt_at: z.nullable(z.string()),
      customer_name: z.nullable(z.string()),
      customer_email: z.nullable(z.string()),
    }),
    z.transform(({ amount, ...row }): RefundToReview => ({ ...row, amountCentavos: amount })),
  ),
);

/**
 * The refunds the shop must keep an eye on, those that need an admin ('manual') first; null when
 * they cannot be read or do not have the expected shape.
 */
export async function loadRefundsToReview(): Promise<RefundToReview[] | null> {
  const { data, error } = await getSupabase().rpc('admin_refunds_to_review');
  if (error) return null;
  const parsed = refundsToReviewAnswer.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/**
 * An admin's decision on a chargeback's held balance: return it to the shopper or keep it
 * (admin_resolve_chargeback, with the admin's session); the database's message when refused.
 */
export async function resolveChargeback(id: string, returnCredit: boolean): Promise<{ ok: true } | { ok: false; message: string }> {
  const { error } = await getSupabase().rpc('admin_resolve_chargeback', { p_id: id, p_return_credit: returnCredit });
  return error ? { ok: false, message: error.message } : { ok: true };
}

// Pedidos --------------------------------------------------------------------------------------

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

// Catálogo ---------------------------------------------------------------------------------------

/** The rebuild endpoint's status answer (checked with rebuildStatusAnswer; read leniently by the back office). */
export interface RebuildStatus {
  status?: string;
  startedAt?: string | null;
  finishedAt?: string | null;
  durationMs?: number | null;
  lastError?: string | null;
  lastSuccessAt?: string | null;
  lastSuccess?: string | null;
  pagesWritten?: number | null;
  lastPages?: number | null;
  progress?:
    | { phase?: string; pagesWritten?: number; pagesExpected?: number | null; percent?: number | null; pagesTotal?: number; total?: number; done?: number }
    | number
    | null;
  [key: string]: unknown;
}

/** The catalogue rebuild's state. */
export function loadRebuildStatus(): Promise<ApiAnswer<RebuildStatus>> {
  return safeCallApi<RebuildStatus>('/api/admin/rebuild', { schema: rebuildStatusAnswer });
}

/** Asks for a catalogue rebuild (for a product, when given). */
export function startRebuild(reason?: { productId?: string }): Promise<ApiAnswer<z.infer<typeof rebuildStartedAnswer>>> {
  return safeCallApi('/api/admin/rebuild', { method: 'POST', body: reason ?? {}, schema: rebuildStartedAnswer });
}

/** Asks for a catalogue rebuild; false when it could not be started. */
export async function requestRebuild(reason?: { productId?: string }): Promise<boolean> {
  return (await startRebuild(reason)).ok;
}

/** Whether a catalogue rebuild is still running or queued (false when idle or unknown). */
export async function rebuildRunning(): Promise<boolean> {
  const answer = await loadRebuildStatus();
  return answer.ok && (answer.data?.status === 'building' || answer.data?.status === 'queued');
}

// Boletín --------------------------------------------------------------------------------------

/** One newsletter subscriber. */
export type Subscriber = z.infer<typeof subscribersAnswer>['subscribers'][number];

/** Every subscriber (through the server: the table is not readable from the browser). */
export async function loadSubscribers(): Promise<Subscriber[] | null> {
  const answer = await safeCallApi('/api/admin/newsletter', { schema: subscribersAnswer });
  return answer.ok && answer.data ? answer.data.subscribers : null;
}

/** The subscribers as a CSV file; throws when it cannot be had. */
export async function downloadSubscribersCsv(): Promise<Blob> {
  const response = await fetch('/api/admin/newsletter.csv', { headers: await authHeaders() });
  if (!response.ok) throw new Error(String(response.status));
  return response.blob();
}

// Productos ------------------------------------------------------------------------------------

/** The product columns the back office reads. */
type AdminProductRow = Pick<
  Tables<'products'>,
  | 'id'
  | 'name'
  | 'description'
  | 'price'
  | 'original_price'
  | 'discount'
  | 'preorder'
  | 'stock'
  | 'limit_per_customer'
  | 'available'
  | 'release_date'
  | 'image'
  | 'images'
  | 'franchise_id'
  | 'expansion_id'
  | 'product_type_id'
>;

/** A product as the back office shows and edits it: the row, its prices as Centavos. */
export type AdminProduct = Omit<AdminProductRow, 'price' | 'original_price'> & {
  priceCentavos: Centavos;
  originalPriceCentavos: Centavos | null;
};

/** The back office's product from its row: numeric prices become Centavos here. */
export function adminProductOf({ price, original_price, ...row }: AdminProductRow): AdminProduct {
  return { ...row, priceCentavos: toCentavos(price), originalPriceCentavos: original_price === null ? null : toCentavos(original_price) };
}

export const PRODUCT_COLUMNS =
  'id, name, description, price, original_price, discount, preorder, stock, limit_per_customer, available, release_date, image, images, franchise_id, expansion_id, product_type_id';

/** Filters of the product table. */
export interface ProductFilter {
  search: string;
  franchise: string;
  type: string;
  expansion: string;
  /** '', 'sin-stock', 'preventa', 'no-disponible', 'poco-stock'. */
  flag: string;
  page: number;
}

export const PRODUCTS_PAGE_SIZE = 25;

/** A product of the back office's list: for a single card, the summary of its offers too (null for sealed products). */
export type AdminListProduct = AdminProduct & { offers: OffersSummary | null };

/**
 * The back office's product search as a PostgREST `or` filter: the text anywhere in the name or
 * the id, ignoring case; and, when it has spaces, dashes, slashes or dots, its pieces in that order
 * with anything between them, so a single is found by its collector number typed any way ('op05
 * 119', 'OP05/119' find 'Monkey.D.Luffy (OP05-119)') and 'charizard 199' finds 'Charizard ex
 * 199/165'. Null for an empty search. The filter's own syntax characters are dropped.
 */
export function productSearchOr(text: string): string | null {
  const search = text
    .trim()
    .replace(/[,()*%\\]/g, ' ')
    .trim();
  if (!search) return null;
  const clauses = [`name.ilike.*${search}*`, `id.ilike.*${search}*`];
  const loose = search.replace(/[\s\-/.·]+/g, '*');
  if (loose !== search) clauses.push(`name.ilike.*${loose}*`);
  return clauses.join(',');
}

/** One page of products and how many match. */
export async function loadProducts(filter: ProductFilter): Promise<{ products: AdminListProduct[]; total: number } | null> {
  let query = getSupabase().from('products').select(`${PRODUCT_COLUMNS}, card_offers(price, stock)`, { count: 'exact' });
  const search = productSearchOr(filter.search);
  if (search) query = query.or(search);
  if (filter.franchise) query = query.eq('franchise_id', filter.franchise);
  if (filter.type) query = query.eq('product_type_id', filter.type);
  if (filter.expansion) query = query.eq('expansion_id', filter.expansion);
  if (filter.flag === 'sin-stock') query = query.eq('stock', 0);
  if (filter.flag === 'poco-stock') query = query.lte('stock', 3);
  if (filter.flag === 'preventa') query = query.eq('preorder', true);
  if (filter.flag === 'no-disponible') query = query.eq('available', false);
  const from = (Math.max(1, filter.page) - 1) * PRODUCTS_PAGE_SIZE;
  const { data, error, count } = await query
    .order('name')
    .order('id')
    .range(from, from + PRODUCTS_PAGE_SIZE - 1);
  if (error) return null;
  const products = (data ?? []).map(({ card_offers, ...row }) => ({
    ...adminProductOf(row),
    offers: isSinglesType(row.product_type_id) ? summarizeOffers(card_offers ?? []) : null,
  }));
  return { products, total: count ?? 0 };
}

/** Ids already used by products whose id starts like `base`, to keep a new id unique. */
export async function takenProductIds(base: string): Promise<string[]> {
  const pattern = `${base.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { data } = await getSupabase().from('products').select('id').like('id', pattern);
  return (data ?? []).map((row) => row.id);
}

/** Inserts a new product row; the database error when refused. */
export async function insertProduct(row: TablesInsert<'products'>): Promise<{ error: { message: string; code?: string } | null }> {
  const { error } = await getSupabase().from('products').insert(row);
  return { error };
}

/** Deletes a product row (its printing and offers go with it); used when a registration could not be completed. */
export async function deleteProduct(id: string): Promise<void> {
  await getSupabase().from('products').delete().eq('id', id);
}

/** What the product edit dialog writes: the stock wanted and the other fields, prices in pesos. */
export interface ProductSave {
  stock: number;
  price: number;
  originalPrice: number | null;
  limitPerCustomer: number;
  available: boolean;
  preorder: boolean;
  releaseDate: string | null;
  description: string;
  images: string[];
}

/** How a product save ended: saved, refused because the stock moved meanwhile, or failed. */
export type ProductSaveResult = { status: 'saved'; product: AdminProduct } | { status: 'stock_changed'; stock: number } | { status: 'failed'; message: string };

// admin_save_product's jsonb (supabase/migrations/20261125000300_admin_stock_compare_and_set.sql).
const optionalText = z.nullable(z.string());
const savedProductRow = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  price: z.number(),
  original_price: z.nullable(z.number()),
  discount: z.boolean(),
  preorder: z.boolean(),
  stock: count,
  limit_per_customer: count,
  available: z.boolean(),
  release_date: optionalText,
  image: optionalText,
  images: z.array(z.string()),
  franchise_id: z.string(),
  expansion_id: optionalText,
  product_type_id: optionalText,
});
const productSaveAnswer = z.union([
  z.object({ saved: z.literal(true), stock: count, product: savedProductRow }),
  z.object({ saved: z.literal(false), stock: count }),
]);

/**
 * Saves a product's fields and its stock only if its stock is still `stockRead`, the stock the
 * dialog showed (admin_save_product locks the row and compares): units shoppers reserved
 * meanwhile are never put on sale twice. When the stock moved, nothing is written and the answer
 * carries the current stock.
 */
export async function saveProductIfStockUnchanged(id: string, stockRead: number, fields: ProductSave): Promise<ProductSaveResult> {
  const { data, error } = await getSupabase().rpc('admin_save_product', {
    p_product_id: id,
    p_stock_read: stockRead,
    p_stock: fields.stock,
    p_price: fields.price,
    p_original_price: fields.originalPrice,
    p_limit_per_customer: fields.limitPerCustomer,
    p_available: fields.available,
    p_preorder: fields.preorder,
    p_release_date: fields.releaseDate,
    p_description: fields.description,
    p_images: fields.images,
  });
  if (error) return { status: 'failed', message: error.message };
  const parsed = productSaveAnswer.safeParse(data);
  if (!parsed.success) return { status: 'failed', message: '' };
  const answer = parsed.data;
  return answer.saved ? { status: 'saved', product: adminProductOf(answer.product) } : { status: 'stock_changed', stock: answer.stock };
}
