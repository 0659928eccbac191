/**
 * Reward points spent as saldo a favor: the rate the shop sets (points_rate: so many points are
 * worth so many pesos, and the fewest points one redemption takes), what a number of points is
 * worth, and why a number cannot be redeemed. The database's redeem_points decides; the account
 * uses these to show the same numbers before asking.
 */
import { centavos, multiplyCentavos, type Centavos } from './money.ts';

/** The rate: `pointsPerBlock` points are worth `blockValue`; at least `minPoints` per redemption. */
export interface PointsRate {
  pointsPerBlock: number;
  blockValue: Centavos;
  minPoints: number;
}

/** Why a number of points cannot be redeemed (redeem_points' detail codes). */
export type RedemptionProblem = 'not_whole_blocks' | 'below_minimum' | 'insufficient_points';

/** The saldo a favor `points` whole blocks are worth (0 for anything that is not whole blocks). */
export function creditForPoints(points: number, rate: PointsRate): Centavos {
  if (!Number.isSafeInteger(points) || points <= 0 || points % rate.pointsPerBlock !== 0) return centavos(0);
  return multiplyCentavos(rate.blockValue, points / rate.pointsPerBlock);
}

/** The most a balance can redeem: its whole blocks, or 0 when they do not reach the minimum. */
export function redeemablePoints(balance: number, rate: PointsRate): number {
  if (!Number.isSafeInteger(balance) || balance <= 0) return 0;
  const whole = balance - (balance % rate.pointsPerBlock);
  return whole >= rate.minPoints ? whole : 0;
}

/** Why `points` cannot be redeemed from `balance`, in redeem_points' order; null when it can. */
export function redemptionProblem(points: number, balance: number, rate: PointsRate): RedemptionProblem | null {
  if (!Number.isSafeInteger(points) || points <= 0 || points % rate.pointsPerBlock !== 0) return 'not_whole_blocks';
  if (points < rate.minPoints) return 'below_minimum';
  if (points > balance) return 'insufficient_points';
  return null;
}
