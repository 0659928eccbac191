/** Checkout: its steps, shipping, payment (card, wallets, PayPal, OXXO, balance), confirmation. */

/**
 * How create_order's refusal of an offer that is gone begins ('La opción elegida de «…» no
 * existe.', supabase/migrations/20261126000300_order_items_offers.sql): the database writes it,
 * the checkout recognises it to say it its own way (CHECKOUT_MESSAGES.offerGone).
 */
export const CHECKOUT_OFFER_GONE_REFUSAL = 'La opción elegida';

/** The checkout's answers wherever they show: creating the order, paying, loading it (src/data/checkout.ts, the steps). */
export const CHECKOUT_MESSAGES = {
  createOrder: 'Error al crear el pedido.',
  saveItems: 'Error al guardar los productos del pedido.',
  createProblem: 'Ocurrió un problema al crear tu pedido.',
  signIn: 'Debes iniciar sesión para finalizar tu compra.',
  stripeNotReady: 'Stripe no está listo aún.',
  noClientSecret: 'No se recibió clientSecret.',
  paymentFailed: 'Error al procesar el pago.',
  paymentError: 'Hubo un error al procesar el pago.',
  paypalError: 'Hubo un error con PayPal.',
  paypalNotConfigured: 'PayPal no está configurado.',
  cardUnavailable: 'El pago con tarjeta no está disponible.',
  walletUnavailable: 'Google Pay o Apple Pay no están disponibles en este dispositivo.',
  loadingConfirmation: 'Cargando confirmación...',
  emptyCart: 'Tu carrito está vacío.',
  offerGone: 'Una de las cartas elegidas ya no está a la venta.',
} as const;

/**
 * The two Mexican ways to pay, OXXO and 'meses sin intereses', wherever they are named: the
 * checkout, the account's orders and the payment endpoints (src/domain/mexican-payments.ts).
 */
export const MEXICAN_PAYMENT_MESSAGES = {
  oxxoTab: 'Efectivo en OXXO',
  /** The limits are OXXO_MIN_CENTAVOS and OXXO_MAX_CENTAVOS (src/domain/mexican-payments.ts). */
  oxxoOutOfRange: 'El pago en efectivo en OXXO solo está disponible para pedidos de $10.00 a $10,000.00.',
  oxxoPending: 'Pago pendiente en OXXO',
  cashPayment: 'Pago de contado',
  invalidPlan: 'Ese plan de meses sin intereses no está disponible para tu tarjeta.',
  voucherOpen: 'Tienes una ficha de OXXO pendiente para este pedido',
  anotherVoucherOpen: 'Ya tienes una ficha de OXXO pendiente en otro pedido. Págala o cancélala antes de generar otra.',
} as const;

/** A plan's label and an OXXO voucher's deadline, built from their values (src/domain/mexican-payments.ts). */
export const CHECKOUT_MEXICAN_PAYMENT_TEXT = {
  /** '6 meses sin intereses de $583.17'. */
  installment: (months: number, monthly: string) => `${months} meses sin intereses de ${monthly}`,
  /** '27 de noviembre de 2026 a las 23:59'. */
  voucherExpiry: (date: string, time: string) => `${date} a las ${time}`,
  /** 'Paga en cualquier tienda OXXO antes del 27 de noviembre de 2026 a las 23:59.' */
  oxxoDeadline: (expiry: string) => `Paga en cualquier tienda OXXO antes del ${expiry}.`,
} as const;

/** The checkout's progress bar (src/islands/checkout/Stepper.tsx). */
export const CHECKOUT_STEPPER_TEXT = {
  steps: ['Resumen', 'Envío', 'Pago', 'Confirmación'],
  label: 'Progreso de la compra',
  /** After a completed step's name, for screen readers. */
  completed: ' (completado)',
  /** 'Paso n de 4'. */
  step: (current: number, total: number) => `Paso ${current} de ${total}`,
} as const;

/** The checkout's frame: its heading and the order beside the shipping and payment steps (src/islands/checkout/CheckoutApp.tsx). */
export const CHECKOUT_APP_TEXT = {
  cartTitle: 'Tu carrito',
  title: 'Finalizar compra',
  asideTitle: 'Tu pedido',
  /** '1 producto', '3 productos'. */
  items: (count: number) => (count === 1 ? '1 producto' : `${count} productos`),
  saveAddressFailed: 'No se pudo guardar la dirección en tu pedido. Intenta de nuevo.',
} as const;

