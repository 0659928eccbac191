/**
 * Expansion reads for the expansion picker: a franchise's expansions ordered by name.
 */
import { z } from 'zod';
import { getSupabase } from './supabase.ts';

const expansionRow = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  franchise_id: z.string(),
  image: z.string().nullish(),
});

/** An expansion as the picker shows it. */
export interface ExpansionItem {
  id: string;
  name: string;
  image: string;
}

/** The expansions of a franchise, by name; rows that are not valid expansions are left out. */
export async function fetchExpansions(franchiseId: string): Promise<ExpansionItem[]> {
  const { data, error } = await getSupabase()
    .from('expansions')
    .select('id, name, franchise_id, image')
    .eq('franchise_id', franchiseId)
    .order('name', { ascending: true });
  if (error) throw new Error(error.message);
  const items: ExpansionItem[] = [];
  for (const row of data ?? []) {
    const parsed = expansionRow.safeParse(row);
    if (parsed.success) items.push({ id: parsed.data.id, name: parsed.data.name, image: parsed.data.image ?? '' });
  }
  return items;
}
