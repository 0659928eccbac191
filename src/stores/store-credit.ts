/**
 * The shopper's balance ('saldo a favor') on the account page: the balance and its latest
 * movements, read together so the summary and the list never disagree. The profile panel calls
 * `startStoreCredit` when it opens and `reloadStoreCredit` when a ledger entry of the user arrives
 * live. `movementLine` is what the list shows of one movement.
 */
import { atom } from 'nanostores';
import { getStoreCreditBalance, listStoreCreditMovements, type StoreCreditMovement } from '~/data/store-credit.ts';
import { centavos, formatCentavos, type Centavos } from '~/domain/money.ts';
import { formatOrderDate, orderDisplayId } from '~/domain/orders.ts';
import { storeCreditReasonLabel } from '~/domain/store-credit.ts';
import type { Loadable } from './account.ts';

export type { StoreCreditMovement } from '~/data/store-credit.ts';

/** The balance and its newest movements (newest first). */
export interface StoreCredit {
  balance: Centavos;
  movements: StoreCreditMovement[];
}

export const $storeCredit = atom<Loadable<StoreCredit>>({ loading: true, failed: false, value: null });

// Each read is numbered: when reads overlap (two live changes in a row), only the latest one
// may write, so an older answer never replaces a newer one.
let latestRead = 0;

/** Reads the balance and the movements again; a failure keeps what was shown and marks it failed. */
export async function reloadStoreCredit(userId: string): Promise<void> {
  const read = ++latestRead;
  let failure: unknown = null;
  let value: StoreCredit | null = null;
  try {
    const [balance, movements] = await Promise.all([getStoreCreditBalance(), listStoreCreditMovements(userId)]);
    if (balance.error) failure = balance.error;
    else if (movements.error) failure = movements.error;
    else value = { balance: balance.data, movements: movements.data };
  } catch (error) {
    failure = error;
  }
  if (read !== latestRead) return;
  if (value === null) {
    console.error('No se pudo cargar el saldo a favor', failure);
    $storeCredit.set({ ...$storeCredit.get(), loading: false, failed: true });
    return;
  }
  $storeCredit.set({ loading: false, failed: false, value });
}

/** Opens the balance from scratch (the loading state, then the read). */
export function startStoreCredit(userId: string): void {
  $storeCredit.set({ loading: true, failed: false, value: null });
  void reloadStoreCredit(userId);
}

/** '+$350.00' for a credit, '−$120.00' (a true minus sign) for a debit. */
export function signedAmount(amount: Centavos): string {
  return amount < 0 ? `\u2212${formatCentavos(centavos(-amount))}` : `+${formatCentavos(amount)}`;
}

/** One movement as the list shows it. */
export interface MovementLine {
  id: number;
  /** es-MX short date, Mexico City time ('25/11/26'). */
  date: string;
  /** The ISO timestamp, for <time dateTime>. */
  dateTime: string;
  label: string;
  /** '#A1B2C3', or null when the movement has no order. */
  order: string | null;
  amount: string;
  /** 'credit' (adds to the balance) or 'debit'. */
  direction: 'credit' | 'debit';
  balanceAfter: string;
}

export function movementLine(movement: StoreCreditMovement): MovementLine {
  return {
    id: movement.id,
    date: formatOrderDate(movement.createdAt),
    dateTime: movement.createdAt,
    label: storeCreditReasonLabel(movement.reason),
    order: movement.orderId ? orderDisplayId(movement.orderId) : null,
    amount: signedAmount(movement.amount),
    direction: movement.amount < 0 ? 'debit' : 'credit',
    balanceAfter: formatCentavos(movement.balanceAfter),
  };
}
