/**
 * 'Vende tus cartas': the buylist's screens (/vende, the packing slip, the account's 'Mis ventas',
 * the back office's 'Compras'), the CLABE check and the banks' names.
 */

/**
 * The banks' names by the first three digits of a CLABE (the ABM/Banxico institution codes of
 * the SPEI participants), the short names their customers know them by.
 */
export const CLABE_BANK_NAMES = {
  '002': 'Banamex',
  '006': 'Bancomext',
  '009': 'Banobras',
  '012': 'BBVA México',
  '014': 'Santander',
  '019': 'Banjército',
  '021': 'HSBC',
  '030': 'Banco del Bajío',
  '036': 'Inbursa',
  '042': 'Mifel',
  '044': 'Scotiabank',
  '058': 'Banregio',
  '059': 'Invex',
  '060': 'Bansi',
  '062': 'Afirme',
  '072': 'Banorte',
  '102': 'Accendo Banco',
  '103': 'American Express',
  '106': 'Bank of America',
  '108': 'MUFG Bank',
  '110': 'J.P. Morgan',
  '112': 'Banco Monex',
  '113': 'Ve por Más',
  '124': 'Deutsche Bank',
  '126': 'Credit Suisse',
  '127': 'Banco Azteca',
  '128': 'Autofin',
  '129': 'Barclays',
  '130': 'Compartamos',
  '132': 'Multiva',
  '133': 'Actinver',
  '135': 'Nafin',
  '136': 'Intercam Banco',
  '137': 'BanCoppel',
  '138': 'ABC Capital',
  '140': 'Consubanco',
  '141': 'Volkswagen Bank',
  '143': 'CIBanco',
  '145': 'Banco Base',
  '147': 'Bankaool',
  '148': 'PagaTodo',
  '150': 'Inmobiliario Mexicano',
  '151': 'Dondé Banco',
  '152': 'Bancrea',
  '154': 'Banco Finterra',
  '155': 'ICBC',
  '156': 'Sabadell',
  '158': 'Mizuho Bank',
  '166': 'Banco del Bienestar',
  '168': 'Sociedad Hipotecaria Federal',
  '600': 'Monex Casa de Bolsa',
  '601': 'GBM',
  '616': 'Finamex',
  '634': 'Fincomún',
  '638': 'Nu México',
  '646': 'STP',
  '652': 'Asea',
  '670': 'Libertad',
  '706': 'Arcus',
} as const;

/** The CLABE field's live check. */
export const CLABE_TEXT = {
  label: 'CLABE (18 dígitos)',
  length: 'CLABE de 18 dígitos',
  checkDigit: 'CLABE no válida: revisa el dígito verificador',
  unknownBank: 'CLABE no válida: el banco no existe',
  /** e.g. 'Banco: BBVA México'. */
  bank: (name: string) => `Banco: ${name}`,
} as const;

/** The links to /vende in the header's menu and the footer. */
export const BUYLIST_NAV_TEXT = {
  sell: 'Vende tus cartas',
} as const;

/** A submission's states, as the shopper and the back office read them (buylist_submissions.status). */
export const BUYLIST_STATUS_TEXT = {
  por_recibir: 'Por recibir',
  recibida: 'Recibida',
  en_revision: 'En revisión',
  oferta_ajustada: 'Oferta ajustada',
  aceptada: 'Aceptada',
  pagada: 'Pagada',
  por_devolver: 'Por devolver',
  devuelta: 'Devuelta',
  vencida: 'Vencida',
  cancelada: 'Cancelada',
} as const;

/** How a submission is paid (buylist_submissions.payout). */
export const BUYLIST_PAYOUT_TEXT = {
  saldo: 'Saldo a favor',
  transferencia: 'Transferencia bancaria',
} as const;

