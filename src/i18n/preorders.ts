/** Preorders: the product page's line, checkout's waitlist choice, the Orders tab, the back office and the e-mail. */

/** The product page's preorder line (src/islands/product/PreorderStatus.tsx). Dates arrive formatted (es-MX, long). */
export const PREORDER_PRODUCT_TEXT = {
  /** 'Preventa · Sale el 12 de febrero de 2027'. */
  releaseLine: (date: string) => `Preventa · Sale el ${date}`,
  /** Shown when fewer than 20 preorders remain. */
  /** One left. */
  remainingOne: 'Queda 1 preventa',
  /** More than one left ('#' on the page, filled in by its script). */
  remaining: (count: number | string) => `Quedan ${count} preventas`,
  soldOut: 'Se agotaron las preventas',
  /** The date the preorder opens ('#' on the page, filled in by its script). */
  opensOn: (date: string) => `La preventa abre el ${date}`,
  closed: 'La preventa ya cerró',
} as const;

/** Checkout, when the cart holds a preorder line (src/islands/checkout/PreorderOptions.tsx). */
export const PREORDER_CHECKOUT_TEXT = {
  waitlist: 'Si no alcanza, mantenerme en lista de espera',
  waitlistHelp: 'Si cuando llegue la preventa no alcanza para tu pedido, lo conservamos para el siguiente envío en lugar de reembolsarte.',
  mixedNote: 'Tu pedido incluye productos en preventa: enviaremos el pedido completo cuando llegue la preventa.',
} as const;

/** The Orders tab's preorder badge (src/islands/account/OrdersPanel.tsx). */
export const PREORDER_ORDERS_TEXT = {
  awaiting: 'Preventa: esperando llegada',
  allocated: 'Preventa asignada',
  waitlisted: 'En lista de espera',
  refunded: 'Reembolsada por falta de inventario',
} as const;

/** The back office's Preventas section (src/islands/admin/PreordersSection.tsx). */
export const ADMIN_PREORDERS_TEXT = {
  title: 'Preventas',
  intro: 'Campañas de preventa: ventana de pedidos, asignación esperada, límites y llegadas.',
  tableLabel: 'Campañas de preventa',
  loading: 'Cargando preventas…',
  loadFailed: 'No se pudieron cargar las preventas.',
  empty: 'Aún no hay campañas de preventa.',
  newCampaign: 'Nueva preventa',
  edit: 'Editar',
  registerArrival: 'Registrar llegada',
  product: 'Producto',
  release: 'Lanzamiento',
  window: 'Pedidos',
  orders: 'Pedidos activos',
  units: 'Unidades',
  allocation: 'Asignación',
  allocated: 'Asignadas',
  waitlist: 'En espera',
  refunded: 'Reembolsadas',
  received: 'Recibidas',
  noCap: 'Sin límite',
  windowRange: (from: string, to: string) => `${from} – ${to}`,
  formTitleNew: 'Nueva preventa',
  formTitleEdit: (name: string) => `Editar preventa de ${name}`,
  productId: 'Clave del producto',
  offerId: 'Oferta de la carta (solo para cartas individuales)',
  /** The offer select's first option: a single's campaign is for one of its offers. */
  offerChoose: 'Elige la copia que sale en preventa',
  offersLoading: 'Cargando las copias de la carta…',
  releaseDate: 'Fecha de lanzamiento',
  opensAt: 'Abre (hora del centro de México)',
  closesAt: 'Cierra (hora del centro de México)',
  allocationLabel: 'Asignación esperada (0 = sin límite)',
  perCustomer: 'Límite por cliente',
  perOrder: 'Límite por pedido',
  save: 'Guardar preventa',
  saving: 'Guardando…',
  cancel: 'Cancelar',
  saved: 'Preventa guardada.',
  required: 'Completa todos los campos.',
  wholeNumber: 'Escribe un número entero.',
  arrivalTitle: (name: string) => `Registrar llegada de ${name}`,
  arrivalQuantity: 'Unidades recibidas',
  arrivalHelp:
    'Se surten primero los pedidos en lista de espera y luego los demás, del pago más antiguo al más reciente; cada pedido se surte completo o no se surte. Lo que no alcance se reembolsa o queda en lista de espera, según lo que eligió el cliente.',
  arrivalConfirm: 'Registrar',
  arrivalRunning: 'Registrando…',
  arrivalDone: (allocated: number, waitlisted: number, refunded: number, toStock: number) =>
    `Llegada registrada: ${allocated} pedido(s) surtido(s), ${waitlisted} en lista de espera, ${refunded} reembolsado(s); ${toStock} unidad(es) pasaron al inventario.`,
  arrivalReplayed: 'Esta llegada ya estaba registrada; no se asignó nada de nuevo.',
  refundsPending: (count: number) => `${count} reembolso(s) siguen en proceso; revísalos en Resumen.`,
  actionFailed: 'No se pudo completar. Inténtalo de nuevo.',
} as const;

/** The arrival endpoint's refusals (src/server/admin/preorders.ts). */
export const PREORDER_API_TEXT = {
  campaignNotFound: 'Preventa no encontrada.',
  invalidQuantity: 'La cantidad recibida debe ser un número entero entre 0 y 1000000.',
  invalidKey: 'Falta la clave de la llegada.',
  noAccess: 'Solo un administrador puede registrar llegadas de preventa.',
} as const;

/** The e-mail of what an arrival did with a shopper's preorder (src/server/mail/templates/preorder-allocation.ts). */
export const MAIL_PREORDER_TEXT = {
  allocatedSubject: (number: string) => `Tu preventa del pedido ${number} está asignada`,
  waitlistedSubject: (number: string) => `Tu preventa del pedido ${number} sigue en lista de espera`,
  refundedSubject: (number: string) => `Reembolsamos tu preventa del pedido ${number}`,
  allocatedHeading: 'Tu preventa está asignada',
  waitlistedHeading: 'Tu preventa sigue en lista de espera',
  refundedHeading: 'Reembolsamos tu preventa',
  allocated: (product: string, quantity: number, number: string) =>
    `Llegó ${product} y apartamos ${quantity} unidad(es) para tu pedido ${number}. Te avisaremos cuando lo enviemos.`,
  waitlisted: (product: string, number: string) =>
    `Llegó ${product}, pero no alcanzó para tu pedido ${number}. Como lo pediste, lo conservamos en lista de espera para el siguiente envío; tu pago sigue aplicado y te avisaremos cuando llegue.`,
  refundedToProvider: (product: string, number: string, amount: string) =>
    `Llegó ${product}, pero no alcanzó para tu pedido ${number}. Te reembolsamos ${amount} por el mismo medio con el que pagaste; puede tardar unos días en reflejarse.`,
  refundedToCredit: (product: string, number: string, amount: string) =>
    `Llegó ${product}, pero no alcanzó para tu pedido ${number}. Abonamos ${amount} a tu saldo a favor, que puedes usar en tu próxima compra.`,
  sorry: 'Lamentamos no haber recibido suficientes unidades.',
  /** Plain text: 'Tus pedidos: <url>'. */
  ordersLine: (url: string) => `Tus pedidos: ${url}`,
  viewOrders: 'Ver tus pedidos',
} as const;
