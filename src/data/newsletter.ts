/**
 * The `newsletter_subscribers` table: sign-up through supabase-js. Row-level security lets anyone insert into
 * newsletter_subscribers but nobody except the service role read it, so the insert must not ask
 * for the row back (supabase-js sends `Prefer: return=minimal` when no .select() follows).
 */
import { getSupabase } from './supabase.ts';

/** Postgres' unique_violation: the address is already subscribed. */
const UNIQUE_VIOLATION = '23505';

/** Result of a sign-up attempt; 'ok' also when the address was already on the list. */
export type SubscribeResult = 'ok' | 'failed';

/**
 * Stores a (validated, lower-cased) address. Subscribing twice is a success: the database skips
 * repeats silently, and a unique violation from a race between two requests means the same.
 */
export async function subscribeToNewsletter(email: string): Promise<SubscribeResult> {
  try {
    const { error } = await getSupabase().from('newsletter_subscribers').insert({ email });
    if (!error || error.code === UNIQUE_VIOLATION) return 'ok';
    console.error('newsletter: insert refused', error.code, error.message);
    return 'failed';
  } catch (error) {
    console.error('newsletter: request failed', error);
    return 'failed';
  }
}
