import { describe, expect, it } from 'vitest';
import {
  savedPriceCentavos,
  centavos,
  addCentavos,
  centavosToDecimalString,
  formatCentavos,
  formatMXN,
  multiplyCentavos,
  databasePriceCentavos,
  decimalStringToCentavos,
  pesosInputToCentavos,
  centavosToPesosInput,
  percentOfCentavos,
  toCentavos,
  toPesos,
  tryToCentavos,
} from '~/domain/money';

import type { Centavos } from '~/domain/money.ts';
// Amounts in centavos as the tests write them; values the code must refuse are passed unchecked.
const c = (n: number) => n as Centavos;

describe('toCentavos', () => {
  it('converts pesos without float error', () => {
    expect(toCentavos(1234.5)).toBe(123450);
    expect(toCentavos(0.1 + 0.2)).toBe(30);
    expect(toCentavos(2998.99)).toBe(299899);
    expect(toCentavos(19.99)).toBe(1999);
    expect(toCentavos(0)).toBe(0);
  });

  it('rounds a third decimal half away from zero, where x*100 would not', () => {
    // 1.005 * 100 === 100.49999999999999 in floating point.
    expect(Math.round(1.005 * 100)).toBe(100);
    expect(toCentavos(1.005)).toBe(101);
    expect(toCentavos(1.004)).toBe(100);
    expect(toCentavos(-1.005)).toBe(-101);
    expect(toCentavos('0.004999')).toBe(0);
    expect(toCentavos('0.005')).toBe(1);
  });

  it('parses numeric strings as Postgres numeric sends them', () => {
    expect(toCentavos('1234.50')).toBe(123450);
    expect(toCentavos(' 99 ')).toBe(9900);
    expect(toCentavos('.5')).toBe(50);
    expect(toCentavos('5.')).toBe(500);
    expect(toCentavos('-12.30')).toBe(-1230);
    expect(toCentavos('1e3')).toBe(100000);
    expect(toCentavos(1e-7)).toBe(0);
  });

  it('refuses what is not an amount', () => {
    for (const bad of ['', 'abc', '1,234.50', '12.3.4', '$10', '.', '-']) {
      expect(tryToCentavos(bad), bad).toBeNull();
      expect(() => toCentavos(bad), bad).toThrow(RangeError);
    }
    expect(tryToCentavos(Number.NaN)).toBeNull();
    expect(tryToCentavos(Number.POSITIVE_INFINITY)).toBeNull();
    expect(tryToCentavos(1e21)).toBeNull();
    expect(tryToCentavos(null)).toBeNull();
    expect(tryToCentavos(undefined)).toBeNull();
  });
});

describe('pesos and strings', () => {
  it('goes back to pesos and to two-decimal strings', () => {
    expect(toPesos(c(123450))).toBe(1234.5);
    expect(toPesos(c(30))).toBe(0.3);
    expect(centavosToDecimalString(c(123450))).toBe('1234.50');
    expect(centavosToDecimalString(c(5))).toBe('0.05');
    expect(centavosToDecimalString(c(-1230))).toBe('-12.30');
    expect(() => toPesos(c(1.5))).toThrow(RangeError);
  });
});

describe('toCentavos of an order total', () => {
  it('is round(total × 100) as an integer', () => {
    expect(toCentavos(2747.29)).toBe(274729);
    expect(toCentavos(1.005)).toBe(101);
    expect(toCentavos('399.00')).toBe(39900);
    expect(Number.isInteger(toCentavos(1097.99))).toBe(true);
    expect(toCentavos(1097.99)).toBe(109799);
  });
});

describe('decimalStringToCentavos', () => {
  it("reads a provider's amount with decimals, the reverse of centavosToDecimalString", () => {
    expect(decimalStringToCentavos('1234.50')).toBe(123450);
    expect(decimalStringToCentavos('0.05')).toBe(5);
    expect(decimalStringToCentavos('mucho')).toBeNull();
    for (const amount of [0, 5, 123450, 999999999]) expect(decimalStringToCentavos(centavosToDecimalString(c(amount)))).toBe(amount);
  });
});

describe('databasePriceCentavos', () => {
  it('reads a JSON number or a numeric string', () => {
    expect(databasePriceCentavos(1299.9)).toBe(129990);
    expect(databasePriceCentavos('1299.90')).toBe(129990);
    expect(databasePriceCentavos('0')).toBe(0);
    expect(databasePriceCentavos(1.005)).toBe(101);
  });

  it('refuses absent, negative and non-amount values', () => {
    for (const value of [null, undefined, -1, '-0.01', 'gratis', '', Number.NaN, true, {}, []]) {
      expect(databasePriceCentavos(value), String(value)).toBeNull();
    }
  });
});

