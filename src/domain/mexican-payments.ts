/**
 * The rules of the two Mexican ways to pay: cash at OXXO (a voucher paid at the store, Stripe's
 * limits $10.00 to $10,000.00) and 'meses sin intereses' on a credit card (from a total of
 * $300.00; 3, 6, 9, 12, 18 or 24 monthly payments). Amounts are integer centavos.
 */
import { centavos, formatCentavos, type Centavos } from './money.ts';
import { CHECKOUT_MEXICAN_PAYMENT_TEXT } from '../i18n/checkout.ts';

/** OXXO takes totals from $10.00 … */
export const OXXO_MIN_CENTAVOS = centavos(1_000);
/** … to $10,000.00 (Stripe's limits for OXXO). */
export const OXXO_MAX_CENTAVOS = centavos(1_000_000);
/** Days a voucher stays payable (Stripe's expires_after_days). */
export const OXXO_EXPIRES_AFTER_DAYS = 3;
/** … and for an order of scarce stock (a line with this many units or fewer left) or a preorder. */
export const OXXO_SCARCE_EXPIRES_AFTER_DAYS = 1;
export const OXXO_SCARCE_STOCK = 5;
/**
 * Business days the order stays reserved after the voucher's deadline when Stripe has not said
 * the voucher failed: cash taken at the store before the deadline is confirmed by the next
 * business day.
 */
export const OXXO_CONFIRMATION_BUSINESS_DAYS = 2;
/** 'Meses sin intereses' is offered from this total. */
export const INSTALLMENTS_MIN_CENTAVOS = centavos(30_000);
/** The plans Mexican issuers offer through Stripe. */
export const INSTALLMENT_COUNTS = [3, 6, 9, 12, 18, 24] as const;
export type InstallmentCount = (typeof INSTALLMENT_COUNTS)[number];

/** The days a new voucher lasts: 1 for scarce stock or a preorder, else 3. */
export function oxxoVoucherDays(lines: ReadonlyArray<{ stock: number; preorder: boolean }>): number {
  return lines.some((line) => line.preorder || line.stock <= OXXO_SCARCE_STOCK) ? OXXO_SCARCE_EXPIRES_AFTER_DAYS : OXXO_EXPIRES_AFTER_DAYS;
}

/** Fixed-date and Monday holidays of Mexico's Ley Federal del Trabajo (art. 74), as [month, day] or [month, nth Monday]. */
const FIXED_HOLIDAYS: ReadonlyArray<readonly [number, number]> = [
  [1, 1],
  [5, 1],
  [9, 16],
  [12, 25],
];
const MONDAY_HOLIDAYS: ReadonlyArray<readonly [number, number]> = [
  [2, 1],
  [3, 3],
  [11, 3],
];

/** Whether a Mexico City calendar day (y, m 1–12, d) is a business day: Monday to Friday, not a holiday. */
export function isMexicanBusinessDay(year: number, month: number, day: number): boolean {
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  if (FIXED_HOLIDAYS.some(([m, d]) => m === month && d === day)) return false;
  return !MONDAY_HOLIDAYS.some(([m, nth]) => m === month && weekday === 1 && Math.ceil(day / 7) === nth);
}

/**
 * How long an order with a voucher stays reserved: the end (23:59:59 Mexico City) of the
 * `businessDays`-th business day after the voucher's deadline.
 */
export function oxxoReservationEnd(deadline: Date, businessDays: number = OXXO_CONFIRMATION_BUSINESS_DAYS): Date {
  const offsetMs = 6 * 60 * 60 * 1000;
  const local = new Date(deadline.getTime() - offsetMs);
  let y = local.getUTCFullYear();
  let m = local.getUTCMonth();
  let d = local.getUTCDate();
  let left = businessDays;
  while (left > 0) {
    const next = new Date(Date.UTC(y, m, d + 1));
    y = next.getUTCFullYear();
    m = next.getUTCMonth();
    d = next.getUTCDate();
    if (isMexicanBusinessDay(y, m + 1, d)) left -= 1;
  }
  return new Date(Date.UTC(y, m, d, 23, 59, 59) + offsetMs);
}

/** Whether a total may be paid in cash at OXXO. */
export function oxxoAllowed(totalCentavos: Centavos): boolean {
  return Number.isSafeInteger(totalCentavos) && totalCentavos >= OXXO_MIN_CENTAVOS && totalCentavos <= OXXO_MAX_CENTAVOS;
}

/** Whether 'meses sin intereses' is offered for a total. */
export function installmentsOffered(totalCentavos: Centavos): boolean {
  return Number.isSafeInteger(totalCentavos) && totalCentavos >= INSTALLMENTS_MIN_CENTAVOS;
}

/** Whether a number of months is one of the plans that exist. */
export function isInstallmentCount(value: unknown): value is InstallmentCount {
  return typeof value === 'number' && (INSTALLMENT_COUNTS as readonly number[]).includes(value);
}

/**
 * The monthly payments of a total in `months`: every month the share rounded to the centavo, the
 * last month absorbs the remainder, so they always add up to the total exactly.
 */
export function installmentSchedule(totalCentavos: Centavos, months: number): Centavos[] {
  if (!Number.isSafeInteger(totalCentavos) || totalCentavos < 0) throw new RangeError('invalid total');
  if (!Number.isInteger(months) || months < 1) throw new RangeError('invalid number of months');
  const share = Math.round(totalCentavos / months);
  const schedule = Array.from({ length: months }, () => centavos(share));
  schedule[months - 1] = centavos(totalCentavos - share * (months - 1));
  return schedule;
}

/** What each month costs (the rounded share; the last month may differ by a few centavos). */
export function monthlyAmount(totalCentavos: Centavos, months: number): Centavos {
  return installmentSchedule(totalCentavos, months)[0]!;
}

/** '6 meses sin intereses de $583.17'. */
export function installmentLabel(totalCentavos: Centavos, months: number): string {
  return CHECKOUT_MEXICAN_PAYMENT_TEXT.installment(months, formatCentavos(monthlyAmount(totalCentavos, months)));
}

/** An OXXO reference grouped in fours for reading aloud at the till: '1234 5678 9012 3456 78'. */
export function groupReference(reference: string): string {
  const digits = reference.replace(/\D/g, '');
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

const ZONE = 'America/Mexico_City';
const expiryDate = new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeZone: ZONE });
const expiryTime = new Intl.DateTimeFormat('es-MX', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: ZONE });

/** A voucher's expiry in Mexico City time: '27 de noviembre de 2026 a las 23:59'. */
export function formatVoucherExpiry(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '-';
  return CHECKOUT_MEXICAN_PAYMENT_TEXT.voucherExpiry(expiryDate.format(date), expiryTime.format(date));
}

/** 'Paga en cualquier tienda OXXO antes del 27 de noviembre de 2026 a las 23:59.' */
export function oxxoDeadline(iso: string): string {
  return CHECKOUT_MEXICAN_PAYMENT_TEXT.oxxoDeadline(formatVoucherExpiry(iso));
}

/**
 * When a voucher issued at `now` stops being payable, as Stripe computes it: 23:59:59 in Mexico
 * City (UTC−6 all year since 2022) of the day `days` days later.
 */
export function oxxoVoucherExpiry(now: Date, days: number = OXXO_EXPIRES_AFTER_DAYS): Date {
  const offsetMs = 6 * 60 * 60 * 1000;
  const local = new Date(now.getTime() - offsetMs);
  const endOfDayLocal = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + days, 23, 59, 59);
  return new Date(endOfDayLocal + offsetMs);
}
