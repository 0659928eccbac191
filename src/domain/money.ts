/**
 * Money in the shop: Mexican pesos, shown in es-MX with two decimals, computed in integer
 * centavos. Prices arrive as pesos (numbers from JSON, strings from Postgres `numeric`), so every
 * computation converts to centavos first and back to pesos only for output.
 */

/**
 * A whole number of centavos (1/100 of a peso). Branded, so a peso amount (a plain number) cannot
 * be passed where centavos are meant: amounts become Centavos where they enter (toCentavos from
 * pesos, centavos() for integer centavo columns and provider amounts) and stay Centavos through
 * addCentavos, multiplyCentavos and percentOfCentavos.
 */
export type Centavos = number & { readonly __unit: 'centavos' };

/** A number that already counts whole centavos (an integer column, a provider's minor units); throws a RangeError otherwise. */
export function centavos(value: number): Centavos {
  assertCentavos(value);
  return value as Centavos;
}

export const CURRENCY = 'MXN';
export const LOCALE = 'es-MX';

/**
 * Made at the first price shown, not when this module loads: building a currency format loads the
 * locale's data (30–40 ms of the main thread while /explore loaded on the 2-core test machine, four
 * times that on the phone Lighthouse simulates), and every page loads this module for its cart,
 * most without showing a price from script.
 */