/** /vende: searching the buylist, the sell list, the payment and the submission. */
export const SELL_PAGE_TEXT = {
  title: 'Vende tus cartas',
  intro: 'Busca tus cartas, mira cuánto te pagamos por cada condición y arma tu lista. Te pagamos en saldo a favor con bono o por transferencia.',
  helpLink: 'Cómo funciona la venta de cartas',
  searchLabel: 'Busca por nombre o número de colección',
  searchPlaceholder: 'Ej. Luffy u OP05-119',
  loading: 'Cargando lo que compramos…',
  loadFailed: 'No se pudo cargar lo que compramos. Intenta de nuevo.',
  noResults: 'No compramos ninguna carta con ese nombre o número.',
  /** Before anything is typed. */
  typeToSearch: 'Escribe el nombre o el número de la carta que quieres vender.',
  resultsLabel: 'Cartas que compramos',
  resultsCount: (count: number) => (count === 1 ? '1 carta encontrada' : `${count} cartas encontradas`),
  pricesCaption: (name: string) => `Lo que pagamos por ${name}`,
  condition: 'Condición',
  transfer: 'Por transferencia',
  /** The balance's column, with its bonus ('Saldo a favor (+25 %)'). */
  storeCredit: (bonus: string) => `Saldo a favor (+${bonus})`,
  wanted: (count: number) => (count === 1 ? 'Buscamos 1 copia más' : `Buscamos ${count} copias más`),
  notBuying: 'La tienda ya no compra más de esta carta',
  language: 'Idioma',
  finish: 'Acabado',
  quantity: 'Cantidad',
  add: 'Agregar a mi lista',
  addTo: (name: string) => `Agregar ${name} a mi lista`,
  adding: 'Agregando…',
  added: (name: string) => `${name} agregada a tu lista`,
  addFailed: 'No se pudo agregar a tu lista. Intenta de nuevo.',
  signInToSell: 'Inicia sesión para armar tu lista de venta; la carta que elegiste se agrega en cuanto entres.',
  signIn: 'Iniciar sesión',
} as const;

/** /vende: the sell list, its totals, the payment and the submit. */
export const SELL_LIST_TEXT = {
  title: 'Tu lista de venta',
  empty: 'Tu lista está vacía: busca una carta y agrégala.',
  loading: 'Cargando tu lista…',
  loadFailed: 'No se pudo cargar tu lista. Intenta de nuevo.',
  /** A line: 'Monkey.D.Luffy (OP05-119) · LP · Inglés · Parallel'. */
  lineLabel: (name: string, condition: string, language: string, finish: string) => `${name} · ${condition} · ${language} · ${finish}`,
  each: (transfer: string, credit: string) => `${transfer} c/u por transferencia · ${credit} c/u en saldo`,
  quantity: (count: number) => `× ${count}`,
  remove: 'Quitar',
  removeLine: (name: string) => `Quitar ${name} de tu lista`,
  removeFailed: 'No se pudo quitar. Intenta de nuevo.',
  totalCredit: 'Total en saldo a favor',
  totalTransfer: 'Total por transferencia',
  minimum: (amount: string) => `La venta mínima es de ${amount} (por transferencia).`,
  belowMinimum: (amount: string) => `Te faltan ${amount} para la venta mínima.`,
  payTitle: '¿Cómo quieres que te paguemos?',
  payCredit: (bonus: string) => `Saldo a favor (+${bonus} de bono), para tus compras en la tienda`,
  payTransfer: 'Transferencia bancaria a tu CLABE',
  holder: 'Titular de la cuenta',
  holderRequired: 'Escribe el nombre del titular de la cuenta',
  submit: 'Enviar mi venta',
  submitting: 'Enviando…',
  submitFailed: 'No se pudo enviar tu venta. Intenta de nuevo.',
  fixLines: 'Revisa las cartas marcadas en tu lista.',
} as const;

/** /vende after submitting, and the shipping instructions the packing slip repeats. */
export const SELL_DONE_TEXT = {
  title: (number: string) => `Tu venta ${number} está registrada`,
  intro: (days: number) => `Envíanos tus cartas en los próximos ${days} días; si no llegan, la venta se cancela y las cartas dejan de estar apartadas.`,
  slip: 'Imprimir guía de envío',
  another: 'Vender más cartas',
  account: 'Ver mis ventas',
  shipTitle: 'Cómo enviarnos tus cartas',
  shipTo: 'Envíalas a:',
  pack: [
    'Pon cada carta en un protector (sleeve) y las valiosas también en un toploader.',
    'Junta las cartas entre dos cartones rígidos o en una caja pequeña, sin que se muevan.',
    'Incluye la guía de envío impresa (o escribe tu número de venta en una hoja).',
    'Envía con número de rastreo: no respondemos por paquetes perdidos sin rastreo.',
  ],
  review:
    'Al recibirlas revisamos cada carta. Si alguna está en otra condición te mandamos una oferta ajustada que puedes aceptar, o pedir que te devolvamos esas cartas.',
} as const;

/** The packing slip page (/vende/guia?id=…), meant to be printed. */
export const SELL_SLIP_TEXT = {
  title: 'Guía de envío',
  heading: (number: string) => `Venta ${number}`,
  loading: 'Cargando tu venta…',
  notFound: 'No encontramos esa venta en tu cuenta.',
  seller: 'Vendedor',
  email: 'Correo',
  date: 'Fecha',
  payout: 'Pago',
  linesLabel: 'Cartas enviadas',
  card: 'Carta',
  quantity: 'Cantidad',
  offer: 'Oferta',
  total: 'Total ofrecido',
  print: 'Imprimir',
  back: 'Volver a Vende tus cartas',
} as const;

