/**
 * Preorders from the browser: the units a preorder product still has while its campaign is open
 * (what the buy box and the cart count instead of the shelf's stock), and what an arrival decided
 * for the caller's preorder orders (the Orders tab).
 */
import { getSupabase } from './supabase.ts';

/** Product id → the units its open preorder campaign still allows (null: no cap), for the products that have one. */
export async function openPreorderStock(ids: readonly string[]): Promise<Map<string, number | null>> {
  const map = new Map<string, number | null>();
  if (ids.length === 0) return map;
  const { data, error } = await getSupabase().rpc('preorder_open_stock', { p_product_ids: [...ids] });
  if (error) throw new Error(error.message);
  for (const row of data ?? []) if (row.product_id) map.set(row.product_id, row.remaining);
  return map;
}

/** The rows with the stock of products in an open preorder campaign replaced by the units it still allows. */
export function withPreorderStock<T extends { id: string; stock: number | null }>(rows: T[], open: ReadonlyMap<string, number | null>): T[] {
  if (open.size === 0) return rows;
  return rows.map((row) => (open.has(row.id) ? { ...row, stock: open.get(row.id) ?? null } : row));
}

/** What an arrival decided for a preorder line. */
export type PreorderLineStatus = 'awaiting' | 'allocated' | 'waitlisted' | 'refunded';

const STATUSES: readonly PreorderLineStatus[] = ['awaiting', 'allocated', 'waitlisted', 'refunded'];
/** The order's badge follows its least advanced line: awaiting, then waitlisted, refunded, allocated. */
const RANK: Record<PreorderLineStatus, number> = { awaiting: 0, waitlisted: 1, refunded: 2, allocated: 3 };

/** Order id → the state of its preorder lines, for the caller's orders that have any (RLS: own rows only). */
export async function fetchPreorderStatuses(orderIds: readonly string[]): Promise<Map<string, PreorderLineStatus>> {
  const map = new Map<string, PreorderLineStatus>();
  if (orderIds.length === 0) return map;
  const { data, error } = await getSupabase()
    .from('preorder_lines')
    .select('order_id, status')
    .in('order_id', [...orderIds]);
  if (error) throw new Error(error.message);
  for (const row of data ?? []) {
    const status = STATUSES.find((s) => s === row.status);
    if (!status) continue;
    const before = map.get(row.order_id);
    if (!before || RANK[status] < RANK[before]) map.set(row.order_id, status);
  }
  return map;
}
