/**
 * Facturas (CFDI 4.0) of paid orders: the amounts, the payment form and the dates a factura is
 * issued with. Everything is in integer centavos and Mexico City time; nothing here talks to a
 * provider or the database.
 *
 * IVA: the shop's prices include 16% IVA. Each concept's amount is what the shopper paid for it
 * (its share of the discount already taken off), and it is split as
 *   base = round(amount / 1.16)   (to the nearest centavo, in integers: floor((amount·100 + 58) / 116);
 *                                  amount·100/116 never ends in exactly half a centavo, so no tie rule is needed)
 *   IVA  = amount − base
 * so the concepts always add up to exactly what was paid, centavo for centavo, and the IVA of each
 * concept is within half a centavo of 16% of its base (SAT's per-concept tolerance). The invoice's
 * IVA is the sum of the concepts' IVA, not 16% of the sum of the bases (they may differ by less
 * than one centavo per concept).
 *
 * Discounts: the order's discount (a coupon) is spread over the product lines in proportion to
 * each line's amount (largest remainder, so the shares add up to the discount exactly); shipping
 * carries none. Each concept is then priced at what was really paid, IVA included, which is what
 * Facturapi expects with `tax_included: true`; no separate `discount` is sent, so the CFDI states
 * the net price and the totals can never disagree with the payment.
 *
 * The balance (saldo a favor) used on an order is a payment, not a discount: it changes the
 * payment form only (see `paymentFormFor`).
 */
import { centavos, type Centavos } from './money.ts';

/** RFC, name and fiscal regime of 'público en general' (the factura global's receiver). */
export const PUBLIC_RFC = 'XAXX010101000';
export const PUBLIC_LEGAL_NAME = 'PUBLICO EN GENERAL';
export const PUBLIC_TAX_REGIME = '616';
/** Uso del CFDI of a factura global: 'S01 Sin efectos fiscales'. */
export const PUBLIC_CFDI_USE = 'S01';

/** SAT keys of the shipping concept: 78102203 (servicios de envío) and E48 (unidad de servicio). */
const SHIPPING_PRODUCT_KEY = '78102203';
const SHIPPING_UNIT_KEY = 'E48';
/** SAT keys each sale carries in a factura global: 01010101 ('No existe en el catálogo') and ACT (actividad). */
const GLOBAL_PRODUCT_KEY = '01010101';
const GLOBAL_UNIT_KEY = 'ACT';
/** Product key used when a product has none recorded (the SAT's 'No existe en el catálogo'). */
const FALLBACK_PRODUCT_KEY = '01010101';
/** Unit key used when a product has none recorded: H87 (pieza). */
const FALLBACK_UNIT_KEY = 'H87';

/** One line of a paid order, as the order recorded it. */
interface OrderLineInput {
  description: string;
  quantity: number;
  /** The unit price paid, IVA included. */
  unitPrice: Centavos;
  productKey?: string | null;
  unitKey?: string | null;
  /** The shop's own id of the product (NoIdentificacion). */
  sku?: string | null;
}

/** A paid order's amounts, as the order recorded them (all IVA included). */
interface OrderAmountsInput {
  lines: readonly OrderLineInput[];
  discount: Centavos;
  shipping: Centavos;
  /** orders.total: what the order cost, checked against the lines. */
  total: Centavos;
}

/** One concept of the factura, with its IVA broken out. */
export interface InvoiceConcept {
  description: string;
  quantity: number;
  productKey: string;
  unitKey: string;
  sku: string | null;
  /** What was paid for the concept, IVA included (after its share of the discount). */
  amount: Centavos;
  /** Its discount share, already taken off `amount` (informative). */
  discount: Centavos;
  base: Centavos;
  iva: Centavos;
}

/** The factura's concepts and totals. */
interface InvoiceBreakdown {
  concepts: InvoiceConcept[];
  /** Sum of the bases. */
  subtotal: Centavos;
  /** Sum of the IVA of the concepts. */
  iva: Centavos;
  /** subtotal + iva: exactly what was paid. */
  total: Centavos;
}

/** The base and IVA of an amount that includes 16% IVA (base rounded half up to the centavo). */
export function splitIva(amount: Centavos): { base: Centavos; iva: Centavos } {
  if (amount < 0) throw new RangeError('amount < 0');
  // amount / 1.16 = amount · 25 / 29, rounded half up: ⌊(2 · 25 · amount + 29) / (2 · 29)⌋.
  const base = Math.floor((50 * amount + 29) / 58);
  return { base: centavos(base), iva: centavos(amount - base) };
}

/** Splits `total` over `weights` in proportion (largest remainder, ties to the earlier weight). */
function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (total === 0 || sum === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (total * w) / sum);
  const shares = exact.map((x) => Math.floor(x));
  let left = total - shares.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left === 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares;
}

/** Why an order's amounts cannot be invoiced. */
export class InvoiceAmountsError extends Error {}

