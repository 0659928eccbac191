/**
 * The shopper's balance in the shop ('saldo a favor'): what its ledger entries mean and the
 * messages that speak of it. Amounts are integer centavos.
 */
import { formatCentavos, type Centavos } from './money.ts';
import { ORDER_STORE_CREDIT_TEXT, STORE_CREDIT_REASON_LABELS } from '../i18n/orders.ts';

/** Why the balance changed (store_credit_entries.reason). */
export type StoreCreditReason = 'oxxo_payment' | 'refund' | 'order_payment' | 'order_returned' | 'adjustment' | 'buylist_sale' | 'points';

/** Each reason as the account's movements list names it (STORE_CREDIT_REASON_LABELS in src/i18n/orders.ts). */
const REASON_LABELS: Readonly<Record<StoreCreditReason, string>> = STORE_CREDIT_REASON_LABELS;

/** A movement's reason as the account names it; a reason it does not know is a plain 'Movimiento'. */
export function storeCreditReasonLabel(reason: string): string {
  return Object.hasOwn(REASON_LABELS, reason) ? REASON_LABELS[reason as StoreCreditReason] : ORDER_STORE_CREDIT_TEXT.otherReason;
}

/** 'Saldo a favor: $350.00' (the profile summary). */
export function storeCreditSummary(balance: Centavos): string {
  return ORDER_STORE_CREDIT_TEXT.summary(formatCentavos(balance));
}

/** What the shopper reads when cash paid at OXXO could not go to its order. */
export function oxxoCreditedMessage(amount: Centavos): string {
  return ORDER_STORE_CREDIT_TEXT.oxxoCredited(formatCentavos(amount));
}
