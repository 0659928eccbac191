/** The e-mails the shop sends. */

/**
 * The confirmation e-mail of a paid order (src/server/mail/templates/receipt.ts). `number` is the
 * order's number as shown ('#28950E'); the HTML passes it already wrapped in <strong>.
 */
export const MAIL_RECEIPT_TEXT = {
  subject: (number: string) => `Confirmación de tu pedido ${number}`,
  heading: 'Gracias por tu compra',
  thanks: 'Gracias por tu compra.',
  paid: (number: string) => `Tu pedido ${number} está pagado.`,
  subtotal: (amount: string) => `Subtotal: ${amount}`,
  discount: (amount: string) => `Descuento: ${amount}`,
  shipping: (amount: string) => `Envío: ${amount}`,
  freeShipping: 'Gratis',
  totalPaid: (amount: string) => `Total pagado: ${amount}`,
  /** 'Forma de pago: tarjeta', 'Forma de pago: 6 meses sin intereses de $583.17'. */
  paidWith: (method: string) => `Forma de pago: ${method}`,
  details: (link: string) => `Detalles: ${link}`,
  viewOrder: 'Ver tu pedido',
} as const;

/**
 * The e-mails of an order the shop moved: shipped, completed, cancelled, refunded
 * (src/server/mail/templates/order-status.ts). `number` is the order's number as shown.
 */
export const MAIL_ORDER_STATUS_TEXT = {
  shippedSubject: (number: string) => `Tu pedido ${number} fue enviado`,
  onItsWay: (number: string) => `Tu pedido ${number} va en camino.`,
  carrier: (carrier: string) => `Paquetería: ${carrier}`,
  trackingNumber: (trackingNumber: string) => `Número de guía: ${trackingNumber}`,
  completedSubject: (number: string) => `Tu pedido ${number} fue completado`,
  completed: (number: string) => `Tu pedido ${number} fue entregado y está completado.`,
  thanks: 'Gracias por comprar con nosotros.',
  cancelledSubject: (number: string) => `Tu pedido ${number} fue cancelado`,
  cancelled: (number: string) => `Cancelamos tu pedido ${number}.`,
  oxxoMaybePaid:
    'Si ya pagaste tu ficha de OXXO, abonaremos ese pago a tu saldo a favor y te avisaremos por correo; los pagos en efectivo no se devuelven en efectivo.',
  creditReturned: (amount: string) => `Los ${amount} de saldo a favor que usaste volvieron a tu cuenta.`,
  noCharge: 'No se hizo ningún cargo.',
  refundedSubject: (number: string) => `Tu pedido ${number} fue reembolsado`,
  refundedToCredit: (number: string, amount: string) => `Cancelamos tu pedido ${number} y abonamos ${amount} a tu saldo a favor.`,
  useCredit: 'Puedes usarlo en tu próxima compra.',
  refundedByTransfer: (number: string, amount: string, reference: string) =>
    `Cancelamos tu pedido ${number} y te devolvimos ${amount} por transferencia bancaria (referencia ${reference}).`,
  refundedToPaypal: (number: string, amount: string) => `Cancelamos tu pedido ${number} y te reembolsamos ${amount} a tu cuenta de PayPal.`,
  refundedToCard: (number: string, amount: string) => `Cancelamos tu pedido ${number} y te reembolsamos ${amount} a tu tarjeta.`,
  refundDelay: 'El reembolso puede tardar unos días en verse en tu estado de cuenta.',
  /** Plain text: 'Rastrea tu envío: <url>'. */
  trackLine: (url: string) => `Rastrea tu envío: ${url}`,
  /** Plain text: 'Tus pedidos: <url>'. */
  ordersLine: (url: string) => `Tus pedidos: ${url}`,
  /** The HTML's links. */
  track: 'Rastrea tu envío',
  viewOrders: 'Ver tus pedidos',
} as const;

/**
 * The OXXO voucher e-mail (src/server/mail/templates/oxxo-voucher.ts). `number` is the order's
 * number as shown; the HTML passes the values already wrapped in <strong>.
 */
export const MAIL_OXXO_VOUCHER_TEXT = {
  subject: (number: string) => `Ficha de pago OXXO de tu pedido ${number}`,
  heading: 'Tu ficha de pago en OXXO',
  reserved: (number: string) => `Tu pedido ${number} está reservado hasta que pagues en OXXO.`,
  amount: (amount: string) => `Monto a pagar: ${amount}`,
  reference: (reference: string) => `Referencia: ${reference}`,
  /** The link to the voucher, in simulated mode to the simulated store counter. */
  simulatedVoucher: 'Ver la ficha y simular pago en OXXO (modo de prueba)',
  voucher: 'Ver e imprimir la ficha de pago',
  /** Plain text: 'Tu pedido: <url>'. */
  orderLine: (url: string) => `Tu pedido: ${url}`,
  viewOrder: 'Ver tu pedido',
} as const;

/** The e-mail of OXXO cash its order could not take, credited to the balance (src/server/mail/templates/oxxo-credit.ts). */
export const MAIL_OXXO_CREDIT_TEXT = {
  subject: (amount: string) => `Abonamos ${amount} a tu saldo a favor`,
  heading: 'Abonamos tu pago a tu saldo a favor',
  balance: (amount: string) => `Tu saldo a favor ahora es de ${amount}.`,
  /** `howReturned` is the store credit's own sentence on how such money comes back, lower-cased. */
  why: (number: string, howReturned: string) => `El pedido ${number} ya no podía recibir este pago. Puedes usar tu saldo en tu próxima compra; ${howReturned}`,
  /** Plain text: 'Tu cuenta: <url>'. */
  accountLine: (url: string) => `Tu cuenta: ${url}`,
  viewCredit: 'Ver tu saldo a favor',
} as const;

/**
 * Why an e-mail was not sent (src/server/mail/outbox.ts, src/server/mail/transport.ts): recorded in
 * mail_outbox.last_error and the server's log, for whoever runs the shop.
 */
export const MAIL_DELIVERY_ERROR_TEXT = {
  unknown: 'error desconocido',
  timedOut: (seconds: number) => `el envío tardó más de ${seconds} s`,
  attemptsExhausted: (attempts: number) => `se agotaron los ${attempts} intentos`,
  markSentFailed: (id: string, reason: string) => `no se pudo marcar como enviado el correo ${id}: ${reason}`,
  recordFailureFailed: (id: string, reason: string) => `no se pudo registrar el fallo del correo ${id}: ${reason}`,
  invalidSmtpUrl: 'SMTP_URL no es una URL válida (ejemplo: smtps://usuario:clave@smtp.example.com:465).',
  smtpProtocol: (protocol: string) => `SMTP_URL debe empezar con smtp:// o smtps://, no ${protocol}//.`,
  localMailbox: (status: number) => `buzón local: ${status}`,
  unconfigured: 'sin proveedor de correo configurado (SMTP_URL y MAIL_FROM)',
} as const;