function keyOr(value: string | null | undefined, fallback: string): string {
  const trimmed = (value ?? '').trim();
  return trimmed === '' ? fallback : trimmed;
}

/**
 * The concepts of a paid order: one per line (discount shared out), shipping as its own concept
 * when it cost something. Throws InvoiceAmountsError when the lines do not add up to the total.
 */
export function orderInvoiceBreakdown(order: OrderAmountsInput, shippingDescription: string): InvoiceBreakdown {
  const gross = order.lines.map((line) => {
    if (!Number.isInteger(line.quantity) || line.quantity < 1) throw new InvoiceAmountsError('quantity');
    return line.unitPrice * line.quantity;
  });
  const goods = gross.reduce((a, b) => a + b, 0);
  if (order.discount > goods) throw new InvoiceAmountsError('discount');
  if (goods - order.discount + order.shipping !== order.total) throw new InvoiceAmountsError('total');
  const discounts = apportion(order.discount, gross);
  const concepts: InvoiceConcept[] = order.lines.map((line, i) => {
    const amount = centavos(gross[i]! - discounts[i]!);
    return {
      description: line.description,
      quantity: line.quantity,
      productKey: keyOr(line.productKey, FALLBACK_PRODUCT_KEY),
      unitKey: keyOr(line.unitKey, FALLBACK_UNIT_KEY),
      sku: line.sku ?? null,
      amount,
      discount: centavos(discounts[i]!),
      ...splitIva(amount),
    };
  });
  if (order.shipping > 0) {
    concepts.push({
      description: shippingDescription,
      quantity: 1,
      productKey: SHIPPING_PRODUCT_KEY,
      unitKey: SHIPPING_UNIT_KEY,
      sku: null,
      amount: order.shipping,
      discount: centavos(0),
      ...splitIva(order.shipping),
    });
  }
  return totalsOf(concepts);
}

function totalsOf(concepts: InvoiceConcept[]): InvoiceBreakdown {
  const subtotal = concepts.reduce((a, c) => a + c.base, 0);
  const iva = concepts.reduce((a, c) => a + c.iva, 0);
  return { concepts, subtotal: centavos(subtotal), iva: centavos(iva), total: centavos(subtotal + iva) };
}

/** The unit price of a concept, IVA included, in pesos with up to 6 decimals (Facturapi's `price`). */
export function unitPricePesos(concept: Pick<InvoiceConcept, 'amount' | 'quantity'>): number {
  return Math.round((concept.amount / concept.quantity) * 10_000) / 1_000_000;
}

/** SAT's forma de pago codes the shop uses. */
export type PaymentForm = '01' | '04' | '17' | '28' | '31';

/** The funding of the card that paid, as the card provider reports it (Stripe's card.funding). */
export type CardFunding = 'credit' | 'debit' | 'prepaid' | 'unknown';

const CARD_FUNDINGS: readonly string[] = ['credit', 'debit', 'prepaid', 'unknown'] satisfies CardFunding[];

/** A provider's funding value as the shop records it; null when it says nothing the shop knows. */
export function cardFundingOf(value: unknown): CardFunding | null {
  return typeof value === 'string' && CARD_FUNDINGS.includes(value) ? (value as CardFunding) : null;
}

/** How a paid order was paid, as the order records it. */
interface OrderPaymentInput {
  /** orders.payment_method ('card', 'oxxo', 'paypal', 'store_credit'); null when unknown. */
  method: string | null;
  /** orders.total. */
  total: Centavos;
  /** orders.credit_applied: the part paid from the shopper's balance. */
  creditApplied: Centavos;
  /** orders.card_funding: the card's funding as the provider reported it; null when not recorded. */
  cardFunding?: string | null;
  /** orders.installments: the months of a 'meses sin intereses' plan; null for a single payment. */
  installments?: number | null;
}

/**
 * The forma de pago of a card payment (SAT's c_FormaPago: '04' tarjeta de crédito, '28' tarjeta
 * de débito), from the funding the provider reported on the charge:
 * - a plan of meses sin intereses → '04': only credit cards are offered one.
 * - credit → '04'; debit → '28'.
 * - prepaid → '28': a prepaid card spends money its holder loaded beforehand, drawn like a debit
 *   card's account; no credit is granted, so '04' would be wrong. '05' monedero electrónico is
 *   the SAT's form for the vouchers and wallets of the Ley del ISR (vales de despensa and
 *   similar), not for a bank's prepaid Visa or Mastercard, and c_FormaPago has no form of its own
 *   for prepaid cards.
 * - unknown, or not recorded (orders paid before the funding was kept) → '04', the form used for
 *   every card until then; a factura that should have said '28' is corrected by hand.
 */
function cardPaymentForm(funding: string | null | undefined, installments: number | null | undefined): PaymentForm {
  if (installments) return '04';
  const known = cardFundingOf(funding);
  return known === 'debit' || known === 'prepaid' ? '28' : '04';
}

