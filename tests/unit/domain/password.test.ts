import { describe, expect, it } from 'vitest';
import { passwordScore, passwordStrength, STRENGTH_LABELS, strengthColor } from '~/domain/password';

describe('password strength', () => {
  it('gives one point per rule', () => {
    expect(passwordScore('')).toBe(0);
    expect(passwordScore('abc')).toBe(1); // lowercase
    expect(passwordScore('abcdefgh')).toBe(2); // length + lowercase
    expect(passwordScore('Abcdefgh')).toBe(3); // + uppercase
    expect(passwordScore('ABC1')).toBe(2); // uppercase + digit
    expect(passwordScore('!!!')).toBe(1); // symbol
    expect(passwordScore('Ñandú')).toBe(2); // accented letters count as upper/lowercase
  });

  it('caps the score at 4 even when all five rules hold', () => {
    expect(passwordScore('Abcdefg1')).toBe(4);
    expect(passwordScore('Cliente123!')).toBe(4);
  });

  it('labels scores Débil … Robusta by index', () => {
    expect(STRENGTH_LABELS).toEqual(['Débil', 'Básica', 'Aceptable', 'Fuerte', 'Robusta']);
    expect(passwordStrength('').label).toBe('Débil');
    expect(passwordStrength('abc').label).toBe('Básica');
    expect(passwordStrength('abcdefgh').label).toBe('Aceptable');
    expect(passwordStrength('Abcdefgh').label).toBe('Fuerte');
    expect(passwordStrength('Abcdefg1!').label).toBe('Robusta');
  });

  it('colours the bar pink below 2, amber below 3, green otherwise', () => {
    expect([0, 1, 2, 3, 4].map(strengthColor)).toEqual(['pink', 'pink', 'amber', 'green', 'green']);
    expect(passwordStrength('abc')).toEqual({ score: 1, label: 'Básica', color: 'pink', percent: 25 });
    expect(passwordStrength('abcdefgh').color).toBe('amber');
    expect(passwordStrength('Abcdefg1!')).toEqual({ score: 4, label: 'Robusta', color: 'green', percent: 100 });
  });
});
