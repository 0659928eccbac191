import { describe, expect, it } from 'vitest';
import {
  formatVoucherExpiry,
  groupReference,
  installmentLabel,
  installmentSchedule,
  installmentsOffered,
  isInstallmentCount,
  monthlyAmount,
  oxxoAllowed,
  oxxoDeadline,
  oxxoVoucherExpiry,
} from '~/domain/mexican-payments.ts';
import { MEXICAN_PAYMENT_MESSAGES } from '~/i18n/checkout.ts';

import type { Centavos } from '~/domain/money.ts';
// Amounts in centavos as the tests write them; values the code must refuse are passed unchecked.
const c = (n: number) => n as Centavos;

describe('meses sin intereses', () => {
  it('charges the rounded share every month and lets the last month absorb the remainder', () => {
    expect(installmentSchedule(c(349_900), 6)).toEqual([58_317, 58_317, 58_317, 58_317, 58_317, 58_315]);
    expect(installmentSchedule(c(100_000), 3)).toEqual([33_333, 33_333, 33_334]);
    expect(installmentSchedule(c(30_000), 24).slice(0, 2)).toEqual([1_250, 1_250]);
    expect(installmentSchedule(c(30_001), 24).at(-1)).toBe(30_001 - 1_250 * 23);
  });

  it('always adds up to the total, for every plan and many totals', () => {
    for (let total = 30_000; total < 2_000_000; total += 7_919) {
      for (const months of [3, 6, 9, 12, 18, 24]) {
        const schedule = installmentSchedule(c(total), months);
        expect(schedule).toHaveLength(months);
        expect(schedule.reduce((a, b) => a + b, 0)).toBe(total);
        expect(Math.abs(schedule.at(-1)! - schedule[0]!)).toBeLessThan(months);
      }
    }
  });

  it('labels a plan with its monthly amount in MXN', () => {
    expect(monthlyAmount(c(349_900), 6)).toBe(58_317);
    expect(installmentLabel(c(349_900), 6)).toBe('6 meses sin intereses de $583.17');
    expect(installmentLabel(c(1_200_000), 12)).toBe('12 meses sin intereses de $1,000.00');
  });

  it('is offered from $300.00 and only for the plans that exist', () => {
    expect(installmentsOffered(c(29_999))).toBe(false);
    expect(installmentsOffered(c(30_000))).toBe(true);
    expect(installmentsOffered(c(Number.NaN))).toBe(false);
    expect([3, 6, 9, 12, 18, 24].every(isInstallmentCount)).toBe(true);
    expect([0, 1, 2, 4, 36, '6', null].some(isInstallmentCount)).toBe(false);
  });

  it('refuses nonsense', () => {
    expect(() => installmentSchedule(c(-1), 3)).toThrow();
    expect(() => installmentSchedule(c(100), 0)).toThrow();
    expect(() => installmentSchedule(c(1.5), 3)).toThrow();
  });
});

describe('OXXO', () => {
  it('takes totals from $10.00 to $10,000.00', () => {
    expect(oxxoAllowed(c(999))).toBe(false);
    expect(oxxoAllowed(c(1_000))).toBe(true);
    expect(oxxoAllowed(c(1_000_000))).toBe(true);
    expect(oxxoAllowed(c(1_000_001))).toBe(false);
    expect(MEXICAN_PAYMENT_MESSAGES.oxxoOutOfRange).toBe('El pago en efectivo en OXXO solo está disponible para pedidos de $10.00 a $10,000.00.');
  });

  it('groups the reference in fours', () => {
    expect(groupReference('12345678901234567890'.slice(0, 18))).toBe('1234 5678 9012 3456 78');
    expect(groupReference('93000262240312')).toBe('9300 0262 2403 12');
    expect(groupReference('1234 5678-9012')).toBe('1234 5678 9012');
  });

  it('expires at 23:59 Mexico City time three days later, shown in es-MX', () => {
    // 20:00 in Mexico City on 24 November is 02:00 UTC on the 25th.
    const expiry = oxxoVoucherExpiry(new Date('2026-11-25T02:00:00Z'));
    expect(expiry.toISOString()).toBe('2026-11-28T05:59:59.000Z');
    expect(formatVoucherExpiry(expiry.toISOString())).toBe('27 de noviembre de 2026 a las 23:59');
    expect(oxxoDeadline(expiry.toISOString())).toBe('Paga en cualquier tienda OXXO antes del 27 de noviembre de 2026 a las 23:59.');
  });
});
