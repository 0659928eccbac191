/**
 * How orders are shown in the account's order history: short id, date, total, status colour and
 * pagination.
 */
import { type Centavos, formatCentavos } from './money.ts';
import { pagerOf, type PagerState } from './pager.ts';

/** Shown where a value is missing or not usable. */
export const MISSING = '-';

/**
 * The statuses of an order, named for the code. They are the labels of the database's
 * order_status enum, in its order (the order an order goes through them): src/data/orders.ts
 * fails to type-check when the two differ, tests/db/order-status.test.ts when the order does.
 */
export const ORDER_STATUS = {
  pending: 'Pendiente',
  paid: 'Pagado',
  processing: 'Procesando',
  shipped: 'Enviado',
  completed: 'Completado',
  cancelled: 'Cancelado',
  failed: 'Fallido',
  /** The payment was given back (late payment, or refunded by the shop). */
  refunded: 'Reembolsado',
} as const;
export type OrderStatus = (typeof ORDER_STATUS)[keyof typeof ORDER_STATUS];

export const ORDERS_PAGE_SIZE = 8;
export const ORDER_TIME_ZONE = 'America/Mexico_City';

/** '#' + the last 6 characters of the order id, upper-cased; '-' without an id. */
export function orderDisplayId(id: unknown): string {
  if (typeof id !== 'string' || id.trim() === '') return MISSING;
  return `#${id.trim().slice(-6).toUpperCase()}`;
}

const shortDateFormatters = new Map<string, Intl.DateTimeFormat>();

function shortDateFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = shortDateFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('es-MX', { dateStyle: 'short', timeZone });
    shortDateFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Short Mexican date of an order (e.g. '22/11/26'), in Mexico City time; '-' when not a date. */
export function formatOrderDate(value: unknown, timeZone: string = ORDER_TIME_ZONE): string {
  if (!(value instanceof Date) && typeof value !== 'string' && typeof value !== 'number') return MISSING;
  if (typeof value === 'string' && value.trim() === '') return MISSING;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return MISSING;
  try {
    return shortDateFormatter(timeZone).format(date);
  } catch {
    // An unknown time zone is a programming error; still show the date rather than break the page.
    return shortDateFormatter(ORDER_TIME_ZONE).format(date);
  }
}

/** An order amount in MXN; '-' when the order has none. */
export function formatOrderAmount(amount: Centavos | null): string {
  return amount === null ? MISSING : formatCentavos(amount);
}

export type StatusColor = 'green' | 'yellow' | 'red' | 'blue';

const STATUS_COLORS: Readonly<Record<string, StatusColor>> = {
  enviado: 'green',
  completado: 'green',
  pendiente: 'yellow',
  procesando: 'yellow',
  cancelado: 'red',
  fallido: 'red',
};

/** Colour group of a status: enviado/completado green, pendiente/procesando yellow, cancelado/fallido red, other (pagado, reembolsado) blue. */
export function statusColor(status: unknown): StatusColor {
  if (typeof status !== 'string') return 'blue';
  return STATUS_COLORS[status.trim().toLowerCase()] ?? 'blue';
}

/** One page of a list plus what the pager shows. */
export interface Page<T> extends PagerState {
  items: T[];
}

/** The 1-based `page` of `items`, 8 per page by default. */
export function paginate<T>(items: readonly T[], page: number, pageSize: number = ORDERS_PAGE_SIZE): Page<T> {
  const size = Number.isInteger(pageSize) && pageSize > 0 ? pageSize : ORDERS_PAGE_SIZE;
  const pager = pagerOf(items.length, page, size);
  const start = (pager.page - 1) * size;
  return { items: items.slice(start, start + size), ...pager };
}

/** The carriers the shop ships with ('Paquetería'); the database accepts exactly these. */
export const CARRIERS = ['Estafeta', 'DHL', 'FedEx', 'Redpack', 'Paquetexpress', '99minutos', 'Otra'] as const;

const TRACKING_URLS: Readonly<Record<string, (number: string) => string>> = {
  Estafeta: (n) => `https://cs.estafeta.com/es/Tracking/searchByGet?wayBillType=1&wayBill=${n}`,
  DHL: (n) => `https://www.dhl.com/mx-es/home/rastreo.html?tracking-id=${n}&submit=1`,
  FedEx: (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}`,
  Redpack: (n) => `https://www.redpack.com.mx/es/rastreo/?guias=${n}`,
  Paquetexpress: (n) => `https://www.paquetexpress.com.mx/rastreo/${n}`,
  '99minutos': (n) => `https://tracking.99minutos.com/search/${n}`,
};

/** The carrier's tracking page for a tracking number; null for 'Otra', unknown carriers or no number. */
export function trackingUrl(carrier: unknown, trackingNumber: unknown): string | null {
  if (typeof carrier !== 'string' || typeof trackingNumber !== 'string') return null;
  const number = trackingNumber.trim();
  const build = TRACKING_URLS[carrier];
  if (!build || number === '') return null;
  return build(encodeURIComponent(number));
}

/**
 * Which back-office actions an order in `status` offers: the same transitions the database
 * function admin_set_order_status allows, plus the refund (paid, processing or shipped orders).
 */
export function orderActions(status: unknown): { ship: boolean; complete: boolean; refund: boolean; cancel: boolean } {
  return {
    ship: status === ORDER_STATUS.paid || status === ORDER_STATUS.processing,
    complete: status === ORDER_STATUS.shipped,
    refund: status === ORDER_STATUS.paid || status === ORDER_STATUS.processing || status === ORDER_STATUS.shipped,
    cancel: status === ORDER_STATUS.pending,
  };
}

/** Back office: orders per page. */
export const ADMIN_PAGE_SIZE = 25;

/** Whether a checkout order is still open for payment: pending, and its reservation not expired. */
export function isOrderOpen(order: { status: string; expires_at: string | null }, now: number = Date.now()): boolean {
  return order.status === ORDER_STATUS.pending && (order.expires_at === null || Date.parse(order.expires_at) > now);
}
