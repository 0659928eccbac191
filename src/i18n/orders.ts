/** Orders: their statuses, how they were paid, refunds as the shopper reads them. */

/** What the shopper reads when a payment was given back instead of paying an order (src/domain/orders.ts, the settlement, the confirmation). */
export const REFUND_MESSAGES = {
  late_payment: 'Tu pedido expiró antes de completar el pago; te reembolsamos el cargo.',
  duplicate: 'Este pedido ya estaba pagado; te reembolsamos el cargo repetido.',
  mismatch: 'El cargo no coincide con el total del pedido; te lo reembolsamos.',
} as const;

/**
 * Each way to pay as a label (a list, a table cell) and inside a sentence ('Forma de pago: …'):
 * the Orders tab, the back office, the receipt e-mail (src/domain/payment-methods.ts).
 */
export const PAYMENT_METHOD_LABELS = {
  card: { label: 'Tarjeta', inSentence: 'tarjeta' },
  installments: { label: 'Meses sin intereses', inSentence: 'meses sin intereses' },
  oxxo: { label: 'Efectivo en OXXO', inSentence: 'efectivo en OXXO' },
  paypal: { label: 'PayPal', inSentence: 'PayPal' },
  store_credit: { label: 'Saldo a favor', inSentence: 'saldo a favor' },
} as const;

/** How an order was paid, beyond the method's name (src/domain/payment-methods.ts). */
export const ORDER_PAYMENT_TEXT = {
  /** 'Meses sin intereses (6 meses)'. */
  withMonths: (method: string, months: number) => `${method} (${months} meses)`,
  /** An order event's note once the payment was confirmed, whichever provider confirmed it. */
  confirmed: 'Pago confirmado',
} as const;

/** Why the shopper's balance changed, as the account's movements list names it (src/domain/store-credit.ts). */
export const STORE_CREDIT_REASON_LABELS = {
  oxxo_payment: 'Pago en OXXO abonado a tu saldo',
  refund: 'Reembolso a tu saldo',
  order_payment: 'Pago de pedido',
  order_returned: 'Saldo devuelto de un pedido',
  adjustment: 'Ajuste de la tienda',
  buylist_sale: 'Venta de cartas a la tienda',
  points: 'Canje de puntos',
} as const;

/** The shopper's balance ('saldo a favor'): paying with it, and how OXXO payments come back to it (src/domain/store-credit.ts). */
export const STORE_CREDIT_MESSAGES = {
  method: 'Saldo a favor',
  noCredit: 'No tienes saldo a favor.',
  insufficient: 'Tu saldo a favor no alcanza.',
  howReturned: 'Los pagos en efectivo en OXXO no se pueden devolver en efectivo: se abonan a tu saldo a favor o se devuelven por transferencia bancaria.',
} as const;

/** The balance's sentences built from amounts, and a movement of unknown reason (src/domain/store-credit.ts). */
export const ORDER_STORE_CREDIT_TEXT = {
  /** A reason the account does not know. */
  otherReason: 'Movimiento',
  /** 'Saldo a favor: $350.00' (the profile summary). */
  summary: (balance: string) => `Saldo a favor: ${balance}`,
  /** When cash paid at OXXO could not go to its order. */
  oxxoCredited: (amount: string) => `Recibimos tu pago en OXXO de ${amount}; lo abonamos a tu saldo a favor.`,
} as const;
