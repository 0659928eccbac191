/**
 * The shopper's balance ('saldo a favor') as the account page reads it: the balance
 * (my_store_credit) and the latest movements of its ledger (store_credit_entries). Both are
 * read-only for the shopper: only the shop's database functions change them. Amounts are integer
 * centavos (bigint columns).
 */
import { centavos, type Centavos } from '~/domain/money.ts';
import { ACCOUNT_STORE_CREDIT_TEXT } from '~/i18n/account.ts';
import type { Tables } from './database.types.ts';
import type { DataResult } from './profiles.ts';
import { getSupabase } from './supabase.ts';

/** How many movements the account shows (the newest). */
export const STORE_CREDIT_MOVEMENTS_LIMIT = 20;

/** One change of the balance, as the account's movements list needs it. */
export interface StoreCreditMovement {
  id: number;
  createdAt: string;
  /** Why it changed: 'oxxo_payment', 'refund', 'order_payment', 'order_returned' or 'adjustment'. */
  reason: string;
  orderId: string | null;
  /** Positive: added to the balance; negative: spent. */
  amount: Centavos;
  balanceAfter: Centavos;
}

type EntryRow = Pick<Tables<'store_credit_entries'>, 'id' | 'amount' | 'balance_after' | 'reason' | 'order_id' | 'created_at'>;

const ENTRY_COLUMNS = 'id, amount, balance_after, reason, order_id, created_at';

/**
 * Centavos of a bigint column: a whole number (PostgREST may send a large bigint as a string);
 * null when it is not one.
 */
export function centavosOf(value: unknown): Centavos | null {
  const number = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? centavos(number) : null;
}

/** A ledger row as a movement; null when its amounts are not whole centavos. */
export function toMovement(row: EntryRow): StoreCreditMovement | null {
  const amount = centavosOf(row.amount);
  const balanceAfter = centavosOf(row.balance_after);
  if (amount === null || balanceAfter === null) return null;
  return { id: row.id, createdAt: row.created_at, reason: row.reason, orderId: row.order_id, amount, balanceAfter };
}

/** The signed-in shopper's balance in centavos (0 without an account). */
export async function getStoreCreditBalance(): Promise<DataResult<Centavos>> {
  const { data, error } = await getSupabase().rpc('my_store_credit');
  if (error) return { data: null, error };
  const balance = data === null ? centavos(0) : centavosOf(data);
  if (balance === null) return { data: null, error: new Error(ACCOUNT_STORE_CREDIT_TEXT.invalidBalance(String(data))) };
  return { data: balance, error: null };
}

/** The user's latest movements, newest first (at most STORE_CREDIT_MOVEMENTS_LIMIT). */
export async function listStoreCreditMovements(userId: string, limit: number = STORE_CREDIT_MOVEMENTS_LIMIT): Promise<DataResult<StoreCreditMovement[]>> {
  const { data, error } = await getSupabase()
    .from('store_credit_entries')
    .select(ENTRY_COLUMNS)
    .eq('user_id', userId)
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(limit);
  if (error) return { data: null, error };
  const movements: StoreCreditMovement[] = [];
  for (const row of data ?? []) {
    const movement = toMovement(row);
    if (movement) movements.push(movement);
    else console.warn('movimiento de saldo a favor no válido', row.id);
  }
  return { data: movements, error: null };
}
