/** The `rewards` table: points granted by the shop, read-only for the user. */
import { getSupabase } from './supabase.ts';
import type { DataResult } from './profiles.ts';

/** The user's reward points (0 when there is no row). */
export async function getRewardPoints(userId: string): Promise<DataResult<number>> {
  const { data, error } = await getSupabase().from('rewards').select('points').eq('user_id', userId).maybeSingle();
  if (error) return { data: null, error };
  const points = Number(data?.points ?? 0);
  return { data: Number.isFinite(points) ? points : 0, error: null };
}
