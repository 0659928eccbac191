import { describe, expect, it } from 'vitest';
import { percent } from '~/domain/percent';

describe('percent', () => {
  it('is part of whole in hundredths, unrounded', () => {
    expect(percent(1, 4)).toBe(25);
    expect(percent(4, 4)).toBe(100);
    expect(percent(0, 7)).toBe(0);
    expect(percent(1, 3)).toBeCloseTo(33.333, 3);
    expect(percent(150_000, 299_900)).toBe((150_000 * 100) / 299_900);
  });
});