/** The notice when the cart changed while its order waits for an OXXO voucher (src/islands/checkout/CheckoutApp.tsx). */
export const CHECKOUT_VOUCHER_NOTICE_TEXT = {
  /** After 'Tienes una ficha de OXXO pendiente para este pedido': the order's number, the voucher's amount when known. */
  cartChanged: (order: string, amount: string | null) =>
    ` (${order}${amount === null ? '' : `, ${amount}`}). Tu carrito cambió: conserva la ficha y págala, o cancélala para crear un pedido nuevo.`,
  deadlinePassed: 'La fecha límite de la ficha ya pasó: esperamos la confirmación de OXXO antes de liberar tu pedido.',
  keep: 'Conservar la ficha',
  cancel: 'Cancelar la ficha y crear un pedido nuevo',
} as const;

/** The steps after the summary when the order cannot be shown or paid (src/islands/checkout/CheckoutApp.tsx). */
export const CHECKOUT_ORDER_STEP_TEXT = {
  signIn: 'Iniciar sesión',
  noAccess: 'No tienes acceso a este pedido.',
  backToCart: 'Volver al carrito',
  oxxoCancelled: 'Este pedido se canceló: su ficha de pago de OXXO venció sin pago. Si la pagaste a tiempo, abonaremos ese pago a tu saldo a favor.',
  cancelled: 'Este pedido fue cancelado o su reserva de 30 minutos expiró.',
  expired: 'La reserva de este pedido expiró. Vuelve al carrito para crear uno nuevo.',
} as const;

/** Step 2, the shipping address (src/islands/checkout/ShippingStep.tsx). */
export const CHECKOUT_SHIPPING_TEXT = {
  title: 'Dirección de envío',
  saveFailed: 'No se pudo guardar la dirección.',
  loadFailed: 'No se pudieron cargar tus direcciones.',
  loading: 'Cargando tus direcciones…',
  use: 'Usar esta dirección',
  add: 'Agregar nueva dirección',
  formTitle: 'Nueva dirección',
  save: 'Guardar dirección',
  street: 'Calle y número',
  labelPlaceholder: 'Casa, Oficina…',
  saved: 'Tus direcciones guardadas',
  default: 'Predeterminada',
} as const;

/** Step 3, the payment: its tabs, the order summary and the test-mode note (src/islands/checkout/PaymentStep.tsx). */
export const CHECKOUT_PAYMENT_TEXT = {
  tabs: {
    card: 'Tarjeta',
    gpay: 'Google / Apple Pay',
    paypal: 'PayPal',
    oxxo: 'Efectivo en OXXO',
    credit: 'Saldo a favor',
  },
  loading: 'Cargando el método de pago…',
  title: 'Confirmar tu pago',
  testMode: 'Modo de prueba: no se realizará ningún cargo real. Usa la tarjeta 4242 4242 4242 4242 con cualquier fecha futura y CVC.',
  /** Before the order's total. */
  summary: 'Resumen del pedido · Total',
  /** 'Saldo a favor aplicado: −$100.00 · Resta por pagar', before the amount still due. */
  creditApplied: (credit: string) => `Saldo a favor aplicado: −${credit} · Resta por pagar`,
  tabsLabel: 'Método de pago',
  cardBrands: 'Tarjetas aceptadas',
} as const;

/** 'Meses sin intereses': the plans a card's issuer offers (src/islands/checkout/InstallmentPicker.tsx). */
export const CHECKOUT_INSTALLMENTS_TEXT = {
  legend: 'Meses sin intereses',
} as const;

/** The card forms: the simulated one and Stripe's (src/islands/checkout/SimulatedCard.tsx, StripePayments.tsx). */
export const CHECKOUT_CARD_TEXT = {
  form: 'Pago con tarjeta',
  number: 'Número de tarjeta',
  cardData: 'Datos de la tarjeta',
  expiry: 'Vencimiento (MM/AA)',
  expiryPlaceholder: 'MM/AA',
  badExpiry: 'La fecha de vencimiento no es válida.',
  save: 'Guardar tarjeta',
  processingStatus: 'Procesando el pago…',
  paid: 'Pago realizado.',
  processing: 'Procesando…',
  /** 'Pagar $1,234.50'. */
  pay: (amount: string) => `Pagar ${amount}`,
} as const;

/** The simulated 3D Secure step of the card form (src/islands/checkout/SimulatedCard.tsx). */
export const CHECKOUT_CARD_AUTH_TEXT = {
  title: 'Confirma tu pago',
  body: (amount: string) => `Tu banco pide confirmar este pago de ${amount} (autenticación 3D Secure simulada).`,
  confirm: 'Confirmar pago',
  cancel: 'Cancelar',
} as const;

/** Google Pay / Apple Pay through Stripe (src/islands/checkout/StripePayments.tsx). */
export const CHECKOUT_WALLET_TEXT = {
  /** The payment sheet's line for the amount. */
  total: 'Total',
  searching: 'Buscando Google Pay o Apple Pay…',
  pay: (amount: string) => `Pagar ${amount} con Google Pay / Apple Pay`,
} as const;

