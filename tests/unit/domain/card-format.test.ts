import { describe, expect, it } from 'vitest';
import { formatCardNumber, parseExpiry } from '~/domain/card-format.ts';

describe('card form helpers', () => {
  it('reads MM/AA and MM/AAAA', () => {
    expect(parseExpiry('04/31')).toEqual({ month: 4, year: 31 });
    expect(parseExpiry(' 4 / 2031 ')).toEqual({ month: 4, year: 2031 });
    expect(parseExpiry('0431')).toBeNull();
  });
  it('groups the number in fours', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242-42ab')).toBe('4242 42');
  });
});
