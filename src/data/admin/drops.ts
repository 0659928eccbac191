/**
 * The back office's drop schedule: products whose `on_sale_at` has not come yet, soonest first,
 * read with the admin's own session (row-level security lets admins read every product).
 */
import { getSupabase } from '../supabase.ts';

/** An upcoming drop as the schedule lists it. */
export interface UpcomingDrop {
  id: string;
  name: string;
  onSaleAt: string;
  stock: number | null;
  limitPerCustomer: number;
  available: boolean;
}

/** Drops listed at most. */
const DROPS_LIMIT = 200;

/** Upcoming drops (on_sale_at after `now`), soonest first; null when the read failed. */
export async function loadUpcomingDrops(now: Date = new Date()): Promise<UpcomingDrop[] | null> {
  const { data, error } = await getSupabase()
    .from('products')
    .select('id, name, on_sale_at, stock, limit_per_customer, available')
    .gt('on_sale_at', now.toISOString())
    .order('on_sale_at')
    .order('id')
    .limit(DROPS_LIMIT);
  if (error) return null;
  return (data ?? []).flatMap((row) =>
    row.on_sale_at
      ? [{ id: row.id, name: row.name, onSaleAt: row.on_sale_at, stock: row.stock, limitPerCustomer: row.limit_per_customer, available: row.available }]
      : [],
  );
}