/** PayPal in test mode: its button and approval window (src/islands/checkout/SimulatedPayPal.tsx). */
export const CHECKOUT_PAYPAL_TEXT = {
  pay: 'Pagar con PayPal',
  title: 'PayPal (simulado)',
  /** Before the amount. */
  approve: 'Aprueba el pago de',
  /** After the amount: 'a MekaCat.' */
  to: (shop: string) => `a ${shop}.`,
  order: (id: string) => `Pedido de PayPal ${id}`,
  approveButton: 'Aprobar pago',
  cancel: 'Cancelar',
} as const;

/** The 'Efectivo en OXXO' tab and its voucher (src/islands/checkout/OxxoPayment.tsx). */
export const CHECKOUT_OXXO_TEXT = {
  intro: (amount: string) =>
    `Genera tu ficha y paga ${amount} en efectivo en cualquier tienda OXXO. Tu pedido queda reservado hasta la fecha límite de la ficha y se confirma cuando OXXO nos avisa de tu pago.`,
  generating: 'Generando ficha…',
  generate: 'Generar ficha de pago OXXO',
  title: 'Tu ficha de pago OXXO',
  amount: 'Monto a pagar',
  reference: 'Referencia',
  deadline: 'Fecha límite',
  howTo: 'Dicta o muestra la referencia en caja. OXXO cobra una comisión por el servicio. Te enviamos esta ficha por correo.',
  print: 'Ver e imprimir la ficha de pago',
  newTab: ' (se abre en otra pestaña)',
  simulate: 'Simular pago en OXXO',
} as const;

/** The 'Saldo a favor' tab: paying all or part of the order with the balance (src/islands/checkout/StoreCreditPayment.tsx). */
export const CHECKOUT_BALANCE_TEXT = {
  /** 'Usaste <amount> de tu saldo a favor. Resta por pagar <due> con otro método de pago.' */
  used: 'Usaste',
  usedAfter: 'de tu saldo a favor. Resta por pagar',
  dueAfter: 'con otro método de pago.',
  remove: 'Quitar saldo a favor',
  loading: 'Consultando tu saldo a favor…',
  /** 'Tienes $350.00 de saldo a favor. <voucher open>: págala o cancélala para usar tu saldo.' */
  voucherOpen: (balance: string, voucher: string) => `Tienes ${balance} de saldo a favor. ${voucher}: págala o cancélala para usar tu saldo.`,
  /** 'Tienes <amount> de saldo a favor.' */
  have: 'Tienes',
  haveAfter: 'de saldo a favor.',
  whole: ' Alcanza para pagar todo tu pedido.',
  part: ' Úsalo y paga el resto con otro método.',
  processing: 'Procesando…',
  payAll: (amount: string) => `Pagar ${amount} con saldo a favor`,
  spendPart: (amount: string) => `Usar ${amount} de saldo a favor`,
} as const;

/** Step 4, the confirmation (src/islands/checkout/ConfirmationStep.tsx). */
export const CHECKOUT_CONFIRMATION_TEXT = {
  refunded: 'Pedido reembolsado',
  thanks: 'Gracias por tu compra',
  mailNote: 'Te enviaremos un correo electrónico con los detalles de tu compra.',
  details: 'Detalles del pedido',
  order: 'Pedido',
  date: 'Fecha',
  status: 'Estado',
  paidWith: 'Forma de pago',
  address: 'Dirección de envío',
  /** After the city and state: ', C.P. 01234'. */
  noAddress: 'No has registrado dirección.',
  products: 'Productos',
  continueShopping: 'Seguir comprando',
} as const;

/** An order's stored amounts (src/islands/checkout/OrderAmounts.tsx). */
export const CHECKOUT_AMOUNTS_TEXT = {
  subtotal: 'Subtotal',
  /** 'Descuento', or 'Descuento (MEKACAT10)' with the coupon. */
  discount: (coupon: string | null) => (coupon ? `Descuento (${coupon})` : 'Descuento'),
  shipping: 'Envío',
  free: 'Gratis',
  total: 'Total',
} as const;

/** The checkout's pages: the cart summary and an order's page (src/pages/checkout/). */
export const CHECKOUT_PAGE_TEXT = {
  summaryTitle: 'Tu carrito',
  summaryDescription: 'Revisa los productos de tu carrito y finaliza tu compra.',
  orderTitle: 'Finalizar compra',
  orderDescription: 'Envío, pago y confirmación de tu pedido.',
  notFound: 'Pedido no encontrado',
  notFoundBody: 'La dirección no corresponde a ningún pedido.',
  backToCart: 'Volver al carrito',
} as const;