let mxnFormatter: Intl.NumberFormat | undefined;
function formatter(): Intl.NumberFormat {
  mxnFormatter ??= new Intl.NumberFormat(LOCALE, {
    style: 'currency',
    currency: CURRENCY,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return mxnFormatter;
}

// Plain decimal or exponent notation, as String(number) and Postgres numeric produce.
const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

/**
 * Centavos of a peso amount, rounded half away from zero at the centavo, without float error
 * (1.005 → 101, '1234.50' → 123450). Null when the value is not a finite amount.
 */
export function tryToCentavos(pesos: number | string | null | undefined): Centavos | null {
  if (pesos === null || pesos === undefined) return null;
  if (typeof pesos === 'number' && !Number.isFinite(pesos)) return null;
  // String(number) is the shortest exact round-trip form, so '1.005' stays '1.005'.
  const text = (typeof pesos === 'number' ? String(pesos) : pesos).trim();
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  if (whole === '' && fraction === '') return null;
  const exponent = Number(exponentText);
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 400) return null;

  // Move the decimal point: digits × 10^(shift) where shift counts the digits after the point.
  const digits = whole + fraction;
  const pointPosition = whole.length + exponent; // digits before the point after shifting
  const centPosition = pointPosition + 2; // digits that make up whole centavos
  let integerPart: string;
  let nextDigit: number;
  if (centPosition <= 0) {
    integerPart = '0';
    nextDigit = centPosition === 0 ? Number(digits[0] ?? '0') : 0;
  } else if (centPosition >= digits.length) {
    integerPart = digits + '0'.repeat(centPosition - digits.length);
    nextDigit = 0;
  } else {
    integerPart = digits.slice(0, centPosition);
    nextDigit = Number(digits[centPosition]);
  }
  let cents = BigInt(integerPart === '' ? '0' : integerPart);
  if (nextDigit >= 5) cents += 1n;
  if (cents > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  const value = Number(cents);
  return centavos(sign === '-' && value !== 0 ? -value : value);
}

/**
 * A price kept in the browser or in a built file (a stored cart line, a card's button, the explore
 * JSON): `cents` in whole centavos when present, else, for data written before prices were
 * centavos, `pesos` as a number. Null when neither is a non-negative amount.
 */
export function savedPriceCentavos(cents: unknown, pesos: unknown): Centavos | null {
  if (cents !== undefined && cents !== null) {
    return typeof cents === 'number' && Number.isSafeInteger(cents) && cents >= 0 ? centavos(cents) : null;
  }
  if (typeof pesos !== 'number' || !Number.isFinite(pesos) || pesos < 0) return null;
  return tryToCentavos(pesos);
}

/** Centavos of a peso amount (see tryToCentavos); throws a RangeError for a non-amount. */
export function toCentavos(pesos: number | string): Centavos {
  const cents = tryToCentavos(pesos);
  if (cents === null) throw new RangeError(`invalid peso amount: ${String(pesos)}`);
  return cents;
}

/**
 * A price as the database sends it (public.products, public.card_offers: a JSON number or a
 * Postgres numeric string) as Centavos; null when it is absent, not an amount or negative. The one
 * reader of a stored price, wherever a row is read (the build's row schema, the buy box's live
 * product and offers).
 */
export function databasePriceCentavos(value: unknown): Centavos | null {
  if (typeof value !== 'number' && typeof value !== 'string') return null;
  const cents = tryToCentavos(value);
  return cents === null || cents < 0 ? null : cents;
}

// What a form's peso field takes: whole pesos with up to two decimals, no sign, no thousands separator.
const TYPED_PESOS = /^\d+(?:\.\d{1,2})?$/;

/**
 * A peso amount typed in a form ('1299', ' 89.90 ', or a number a form library already holds) as
 * Centavos: a string must be digits with at most two decimals, a number finite and not negative
 * once rounded to the centavo. Null otherwise. The back office's price fields and /explore's price
 * limits read what was typed through this, once per edit.
 */
export function pesosInputToCentavos(value: string | number): Centavos | null {
  if (typeof value === 'number') {
    const cents = tryToCentavos(value);
    return cents === null || cents < 0 ? null : cents;
  }
  const text = value.trim();
  return TYPED_PESOS.test(text) ? tryToCentavos(text) : null;
}

/** An amount as a form's peso field shows it: two decimals, none for whole pesos (129990 → '1299.90', 129900 → '1299'). */
export function centavosToPesosInput(amount: Centavos): string {
  return centavosToDecimalString(amount).replace(/\.00$/, '');
}

/**
 * A line whose unit price arrives in pesos from outside the shop's types (a Postgres numeric
 * string, the shared pricing fixture, the seed's catalogue), as pricing.ts prices it: the unit
 * price in Centavos and the quantity. Throws a RangeError for a price that is not an amount.
 */
export function pricedLine(line: { price: number | string; quantity: number }): { priceCentavos: Centavos; quantity: number } {
  return { priceCentavos: toCentavos(line.price), quantity: line.quantity };
}

/** Pesos of a centavo amount, as a number with at most two decimals (123450 → 1234.5). */
export function toPesos(centavos: Centavos): number {
  assertCentavos(centavos);
  return centavos / 100;
}

/** Whole pesos in a centavo amount, rounded down (129990 → 1299), e.g. the reward points of a price. */
export function wholePesos(centavos: Centavos): number {
  assertCentavos(centavos);
  return Math.floor(centavos / 100);
}

/**
 * A provider's amount written in pesos with decimals (PayPal's `value`, '1234.50') as Centavos;
 * null when it is not an amount. The reverse of centavosToDecimalString.
 */
export function decimalStringToCentavos(value: string): Centavos | null {
  return tryToCentavos(value);
}

/** Pesos with exactly two decimals as a string, e.g. for PayPal or SQL ('1234.50'). */
export function centavosToDecimalString(centavos: Centavos): string {
  assertCentavos(centavos);
  const sign = centavos < 0 ? '-' : '';
  const absolute = Math.abs(centavos);
  return `${sign}${Math.trunc(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

/** Sum of centavo amounts. */
export function addCentavos(...amounts: Centavos[]): Centavos {
  let sum = 0;
  for (const amount of amounts) {
    assertCentavos(amount);
    sum += amount;
  }
  return centavos(sum);
}

/** A centavo amount times a whole quantity (a line amount). */
export function multiplyCentavos(amount: Centavos, quantity: number): Centavos {
  assertCentavos(amount);
  if (!Number.isSafeInteger(quantity)) throw new RangeError(`invalid quantity: ${String(quantity)}`);
  return centavos(amount * quantity);
}

/** Percentage of a centavo amount, rounded half-up to the centavo (10% of 33333 → 3333). */
export function percentOfCentavos(amount: Centavos, percent: number): Centavos {
  assertCentavos(amount);
  if (!Number.isSafeInteger(percent) || percent < 0) {
    throw new RangeError(`invalid percent: ${String(percent)}`);
  }
  // Integer arithmetic: (amount × percent + 50) / 100, floored, is half-up for amount ≥ 0.
  const scaled = BigInt(Math.abs(amount)) * BigInt(percent);
  const rounded = Number((scaled + 50n) / 100n);
  return centavos(amount < 0 ? -rounded : rounded);
}

/** MXN in es-MX with two decimals from centavos, e.g. 123450 → '$1,234.50'. */
export function formatCentavos(centavos: Centavos): string {
  assertCentavos(centavos);
  return formatter().format(centavos / 100);
}

/**
 * MXN in es-MX with two decimals from pesos, e.g. 1234.5 or '1234.50' → '$1,234.50'. The shop
 * formats Centavos (formatCentavos); this is for scripts and checks that hold a peso amount read
 * from outside the shop's types (a seed price, a database row).
 */
export function formatMXN(pesos: number | string): string {
  return formatCentavos(toCentavos(pesos));
}

function assertCentavos(value: number): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`invalid centavos: ${String(value)}`);
}
