import { describe, expect, it } from 'vitest';
import { checkClabe, clabeBank, clabeCheckDigit, clabeDigits } from '~/domain/clabe';
import { CLABE_TEXT } from '~/i18n/buylist';

/** A CLABE with its check digit, computed independently of the module: Σ (dᵢ·wᵢ mod 10). */
function withCheck(first17: string): string {
  const weights = [3, 7, 1];
  const sum = [...first17].reduce((total, digit, i) => total + ((Number(digit) * weights[i % 3]!) % 10), 0);
  return `${first17}${(10 - (sum % 10)) % 10}`;
}

describe('clabeCheckDigit', () => {
  it('computes the published examples', () => {
    // Worked examples of the ABM rule: 002… ends in 8, 032180000118359719 ends in 9.
    expect(clabeCheckDigit('00200000000000000')).toBe(8);
    expect(clabeCheckDigit('03218000011835971')).toBe(9);
  });

  it('is 0 when the weighted sum is a multiple of 10', () => {
    expect(clabeCheckDigit('00000000000000000')).toBe(0);
    // 1·3 + 3·7 mod 10 (=1) + … : 3 + 1 + 6 (6·1) = 10 → 0.
    expect(clabeCheckDigit('13600000000000000')).toBe(0);
  });
});

describe('checkClabe', () => {
  it('accepts a valid CLABE and names its bank', () => {
    expect(checkClabe('002000000000000008')).toEqual({ ok: true, clabe: '002000000000000008', bank: 'Banamex' });
    const bbva = withCheck('01218000118359719'.slice(0, 17));
    expect(checkClabe(bbva)).toEqual({ ok: true, clabe: bbva, bank: 'BBVA México' });
  });

  it('reads the digits through spaces and dashes', () => {
    const nu = withCheck('63818000123456789');
    const typed = `${nu.slice(0, 3)} ${nu.slice(3, 6)}-${nu.slice(6)}`;
    expect(checkClabe(typed)).toEqual({ ok: true, clabe: nu, bank: 'Nu México' });
  });

  it('asks for 18 digits', () => {
    expect(checkClabe('')).toEqual({ ok: false, message: CLABE_TEXT.length });
    expect(checkClabe('00200000000000000')).toEqual({ ok: false, message: 'CLABE de 18 dígitos' });
    expect(checkClabe('0020000000000000081')).toEqual({ ok: false, message: 'CLABE de 18 dígitos' });
    expect(checkClabe('00200000000000000a')).toEqual({ ok: false, message: 'CLABE de 18 dígitos' });
  });

  it('refuses every wrong check digit', () => {
    for (let digit = 0; digit <= 9; digit++) {
      const clabe = `00200000000000000${digit}`;
      expect(checkClabe(clabe).ok).toBe(digit === 8);
      if (digit !== 8) expect(checkClabe(clabe)).toEqual({ ok: false, message: 'CLABE no válida: revisa el dígito verificador' });
    }
  });

  it('catches two swapped digits', () => {
    const good = withCheck('07218000118359712');
    const swapped = `${good.slice(0, 7)}${good[8]}${good[7]}${good.slice(9)}`;
    expect(swapped).not.toBe(good);
    expect(checkClabe(swapped)).toEqual({ ok: false, message: CLABE_TEXT.checkDigit });
  });

  it('refuses a bank code no bank has', () => {
    expect(checkClabe(withCheck('99918000118359712'))).toEqual({ ok: false, message: CLABE_TEXT.unknownBank });
  });
});

describe('clabeBank', () => {
  it('names the common banks from the first three digits', () => {
    const banks: Record<string, string> = {
      '002': 'Banamex',
      '012': 'BBVA México',
      '014': 'Santander',
      '021': 'HSBC',
      '030': 'Banco del Bajío',
      '036': 'Inbursa',
      '044': 'Scotiabank',
      '058': 'Banregio',
      '062': 'Afirme',
      '072': 'Banorte',
      '127': 'Banco Azteca',
      '137': 'BanCoppel',
      '638': 'Nu México',
      '646': 'STP',
      '706': 'Arcus',
    };
    for (const [code, name] of Object.entries(banks)) expect(clabeBank(`${code}180001183597190`)).toBe(name);
    expect(clabeBank('000180001183597190')).toBeNull();
    expect(clabeBank('toString0000000000')).toBeNull();
  });
});

describe('clabeDigits', () => {
  it('drops spaces and dashes only', () => {
    expect(clabeDigits(' 002 180-0001 ')).toBe('0021800001');
    expect(clabeDigits('002.180')).toBe('002.180');
  });
});
