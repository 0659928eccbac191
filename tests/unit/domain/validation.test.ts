import { describe, expect, it } from 'vitest';
import { isValidPhone } from '~/domain/validation';

describe('phone', () => {
  it('accepts 7–20 characters of digits, spaces, parentheses, plus and hyphen', () => {
    expect(isValidPhone('5512345')).toBe(true);
    expect(isValidPhone('+52 (55) 1234-5678')).toBe(true);
    expect(isValidPhone('12345678901234567890')).toBe(true);
    expect(isValidPhone('551234')).toBe(false);
    expect(isValidPhone('123456789012345678901')).toBe(false);
    expect(isValidPhone('55.1234.5678')).toBe(false);
    expect(isValidPhone('55 1234 567x')).toBe(false);
  });
});
