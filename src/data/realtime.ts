/**
 * Live changes from Supabase Realtime: the browser follows a table (or the signed-in user's own
 * rows of it) and is told when something changed; the caller reads again. Every subscriber
 * returns the function that closes it.
 */
import { getSupabase } from './supabase.ts';

/**
 * Tables of the user's own rows that the account page follows live (store_credit_entries: the
 * ledger of the balance, 'saldo a favor', where every change of the balance adds a row).
 */
export type LiveTable = 'profiles' | 'addresses' | 'orders' | 'rewards' | 'store_credit_entries' | 'favorites' | 'preorder_lines' | 'buylist_submissions';

function uniqueSuffix(): string {
  return Math.random().toString(36).slice(2, 10);
}

/**
 * Calls `onChange` whenever one of the user's rows in `table` changes (any tab, or the server),
 * but only while this browser is still signed in as that user: a change that arrives just after
 * signing out (or switching accounts) would otherwise make the page read the rows as nobody.
 */
export function subscribeToUserRows(table: LiveTable, userId: string, onChange: () => void): () => void {
  const supabase = getSupabase();
  const column = table === 'profiles' ? 'id' : 'user_id';
  const whileSignedIn = async () => {
    const { data } = await supabase.auth.getSession();
    if (data.session?.user.id === userId) onChange();
  };
  const channel = supabase
    .channel(`account-${table}-${userId}-${uniqueSuffix()}`)
    .on('postgres_changes', { event: '*', schema: 'public', table, filter: `${column}=eq.${userId}` }, () => void whileSignedIn())
    .subscribe();
  return () => {
    void supabase.removeChannel(channel);
  };
}

/** Calls `onChange` whenever any expansion changes (the expansion picker reads its list again). */
export function subscribeToExpansions(franchiseId: string, onChange: () => void): () => void {
  const supabase = getSupabase();
  const channel = supabase
    .channel(`expansions-${franchiseId}`)
    .on('postgres_changes', { event: '*', schema: 'public', table: 'expansions' }, () => onChange())
    .subscribe();
  return () => {
    void supabase.removeChannel(channel);
  };
}
