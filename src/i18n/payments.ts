/**
 * What the payment endpoints and providers (real and simulated), the webhooks, refunds and OXXO
 * answer. Objects whose name says OPERATOR hold texts for whoever runs the shop (configuration
 * errors, log lines, internal failures), not for the shopper.
 */

/** The order a payment is for (src/server/orders/order.ts; also the balance and settlement). */
export const PAYMENTS_ORDER_TEXT = {
  notFound: 'Pedido no encontrado.',
  notYours: 'Este pedido no es tuyo.',
  notPayable: 'Este pedido ya no se puede pagar: la reserva expiró o fue cancelado.',
  alreadyPaid: 'Este pedido ya está pagado.',
  addressRequired: 'Selecciona una dirección válida.',
} as const;

/** An order's line whose product is gone (src/server/orders/order-row.ts: receipts and e-mails). */
export const PAYMENTS_ORDER_ROW_TEXT = {
  productGone: 'Producto no disponible',
} as const;

/** Internal failures of settlement, for the server log (src/server/orders/settlement.ts). */
export const PAYMENTS_SETTLEMENT_OPERATOR_TEXT = {
  noAmount: (ref: string) => `pago ${ref} sin monto; no se puede reembolsar`,
} as const;

/** The shop's refund of an order, as the back office reads its refusals (src/server/orders/refunds.ts). */
export const PAYMENTS_REFUND_TEXT = {
  alreadyRefunded: 'Este pedido ya se reembolsó.',
  oxxoProviderRefused: 'Un pago en efectivo en OXXO no se puede reembolsar por el proveedor: abónalo al saldo a favor o registra una transferencia bancaria.',
  notRefundable: (status: string) => `Solo se reembolsa un pedido pagado, en proceso, enviado o completado; este está «${status}».`,
  paidWithBalance: 'Este pedido se pagó con saldo a favor: se reembolsa al saldo a favor.',
  wayNotPossible: 'Este pedido se reembolsa por el proveedor que tomó el pago o al saldo a favor.',
  noPayment: 'El pedido no tiene un pago registrado que reembolsar.',
} as const;

/** Why a provider refund failed and what follows, for the server log and the refund's record (src/server/orders/refunds.ts). */
export const PAYMENTS_REFUND_OPERATOR_TEXT = {
  oxxoNotRefundable: 'los pagos en efectivo en OXXO no se pueden reembolsar por el proveedor',
  providerUnavailable: (provider: string) => `el proveedor ${provider} no está disponible en este servidor`,
  manual: 'requiere atención manual',
  retried: 'se reintentará',
} as const;

/** The balance's history line of OXXO cash its order could not take, by reason (src/server/orders/refunds.ts). */
export const PAYMENTS_OXXO_CREDIT_NOTES = {
  late_payment: 'Pago en OXXO recibido cuando el pedido ya no estaba reservado',
  duplicate: 'Segundo pago en OXXO de un pedido ya pagado',
  mismatch: 'Pago en OXXO que no coincide con el total del pedido',
  shop: 'Pago en OXXO reembolsado por la tienda',
} as const;

/** Why the sweeper could not close a payment attempt, recorded on it (src/server/sweeper.ts). */
export const PAYMENTS_SWEEPER_OPERATOR_TEXT = {
  stillProcessing: 'sigue en proceso en el proveedor',
} as const;

/** A payment request's ids and providers (src/server/payments/guards.ts). */
export const PAYMENTS_GUARD_TEXT = {
  orderIdMissing: 'Falta el pedido (orderId).',
  orderIdInvalid: 'El pedido (orderId) no es válido.',
  idInvalid: 'Identificador no válido.',
  namedIdInvalid: (what: string) => `${what} no es válido.`,
  cardUnavailable: 'El pago con tarjeta no está disponible.',
  paypalNotConfigured: 'PayPal no está configurado.',
  notFound: 'No encontrado.',
} as const;

/** The card endpoints: customer, saved cards, the payment intent (src/server/payments/cards.ts; also installments and OXXO). */
export const PAYMENTS_CARD_TEXT = {
  customerIdField: 'El cliente (customerId)',
  customerField: 'El cliente',
  paymentMethodField: 'El método de pago',
  pmIdMissing: 'Falta el método de pago (pmId).',
  cardNotYours: 'Ese método de pago no es tuyo.',
  amountNotInteger: 'El monto (amount) debe ser un número entero de centavos.',
  methodInvalid: 'El método de pago no es válido.',
  amountMismatch: 'El monto no coincide con el total del pedido.',
  noClientSecret: 'No se recibió clientSecret.',
  intentNotFound: 'Pago no encontrado para este pedido.',
  incomplete: 'El pago no se ha completado.',
} as const;

/** Meses sin intereses: the confirmation failed (src/server/payments/installments.ts). */
export const PAYMENTS_INSTALLMENTS_TEXT = {
  failed: 'Error al procesar el pago.',
} as const;

/** The caller's customer and saved cards at the card provider (src/server/payments/customers.ts). */
export const PAYMENTS_CUSTOMER_TEXT = {
  customerNotYours: 'Ese cliente de pagos no es tuyo.',
  paymentMethodNotFound: 'Método de pago no encontrado.',
} as const;

