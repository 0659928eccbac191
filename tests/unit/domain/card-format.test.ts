import { describe, expect, it } from 'vitest';
import { formatCardNumber, formatExpiry, parseExpiry } from '~/domain/card-format.ts';

/** Types `keys` one at a time into the expiry field, as the form does, and returns each text shown. */
function typeExpiry(keys: string, start = ''): string[] {
  const shown: string[] = [];
  let text = start;
  for (const key of keys) {
    text = key === '\b' ? formatExpiry(text.slice(0, -1), text) : formatExpiry(text + key, text);
    shown.push(text);
  }
  return shown;
}

describe('card number', () => {
  it('groups the number in fours as it is typed', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242-42ab')).toBe('4242 42');
    expect(formatCardNumber('42424')).toBe('4242 4');
    expect(formatCardNumber('4242')).toBe('4242');
    expect(formatCardNumber('')).toBe('');
  });

  it('stops at 19 digits', () => {
    expect(formatCardNumber('4'.repeat(25))).toBe('4444 4444 4444 4444 444');
  });

  it('groups American Express 4-6-5, at most 15 digits', () => {
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatCardNumber('3782 8224 6310 005')).toBe('3782 822463 10005');
    expect(formatCardNumber('34000000000000099')).toBe('3400 000000 00000');
    expect(formatCardNumber('37828')).toBe('3782 8');
    expect(formatCardNumber('3782822')).toBe('3782 822');
    expect(formatCardNumber('37828224631')).toBe('3782 822463 1');
  });

  it('keeps a pasted or retyped grouped number as it is', () => {
    for (const shown of ['4242 4242 4242 4242', '3782 822463 10005']) expect(formatCardNumber(shown)).toBe(shown);
  });
});

describe('expiry field', () => {
  it("shows '12/30' for '1230' typed digit by digit, adding the slash itself", () => {
    expect(typeExpiry('1230')).toEqual(['1', '12/', '12/3', '12/30']);
  });

  it("shows '12/30' for '12/30' and '12 30' typed key by key", () => {
    expect(typeExpiry('12/30').at(-1)).toBe('12/30');
    expect(typeExpiry('12 30').at(-1)).toBe('12/30');
  });

  it('shows the same for the whole text at once (paste, autofill, fill)', () => {
    for (const value of ['1230', '12 30', '12/30', ' 12 / 30 ']) expect(formatExpiry(value)).toBe('12/30');
    expect(formatExpiry('12/2030')).toBe('12/2030');
    expect(formatExpiry('122030')).toBe('12/2030');
    expect(formatExpiry('12/20301')).toBe('12/2030');
  });

  it('pads a month that can only have one digit', () => {
    expect(typeExpiry('431')).toEqual(['04/', '04/3', '04/31']);
    expect(typeExpiry('1/31')).toEqual(['1', '01/', '01/3', '01/31']);
    expect(typeExpiry('0')).toEqual(['0']);
    expect(formatExpiry('4/31')).toBe('04/31');
  });

  it('lets backspace go through the slash', () => {
    expect(typeExpiry('\b\b\b\b\b', '12/30')).toEqual(['12/3', '12/', '12', '1', '']);
    // After deleting the slash, the next digit brings it back.
    expect(typeExpiry('\b3', '12/')).toEqual(['12', '12/3']);
  });

  it('drops letters', () => {
    expect(formatExpiry('ab12cd30')).toBe('12/30');
    expect(formatExpiry('abc')).toBe('');
  });
});

describe('reading the expiry', () => {
  it("reads '1230', '12 30' and '12/30' alike", () => {
    for (const value of ['1230', '12 30', '12/30', ' 12 / 30 ', '12-30']) expect(parseExpiry(value)).toEqual({ month: 12, year: 30 });
  });

  it('reads a four-digit year and a one-digit month followed by a separator', () => {
    expect(parseExpiry('04/31')).toEqual({ month: 4, year: 31 });
    expect(parseExpiry('0431')).toEqual({ month: 4, year: 31 });
    expect(parseExpiry(' 4 / 2031 ')).toEqual({ month: 4, year: 2031 });
    expect(parseExpiry('122030')).toEqual({ month: 12, year: 2030 });
  });

  it('reads back everything the field shows', () => {
    for (const value of ['1230', '12 30', '12/30', '431', '1/31', '122030']) expect(parseExpiry(formatExpiry(value))).not.toBeNull();
  });

  it('refuses what is not a month of a year', () => {
    for (const value of ['', '12', '12/', '12/3', '123', '12/203', '1/2/30', 'ab/cd', '13/30', '00/30', '431', '12/30/1']) {
      expect(parseExpiry(value), value).toBeNull();
    }
  });
});
