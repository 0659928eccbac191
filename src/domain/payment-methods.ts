/**
 * How an order was paid, in the words shoppers and the shop's staff read: 'Tarjeta', 'Meses sin
 * intereses', 'Efectivo en OXXO', 'PayPal', 'Saldo a favor'. The one place that turns an order's
 * payment_method, installments and payment_provider into text, so the Orders tab, the back office
 * and the receipt e-mail say the same thing. payment_provider ('stripe', 'simulated-card', …) is an
 * internal name: it only helps to tell a card from PayPal on orders that have no payment_method,
 * and it is never shown itself.
 */
import { installmentLabel } from './mexican-payments.ts';
import type { Centavos } from './money.ts';
import { ORDER_PAYMENT_TEXT, PAYMENT_METHOD_LABELS } from '../i18n/orders.ts';

/** The ways to pay an order (orders.payment_method). */
export type PaymentMethod = 'card' | 'oxxo' | 'paypal' | 'store_credit';

/** What an order records about its payment; any of them may be missing. */
export interface OrderPayment {
  /** orders.payment_method. */
  method?: string | null;
  /** orders.installments: the months of a 'meses sin intereses' plan; null for a single payment. */
  installments?: number | null;
  /** orders.payment_provider, only to tell a card from PayPal when method is missing. */
  provider?: string | null;
}

export interface PaymentLabelOptions {
  /** Append the plan's months to 'Meses sin intereses': 'Meses sin intereses (6 meses)'. */
  months?: boolean;
  /** The lower-case form for the middle of a sentence ('tarjeta', 'efectivo en OXXO'). */
  inSentence?: boolean;
}

/** The method a provider implies for orders that do not record one. */
const PROVIDER_METHOD: Readonly<Record<string, PaymentMethod>> = {
  stripe: 'card',
  'simulated-card': 'card',
  paypal: 'paypal',
  'simulated-paypal': 'paypal',
  // An order paid entirely from the shopper's balance records it as its provider too.
  store_credit: 'store_credit',
};

function isPaymentMethod(value: string): value is PaymentMethod {
  return value === 'card' || value === 'oxxo' || value === 'paypal' || value === 'store_credit';
}

/**
 * The method an order was paid with: its own, else the one its provider implies; null when
 * unknown. What the labels below, the refund ways the server offers and the receipt all start from.
 */
export function paidWith({ method, provider }: OrderPayment): PaymentMethod | null {
  if (method) return isPaymentMethod(method) ? method : null;
  return (provider && PROVIDER_METHOD[provider]) || null;
}

/**
 * How an order was paid: 'Tarjeta', 'Meses sin intereses' (a card with a plan of 2 or more
 * months), 'Efectivo en OXXO', 'PayPal', 'Saldo a favor'. Orders without payment_method fall back
 * on their provider (a card for Stripe and the simulated card, PayPal for both PayPals, the balance
 * for 'store_credit'). Null when the order says nothing the shop can name: never the provider's
 * own name, never a guess.
 */
export function paymentMethodLabel(payment: OrderPayment, options: PaymentLabelOptions = {}): string | null {
  const method = paidWith(payment);
  if (!method) return null;
  const form = options.inSentence ? 'inSentence' : 'label';
  const months = payment.installments;
  if (method === 'card' && typeof months === 'number' && Number.isInteger(months) && months > 1) {
    const text = PAYMENT_METHOD_LABELS.installments[form];
    return options.months ? ORDER_PAYMENT_TEXT.withMonths(text, months) : text;
  }
  return PAYMENT_METHOD_LABELS[method][form];
}

/** The note the database records when a payment is confirmed, with the provider's internal name. */
const PAYMENT_CONFIRMED_NOTE = /^Pago confirmado por \S+$/;

/**
 * An order event's note as shoppers and the back office read it. The payment's confirmation is
 * recorded as 'Pago confirmado por simulated-card' (the provider's internal name): it reads
 * 'Pago confirmado', and the order's 'Forma de pago' says how. Every other note stays as it is.
 */
export function orderEventNote(note: string | null): string | null {
  if (note === null) return null;
  return PAYMENT_CONFIRMED_NOTE.test(note.trim()) ? ORDER_PAYMENT_TEXT.confirmed : note;
}

/**
 * How an order was paid, for the confirmation and the Orders tab: '6 meses sin intereses de
 * $583.17', 'Efectivo en OXXO'; null for other payments (a card in one payment, PayPal).
 */
export function paymentMethodText(order: { totalCentavos: Centavos; payment_method?: string | null; installments?: number | null }): string | null {
  if (order.installments && order.installments > 1) return installmentLabel(order.totalCentavos, order.installments);
  if (paidWith({ method: order.payment_method }) === 'oxxo') return PAYMENT_METHOD_LABELS.oxxo.label;
  return null;
}