/** OXXO vouchers: creating, cancelling, reading one (src/server/payments/oxxo.ts). */
export const PAYMENTS_OXXO_TEXT = {
  /** The name printed on the voucher when the shopper has none. */
  customerFallback: 'Cliente',
  voucherMissing: 'No se recibió la ficha de pago de OXXO.',
  notPending: 'Este pedido ya no tiene una ficha pendiente.',
  alreadyPaid: 'Tu pago en OXXO ya se registró; tu pedido está pagado.',
  processing: 'Tu pago en OXXO se está procesando; la ficha ya no se puede cancelar.',
  noVoucher: 'Este pedido no tiene ficha de pago de OXXO.',
} as const;

/** PayPal: the endpoints and the provider (src/server/payments/paypal.ts, providers/paypal.ts, providers/simulated-paypal.ts). */
export const PAYMENTS_PAYPAL_TEXT = {
  orderNotFound: 'Pedido de PayPal no encontrado.',
  error: 'Hubo un error con PayPal.',
  notApproved: 'El pago de PayPal no fue aprobado.',
  webhookNotConfigured: 'Los webhooks de PayPal no están configurados (falta PAYPAL_WEBHOOK_ID).',
  invalidSignature: 'La firma del webhook no es válida.',
} as const;

/** The simulated PayPal's own refusals (src/server/payments/providers/simulated-paypal.ts). */
export const PAYMENTS_SIMULATED_PAYPAL_TEXT = {
  captureNotFound: 'Captura no encontrada.',
  notFound: 'No encontrado.',
} as const;

/** 'Usar saldo a favor' at the payment step (src/server/payments/pay-with-balance.ts). */
export const PAYMENTS_BALANCE_TEXT = {
  paymentInProgress: 'Hay un pago en curso para este pedido; espera a que termine para liberar tu saldo a favor.',
  oxxoVoucherOpen: 'Tienes una ficha de OXXO pendiente para este pedido. Págala o cancélala para usar tu saldo a favor.',
  useMissing: 'Indica si usas tu saldo (use).',
} as const;

/** An unexpected failure of the balance's database functions, for the server log (src/server/payments/pay-with-balance.ts). */
export const PAYMENTS_BALANCE_OPERATOR_TEXT = {
  failed: (message: string) => `saldo a favor: ${message}`,
} as const;

/** The back office's notes on a chargeback (src/server/payments/chargebacks.ts and the two webhooks). */
export const PAYMENTS_CHARGEBACK_TEXT = {
  balanceHeld: (note: string, amount: string) => `${note} El saldo a favor de ${amount} usado en el pedido queda retenido hasta que decidas si se devuelve.`,
  stripeDispute: (disputeId: string, intentId: string) => `Contracargo en Stripe (${disputeId}) del pago ${intentId}.`,
  paypalReversal: (captureId: string, reversalId: string) => `PayPal revirtió el cargo ${captureId} (contracargo ${reversalId}).`,
} as const;

/** Stripe's webhook (src/server/payments/stripe-webhook.ts). */
export const PAYMENTS_STRIPE_WEBHOOK_TEXT = {
  intentNotFound: 'Pago no encontrado o no completado.',
} as const;

/** What the PayPal webhook answers about a notification it could not apply (src/server/payments/paypal-webhook.ts). */
export const PAYMENTS_PAYPAL_WEBHOOK_TEXT = {
  noCapture: 'La notificación no indica la captura ni su pedido de PayPal.',
  captureNotInOrder: (captureId: string, paypalOrderId: string) => `PayPal no tiene la captura ${captureId} en el pedido ${paypalOrderId}.`,
  notThisShop: (paypalOrderId: string) => `El pedido de PayPal ${paypalOrderId} no es de esta tienda.`,
  captureStatus: (captureId: string, status: string | null | undefined) => `La captura ${captureId} está ${status ?? 'sin estado'} en PayPal.`,
  noRefund: 'La notificación no indica el reembolso.',
  refundNotCompleted: (refundId: string, status: string | null | undefined) =>
    `El reembolso ${refundId} no está completado en PayPal (${status ?? 'desconocido'}).`,
  noOrderForCapture: (captureId: string) => `Ningún pedido se pagó con la captura ${captureId}.`,
  orderStatus: (status: string) => `El pedido está «${status}».`,
  partialRefund: 'Reembolso parcial: el pedido no cambia.',
} as const;

/** Why a PayPal notification was refused before asking PayPal, for the server log (src/server/payments/paypal-webhook.ts). */
export const PAYMENTS_PAYPAL_WEBHOOK_OPERATOR_TEXT = {
  missingHeader: (name: string) => `falta ${name}`,
  badAlgorithm: 'paypal-auth-algo no válido',
  foreignCertificate: 'el certificado no es de PayPal',
  outOfTime: 'transmisión fuera de tiempo',
  notJson: 'el cuerpo no es JSON',
  noEventType: 'sin event_type',
} as const;