/**
 * The forma de pago of a paid order. SAT (Anexo 20, CFDI 4.0): with several forms, the one that
 * paid the largest amount; a tie goes to the method that is not the balance.
 * - card → '04' tarjeta de crédito or '28' tarjeta de débito, from the card's funding (see
 *   `cardPaymentForm`).
 * - cash at OXXO → '01' efectivo.
 * - PayPal → '31' intermediario de pagos.
 * - saldo a favor → '17' compensación: the balance is money the shop owed the shopper (a refund,
 *   an OXXO payment that arrived late), offset against what the shopper owes for this order.
 *   '99' (por definir) is not allowed: the order is already paid, so the method is always
 *   'PUE' (pago en una sola exhibición), and SAT requires a definite form with PUE.
 * Null when the method is unknown (the order cannot be invoiced until it is set).
 */
export function paymentFormFor(payment: OrderPaymentInput): PaymentForm | null {
  const external = payment.total - payment.creditApplied;
  const method = payment.method;
  if (method === 'store_credit') return '17';
  if (payment.creditApplied > external) return '17';
  if (method === 'card') return cardPaymentForm(payment.cardFunding, payment.installments);
  if (method === 'oxxo') return '01';
  if (method === 'paypal') return '31';
  return null;
}

const SHOP_TIME_ZONE = 'America/Mexico_City';

const YEAR_MONTH = /* @__PURE__ */ new Intl.DateTimeFormat('en-US', {
  timeZone: SHOP_TIME_ZONE,
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
  hourCycle: 'h23',
});

function wallClock(ms: number): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const parts = Object.fromEntries(YEAR_MONTH.formatToParts(new Date(ms)).map((p) => [p.type, Number(p.value)]));
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** The calendar year and month (1–12) of an instant, in Mexico City. */
function mexicoCityMonth(ms: number): { year: number; month: number } {
  const { year, month } = wallClock(ms);
  return { year, month };
}

/** The instant Mexico City's clock reads 00:00 on the first day of `month` (1–12, may be 13) of `year`. */
function monthStartInstant(year: number, month: number): number {
  const guess = Date.UTC(year, month - 1, 1);
  const wall = wallClock(guess);
  const offset = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) - guess;
  return guess - offset;
}

/**
 * Until when a factura can be requested for an order paid at `paidAtMs`: the end of the calendar
 * month it was paid in, Mexico City time (the first instant of the next month, exclusive).
 */
export function invoiceWindowEnd(paidAtMs: number): number {
  const { year, month } = mexicoCityMonth(paidAtMs);
  return monthStartInstant(year, month + 1);
}

/**
 * Whether an order paid at `paidAtMs` can still be invoiced at `nowMs` (the database decides; this
 * states the same rule for its unit test).
 * @internal exported for its unit test
 */
export function isInvoiceWindowOpen(paidAtMs: number, nowMs: number): boolean {
  return nowMs >= paidAtMs && nowMs < invoiceWindowEnd(paidAtMs);
}

/**
 * A month of sales in Mexico City: [from, to) instants (invoice_global_candidates's month).
 * @internal exported for its unit test
 */
export function mexicoCityMonthRange(year: number, month: number): { from: number; to: number } {
  if (!Number.isInteger(year) || !Number.isInteger(month) || month < 1 || month > 12) throw new RangeError('month');
  return { from: monthStartInstant(year, month), to: monthStartInstant(year, month + 1) };
}

/** The factura global's periodicity data (InformacionGlobal): '04' mensual, the month, the year. */
interface GlobalInvoicePeriod {
  /** SAT's c_Periodicidad: '04' mensual. */
  periodicity: '04';
  /** SAT's c_Meses: '01'–'12'. */
  months: string;
  year: number;
}

export function globalInvoicePeriod(year: number, month: number): GlobalInvoicePeriod {
  if (!Number.isInteger(year) || year < 2022 || !Number.isInteger(month) || month < 1 || month > 12) throw new RangeError('period');
  return { periodicity: '04', months: String(month).padStart(2, '0'), year };
}

/** One paid order not invoiced, as the factura global lists it (one concept per sale). */
interface GlobalSaleInput {
  /** The sale's number as the shopper reads it (the order's short number). */
  reference: string;
  total: Centavos;
}

/**
 * The concepts of the factura global: each sale is one concept (SAT: ClaveProdServ 01010101,
 * ClaveUnidad ACT, cantidad 1, NoIdentificacion the sale's number, descripción 'Venta'), its IVA
 * split as for any concept.
 */
export function globalInvoiceBreakdown(sales: readonly GlobalSaleInput[], description: string): InvoiceBreakdown {
  const concepts = sales
    .filter((sale) => sale.total > 0)
    .map<InvoiceConcept>((sale) => ({
      description,
      quantity: 1,
      productKey: GLOBAL_PRODUCT_KEY,
      unitKey: GLOBAL_UNIT_KEY,
      sku: sale.reference,
      amount: sale.total,
      discount: centavos(0),
      ...splitIva(sale.total),
    }));
  return totalsOf(concepts);
}