/** The account's 'Mis ventas' tab. */
export const ACCOUNT_SALES_TEXT = {
  tab: 'Mis ventas',
  title: 'Mis ventas',
  loading: 'Cargando tus ventas…',
  loadFailed: 'No se pudieron cargar tus ventas.',
  empty: 'Aún no nos has vendido cartas.',
  sell: 'Vende tus cartas',
  listLabel: 'Tus ventas',
  submission: (number: string) => `Venta ${number}`,
  created: (date: string) => `Enviada el ${date}`,
  offer: 'Oferta',
  adjusted: 'Oferta ajustada',
  paid: 'Pagado',
  rejected: (rejected: number, accepted: number, reason: string) => `${rejected} rechazada(s), ${accepted} aceptada(s): ${reason}`,
  changed: (from: string, to: string) => `Condición ${from} → ${to}`,
  accept: 'Aceptar la oferta',
  accepting: 'Aceptando…',
  accepted: 'Oferta aceptada',
  askReturn: 'Devuélvanme las cartas rechazadas',
  askingReturn: 'Enviando…',
  returnAsked: 'Pediste la devolución de las cartas rechazadas',
  actionFailed: 'No se pudo completar. Intenta de nuevo.',
  slip: 'Guía de envío',
  trackingNumber: (number: string) => `Cartas devueltas con la guía ${number}`,
} as const;

/** A refusal of the submission placed on the line it names (src/domain/buylist.ts placeRefusal). */
export const SELL_REFUSAL_TEXT = {
  /** A card taken off the list (the message without its final period): 'Monkey.D.Luffy (OP05-119) · LP: La tienda ya no compra más de esta carta. La quitamos de tu lista.' */
  removed: (name: string, message: string) => `${name}: ${message}. La quitamos de tu lista.`,
  /** The database's message (without its final period) and how many copies still fit. */
  fewer: (message: string, count: number) => `${message}. ${count === 1 ? 'Puedes enviar 1 copia.' : `Puedes enviar hasta ${count} copias.`}`,
} as const;

/** Where shoppers send the cards they sell: the shop's receiving address as the owner publishes it (buylist_settings). */
export const SHOP_ADDRESS_TEXT = {
  loading: 'Cargando la dirección de la tienda…',
  missing: 'La tienda aún no publica su dirección de recepción; escríbenos antes de enviar.',
  loadFailed: 'No pudimos cargar la dirección de la tienda; escríbenos antes de enviar.',
  /** 'Col. Roma Norte'. */
  colonia: (colonia: string) => `Col. ${colonia}`,
  /** '06700 Cuauhtémoc, Ciudad de México'. */
  place: (zip: string, municipio: string, state: string) => `${zip} ${municipio}, ${state}`,
  /** 'Tel. 55 1234 5678'. */
  phone: (phone: string) => `Tel. ${phone}`,
  /** 'Horario del mostrador: lunes a sábado de 12:00 a 20:00'. */
  hours: (hours: string) => `Horario del mostrador: ${hours}`,
} as const;

/** The back office's 'Compras' (/admin/compras): submissions, their review, payment and return. */
export const ADMIN_PURCHASES_TEXT = {
  title: 'Compras',
  intro: 'Las ventas de cartas de los clientes: recíbelas, revisa cada carta, envía la oferta, paga o devuelve.',
  filter: 'Estado',
  all: 'Todas',
  loading: 'Cargando compras…',
  loadFailed: 'No se pudieron cargar las compras.',
  empty: 'No hay ventas en este estado.',
  tableLabel: 'Lista de compras',
  columns: { number: 'Venta', date: 'Fecha', status: 'Estado', payout: 'Pago', total: 'Declarado' },
  open: (code: string) => `Ver venta ${code}`,
  close: 'Cerrar',
  detail: (code: string) => `Venta ${code}`,
  declared: (amount: string) => `Declarado: ${amount}`,
  offer: (amount: string) => `Oferta: ${amount}`,
  clabe: (clabe: string, bank: string) => `CLABE ${clabe} (${bank})`,
  receive: 'Marcar como recibida',
  line: (position: number) => `Línea ${position}`,
  condition: 'Condición',
  rejected: 'Rechazadas',
  reason: 'Motivo del rechazo',
  saveReview: 'Guardar revisión',
  reviewed: 'Revisada',
  split: 'Separar 1 copia',
  sendOffer: 'Enviar oferta',
  reference: 'Referencia de la transferencia',
  markPaid: 'Marcar como pagada',
  tracking: 'Número de guía de la devolución',
  markReturned: 'Marcar como devuelta',
  sending: 'Enviando…',
  done: 'Listo',
  failed: 'No se pudo completar. Intenta de nuevo.',
  creditPaidOnAccept: 'El saldo a favor se abona solo cuando el cliente acepta la oferta.',
} as const;