/** The payment mode, for the operator: the startup error and the log line (src/server/payments/providers/index.ts). */
export const PAYMENTS_MODE_OPERATOR_TEXT = {
  invalidMode: (value: string | undefined) => `PAYMENTS_MODE debe ser 'live' o 'simulated' (se recibió '${value}').`,
  simulated: 'pagos: modo simulated (proveedor simulado para tarjeta y PayPal; no se mueve dinero)',
  providerActive: (name: string) => `${name} activo`,
  providerMissing: (name: string, missing: string) => `${name} NO disponible (falta ${missing})`,
  noPayPalWebhook: ' sin webhook (falta PAYPAL_WEBHOOK_ID)',
  live: (stripe: string, paypal: string, webhook: string) => `pagos: modo live; ${stripe}; ${paypal}${webhook}`,
} as const;

/** Stripe's refusals (src/server/payments/providers/stripe.ts). */
export const PAYMENTS_STRIPE_TEXT = {
  declined: 'Tu tarjeta fue rechazada.',
  webhookNotConfigured: 'Webhook no configurado.',
  signatureMissing: 'Falta la firma del webhook.',
  invalidSignature: 'La firma del webhook no es válida.',
} as const;

/** The simulated card provider's refusals (src/server/payments/providers/simulated-card.ts). */
export const PAYMENTS_SIMULATED_CARD_TEXT = {
  voucherNotFound: 'Ficha de pago no encontrada.',
  voucherExpired: 'Esta ficha de pago ya venció.',
  voucherNotPayable: 'Esta ficha de pago ya no se puede pagar.',
  voucherLapsed: 'La ficha de pago venció.',
  oxxoNotRefundable: 'Los pagos en efectivo en OXXO no se pueden reembolsar.',
  webhookNotConfigured: 'Webhook no configurado.',
  notYours: 'El pago no existe o no es tuyo.',
  notConfirmable: 'Este pago ya no se puede confirmar.',
  noAuthentication: 'Este pago no espera una autenticación.',
  canceled: 'Este pago se canceló porque tu pedido ya no se puede pagar; no se te hizo ningún cargo.',
} as const;

/** The simulated providers' charges and refunds (src/server/payments/providers/simulated-records.ts). */
export const PAYMENTS_SIMULATED_RECORDS_TEXT = {
  chargeNotFound: 'Cargo no encontrado.',
  refundMismatch: 'El reembolso no coincide con el cargo.',
  notCaptured: 'Este cargo no se completó; no hay nada que reembolsar.',
} as const;

/** The simulated records' unexpected database answers, for the server log (src/server/payments/providers/simulated-records.ts). */
export const PAYMENTS_SIMULATED_RECORDS_OPERATOR_TEXT = {
  unexpected: (fn: string, detail: string | undefined) => `${fn}: respuesta inesperada (${detail ?? 'sin detalle'})`,
  unexpectedList: 'simulated_payments_list: respuesta inesperada',
} as const;

/** The simulated card's checks and Stripe's test cards' outcomes (src/server/payments/providers/test-cards.ts; the simulated card form). */
export const PAYMENTS_TEST_CARD_MESSAGES = {
  number: 'El número de tarjeta no es válido.',
  expiry: 'La fecha de vencimiento no es válida.',
  expired: 'La tarjeta está vencida.',
  cvc: 'El código de seguridad (CVC) no es válido.',
  declined: 'Tu tarjeta fue rechazada.',
  insufficientFunds: 'Tu tarjeta no tiene fondos suficientes.',
  notTestCard: 'Tu tarjeta fue rechazada: en modo de prueba usa una tarjeta de prueba, por ejemplo 4242 4242 4242 4242.',
  authenticationFailed: 'No se pudo autenticar tu tarjeta. Intenta con otro método de pago.',
} as const;

/** The simulated card form's request (src/server/payments/simulated.ts). */
export const PAYMENTS_SIMULATED_TEXT = {
  secretMissing: 'Falta clientSecret.',
} as const;

/**
 * The simulated OXXO voucher page the voucher e-mail links to (src/server/payments/simulated.ts).
 * Values come in already escaped for HTML.
 */
export const PAYMENTS_SIMULATED_OXXO_PAGE_TEXT = {
  notFoundTitle: 'Ficha no encontrada',
  notFoundHeading: 'Ficha de pago no encontrada',
  invalidLink: 'El enlace no es válido.',
  paidTitle: 'Pago registrado',
  paid: (number: string, status: string) => `Tu pedido ${number} está ${status}.`,
  notRecordedTitle: 'Pago no registrado',
  notRecorded: 'No se pudo registrar el pago.',
  viewOrder: 'Ver tu pedido',
  voucherTitle: 'Ficha de pago OXXO',
  testMode: 'Modo de prueba: no se realizará ningún cargo real.',
  order: (number: string) => `Pedido ${number}`,
  amountDue: 'Monto a pagar:',
  reference: 'Referencia',
  pay: 'Simular pago en OXXO',
  noLongerPending: 'Esta ficha ya no está pendiente de pago',
  orderStatus: (status: string) => ` (pedido ${status})`,
} as const;
