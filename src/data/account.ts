/**
 * What the account page needs beyond single tables: the quick summary, live subscriptions to the
 * user's rows, and the saved cards served by the shop's own /api/stripe endpoints.
 */
import type { RealtimeChannel } from '@supabase/supabase-js';
import { getSupabase } from './supabase.ts';
import { listOrders, countOrdersSince } from './orders.ts';
import { getRewardPoints } from './rewards.ts';
import { countCoupons } from './coupons.ts';

/** The quick summary of the profile panel. */
export interface AccountSummary {
  orders: number;
  points: number;
  coupons: number;
  ordersLast30Days: number;
}

/** Days counted by the "orders in the last 30 days" figure. */
export const SUMMARY_WINDOW_DAYS = 30;

/** Loads the quick summary; throws the first backend error so the caller can log it. */
export async function loadSummary(userId: string, now: Date = new Date()): Promise<AccountSummary> {
  const since = new Date(now.getTime() - SUMMARY_WINDOW_DAYS * 24 * 60 * 60 * 1000);
  const [orders, points, coupons, recent] = await Promise.all([
    listOrders(userId),
    getRewardPoints(userId),
    countCoupons(userId),
    countOrdersSince(userId, since),
  ]);
  for (const result of [orders, points, coupons, recent]) if (result.error) throw result.error;
  return {
    orders: orders.data?.length ?? 0,
    points: points.data ?? 0,
    coupons: coupons.data ?? 0,
    ordersLast30Days: recent.data ?? 0,
  };
}

/** Tables of the user's own rows that the account page follows live. */
export type LiveTable = 'profiles' | 'addresses' | 'orders' | 'rewards';

/**
 * Calls `onChange` whenever one of the user's rows in `table` changes (any tab, or the server),
 * but only while this browser is still signed in as that user: a change that arrives just after
 * signing out (or switching accounts) would otherwise make the page read the rows as nobody.
 * Returns the function that closes the subscription.
 */
export function subscribeToUserRows(table: LiveTable, userId: string, onChange: () => void): () => void {
  const supabase = getSupabase();
  const column = table === 'profiles' ? 'id' : 'user_id';
  const whileSignedIn = async () => {
    const { data } = await supabase.auth.getSession();
    if (data.session?.user.id === userId) onChange();
  };
  const channel: RealtimeChannel = supabase
    .channel(`account-${table}-${userId}-${Math.random().toString(36).slice(2, 10)}`)
    .on('postgres_changes', { event: '*', schema: 'public', table, filter: `${column}=eq.${userId}` }, () => void whileSignedIn())
    .subscribe();
  return () => {
    void supabase.removeChannel(channel);
  };
}

/** A saved card as the payment endpoints return it. */
export interface SavedCard {
  id: string;
  type: string;
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
  is_default: boolean;
}

async function authHeaders(): Promise<Record<string, string>> {
  const { data } = await getSupabase().auth.getSession();
  const token = data.session?.access_token;
  return token ? { Authorization: `Bearer ${token}` } : {};
}

function parseCards(value: unknown): SavedCard[] {
  if (!Array.isArray(value)) throw new Error('Respuesta inesperada del servidor.');
  return value.flatMap((item): SavedCard[] => {
    if (!item || typeof item !== 'object') return [];
    const row = item as Record<string, unknown>;
    const card = (row.card ?? {}) as Record<string, unknown>;
    if (typeof row.id !== 'string') return [];
    return [
      {
        id: row.id,
        type: typeof row.type === 'string' ? row.type : 'card',
        card: {
          brand: String(card.brand ?? ''),
          last4: String(card.last4 ?? ''),
          exp_month: Number(card.exp_month ?? 0),
          exp_year: Number(card.exp_year ?? 0),
        },
        is_default: row.is_default === true,
      },
    ];
  });
}

/** The saved cards of a Stripe customer. */
export async function listSavedCards(customerId: string): Promise<SavedCard[]> {
  const response = await fetch(`/api/stripe/payment-methods?customerId=${encodeURIComponent(customerId)}`, {
    headers: await authHeaders(),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return parseCards(await response.json());
}

/** Makes a saved card the customer's default. */
export async function setDefaultCard(customerId: string, pmId: string): Promise<void> {
  const response = await fetch(`/api/stripe/customers/${encodeURIComponent(customerId)}/default-payment-method`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(await authHeaders()) },
    body: JSON.stringify({ pmId }),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
}

/** Removes a saved card. */
export async function removeCard(pmId: string): Promise<void> {
  const response = await fetch(`/api/stripe/payment-methods/${encodeURIComponent(pmId)}/detach`, {
    method: 'POST',
    headers: await authHeaders(),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
}
