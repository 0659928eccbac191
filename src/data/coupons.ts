/** The `coupons` table: coupons the shop granted to a user, read-only for the user. */
import { getSupabase } from './supabase.ts';
import type { DataResult } from './profiles.ts';

/** How many coupons the user holds. */
export async function countCoupons(userId: string): Promise<DataResult<number>> {
  const { data, error } = await getSupabase().from('coupons').select('id').eq('user_id', userId);
  if (error) return { data: null, error };
  return { data: (data ?? []).length, error: null };
}
