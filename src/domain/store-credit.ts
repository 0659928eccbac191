/**
 * The shopper's balance in the shop ('saldo a favor'): what its ledger entries mean and the
 * messages that speak of it. Amounts are integer centavos.
 */
import { formatCentavos, type Centavos } from './money.ts';

/** Why the balance changed (store_credit_entries.reason). */
export type StoreCreditReason = 'oxxo_payment' | 'refund' | 'order_payment' | 'order_returned' | 'adjustment';

/** Each reason as the account's movements list names it. */
export const STORE_CREDIT_REASON_LABELS: Record<StoreCreditReason, string> = {
  oxxo_payment: 'Pago en OXXO abonado a tu saldo',
  refund: 'Reembolso a tu saldo',
  order_payment: 'Pago de pedido',
  order_returned: 'Saldo devuelto de un pedido',
  adjustment: 'Ajuste de la tienda',
};

/** A movement's reason as the account names it; a reason it does not know is a plain 'Movimiento'. */
export function storeCreditReasonLabel(reason: string): string {
  return Object.hasOwn(STORE_CREDIT_REASON_LABELS, reason) ? STORE_CREDIT_REASON_LABELS[reason as StoreCreditReason] : 'Movimiento';
}

/** 'Saldo a favor: $350.00' (the profile summary). */
export function storeCreditSummary(balance: Centavos): string {
  return `Saldo a favor: ${formatCentavos(balance)}`;
}

/** What the shopper reads when cash paid at OXXO could not go to its order. */
export function oxxoCreditedMessage(amount: Centavos): string {
  return `Recibimos tu pago en OXXO de ${formatCentavos(amount)}; lo abonamos a tu saldo a favor.`;
}

export const STORE_CREDIT_MESSAGES = {
  method: 'Saldo a favor',
  noCredit: 'No tienes saldo a favor.',
  insufficient: 'Tu saldo a favor no alcanza.',
  howReturned: 'Los pagos en efectivo en OXXO no se pueden devolver en efectivo: se abonan a tu saldo a favor o se devuelven por transferencia bancaria.',
} as const;