describe('peso amounts typed in a form', () => {
  it('reads digits with up to two decimals, spaces around allowed', () => {
    expect(pesosInputToCentavos('1299')).toBe(129900);
    expect(pesosInputToCentavos(' 89.9 ')).toBe(8990);
    expect(pesosInputToCentavos('0.05')).toBe(5);
    expect(pesosInputToCentavos(12.345)).toBe(1235);
  });

  it('refuses signs, separators, a third decimal and negative numbers', () => {
    for (const value of ['', ' ', '-5', '+5', '12,5', '1,299.00', '10.999', '.5', '5.', '1e3', 'gratis', -1, Number.NaN]) {
      expect(pesosInputToCentavos(value), String(value)).toBeNull();
    }
  });

  it('shows an amount the way the field takes it back', () => {
    expect(centavosToPesosInput(c(129990))).toBe('1299.90');
    expect(centavosToPesosInput(c(129900))).toBe('1299');
    expect(centavosToPesosInput(c(5))).toBe('0.05');
    for (const amount of [0, 1, 99, 100, 12345, 129990, 999999999]) {
      expect(pesosInputToCentavos(centavosToPesosInput(c(amount)))).toBe(amount);
    }
  });
});

describe('Centavos, the branded amount', () => {
  it('is made from a whole number of centavos only', () => {
    expect(centavos(12345)).toBe(12345);
    expect(() => centavos(123.45)).toThrow(RangeError);
    expect(() => centavos(Number.NaN)).toThrow(RangeError);
  });

  it('is not a plain number to the type checker: a peso amount cannot be formatted as centavos', () => {
    const pesos = 99.5;
    // @ts-expect-error a peso float is not Centavos (npm run lint type-checks this line)
    expect(() => formatCentavos(pesos)).toThrow(RangeError);
    expect(formatCentavos(toCentavos(pesos))).toBe('$99.50');
  });
});

describe('centavo arithmetic', () => {
  it('adds and multiplies integers only', () => {
    expect(addCentavos(c(10), c(20), c(30))).toBe(60);
    expect(addCentavos()).toBe(0);
    expect(multiplyCentavos(c(8900), 3)).toBe(26700);
    expect(() => addCentavos(c(0.1), c(0.2))).toThrow(RangeError);
    expect(() => multiplyCentavos(c(100), 1.5)).toThrow(RangeError);
    expect(() => multiplyCentavos(c(Number.MAX_SAFE_INTEGER), 2)).toThrow(RangeError);
  });

  it('takes a percentage rounded half-up to the centavo', () => {
    expect(percentOfCentavos(c(33333), 10)).toBe(3333);
    expect(percentOfCentavos(c(10005), 10)).toBe(1001);
    expect(percentOfCentavos(c(10004), 10)).toBe(1000);
    expect(percentOfCentavos(c(5), 10)).toBe(1);
    expect(percentOfCentavos(c(4), 10)).toBe(0);
    expect(() => percentOfCentavos(c(100), 2.5)).toThrow(RangeError);
  });
});

describe('formatting', () => {
  it('formats MXN in es-MX with two decimals', () => {
    expect(formatMXN(1234.5)).toBe('$1,234.50');
    expect(formatMXN('2999')).toBe('$2,999.00');
    expect(formatMXN(0)).toBe('$0.00');
    expect(formatMXN(0.1 + 0.2)).toBe('$0.30');
    expect(formatMXN(1234567.891)).toBe('$1,234,567.89');
    expect(formatCentavos(c(9900))).toBe('$99.00');
    expect(formatCentavos(c(-1230))).toBe('-$12.30');
  });
});

describe('prices kept in the browser or in built files', () => {
  it('takes whole centavos, or pesos from data written before, and refuses anything else', () => {
    expect(savedPriceCentavos(129990, undefined)).toBe(129990);
    expect(savedPriceCentavos(0, undefined)).toBe(0);
    // Written before prices were centavos: pesos.
    expect(savedPriceCentavos(undefined, 1299.9)).toBe(129990);
    expect(savedPriceCentavos(null, 0.1)).toBe(10);
    // Centavos win when both are there.
    expect(savedPriceCentavos(500, 9)).toBe(500);
    for (const [cents, pesos] of [
      [12.5, undefined],
      [-1, undefined],
      ['100', undefined],
      [Number.MAX_SAFE_INTEGER + 1, undefined],
      [undefined, -1],
      [undefined, Number.NaN],
      [undefined, '12'],
      [undefined, undefined],
    ] as const) {
      expect(savedPriceCentavos(cents, pesos), `${String(cents)} / ${String(pesos)}`).toBeNull();
    }
  });
});
