import { describe, expect, it } from 'vitest';
import { centavos } from '~/domain/money.ts';
import { creditForPoints, redeemablePoints, redemptionProblem, type PointsRate } from '~/domain/points.ts';

const RATE: PointsRate = { pointsPerBlock: 100, blockValue: centavos(1000), minPoints: 100 };
const ODD_RATE: PointsRate = { pointsPerBlock: 50, blockValue: centavos(750), minPoints: 150 };

describe('creditForPoints', () => {
  it('is the block value times the whole blocks', () => {
    expect(creditForPoints(100, RATE)).toBe(1000);
    expect(creditForPoints(1200, RATE)).toBe(12000);
    expect(creditForPoints(150, ODD_RATE)).toBe(2250);
  });

  it('is zero for what is not whole blocks', () => {
    for (const points of [0, -100, 150, 99.5, Number.NaN]) expect(creditForPoints(points, RATE)).toBe(0);
  });
});

describe('redeemablePoints', () => {
  it('is the whole blocks of the balance', () => {
    expect(redeemablePoints(1234, RATE)).toBe(1200);
    expect(redeemablePoints(100, RATE)).toBe(100);
    expect(redeemablePoints(199, ODD_RATE)).toBe(150);
  });

  it('is zero below the minimum', () => {
    expect(redeemablePoints(99, RATE)).toBe(0);
    expect(redeemablePoints(0, RATE)).toBe(0);
    expect(redeemablePoints(149, ODD_RATE)).toBe(0);
  });
});

describe('redemptionProblem', () => {
  it('says why, in the database’s order', () => {
    expect(redemptionProblem(150, 1000, RATE)).toBe('not_whole_blocks');
    expect(redemptionProblem(0, 1000, RATE)).toBe('not_whole_blocks');
    expect(redemptionProblem(100, 1000, ODD_RATE)).toBe('below_minimum');
    expect(redemptionProblem(1100, 1000, RATE)).toBe('insufficient_points');
  });

  it('is null for whole blocks between the minimum and the balance', () => {
    expect(redemptionProblem(100, 100, RATE)).toBeNull();
    expect(redemptionProblem(1000, 1000, RATE)).toBeNull();
    expect(redemptionProblem(150, 200, ODD_RATE)).toBeNull();
  });
});
