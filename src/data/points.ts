/**
 * Reward points spent as saldo a favor: the shop's rate (points_rate, read by everyone, changed
 * by admins only) and redeem_points, which converts the signed-in shopper's points in the
 * database. Peso amounts of the rate become centavos here.
 */
import { centavosOf } from './store-credit.ts';
import { getSupabase } from './supabase.ts';
import type { DataResult } from './profiles.ts';
import { databasePriceCentavos, toPesos, type Centavos } from '~/domain/money.ts';
import type { PointsRate, RedemptionProblem } from '~/domain/points.ts';

/** The rate and when it last changed. */
export interface PointsRateRow extends PointsRate {
  updatedAt: string;
}

const RATE_COLUMNS = 'points_per_block, pesos_per_block, min_points, updated_at';

function toRate(row: { points_per_block: number; pesos_per_block: number | string; min_points: number; updated_at: string }): PointsRateRow | null {
  const blockValue = databasePriceCentavos(row.pesos_per_block);
  if (blockValue === null || blockValue <= 0 || !(row.points_per_block > 0) || !(row.min_points > 0)) return null;
  return { pointsPerBlock: row.points_per_block, blockValue, minPoints: row.min_points, updatedAt: row.updated_at };
}

/** The shop's rate. */
export async function getPointsRate(): Promise<DataResult<PointsRateRow>> {
  const { data, error } = await getSupabase().from('points_rate').select(RATE_COLUMNS).maybeSingle();
  if (error) return { data: null, error };
  const rate = data ? toRate(data) : null;
  if (!rate) return { data: null, error: new Error('points_rate: no valid row') };
  return { data: rate, error: null };
}

/** What saving the rate came to: saved (the rate as stored), or refused with redeem's detail code. */
export type SaveRateAnswer =
  | { ok: true; rate: PointsRateRow }
  | { ok: false; problem: 'invalid_points_per_block' | 'invalid_pesos_per_block' | 'invalid_min_points' | 'forbidden' | 'failed' };

/** Changes the rate (admins only: row-level security answers no row to anyone else). */
export async function savePointsRate(rate: PointsRate): Promise<SaveRateAnswer> {
  const { data, error } = await getSupabase()
    .from('points_rate')
    .update({ points_per_block: rate.pointsPerBlock, pesos_per_block: toPesos(rate.blockValue), min_points: rate.minPoints })
    .eq('id', true)
    .select(RATE_COLUMNS);
  if (error) {
    const detail = error.details ?? '';
    if (detail === 'invalid_points_per_block' || detail === 'invalid_pesos_per_block' || detail === 'invalid_min_points') return { ok: false, problem: detail };
    if (error.code === '42501') return { ok: false, problem: 'forbidden' };
    console.error('No se pudo guardar la equivalencia de puntos', error);
    return { ok: false, problem: 'failed' };
  }
  const saved = data?.[0] ? toRate(data[0]) : null;
  return saved ? { ok: true, rate: saved } : { ok: false, problem: 'forbidden' };
}

/** A redemption as redeem_points answers it. */
interface Redemption {
  points: number;
  credit: Centavos;
  pointsBalance: number;
  creditBalance: Centavos;
}

/** Converted (or the same request answered again), or refused with why. */
type RedeemAnswer = { ok: true; redemption: Redemption } | { ok: false; problem: RedemptionProblem | 'failed' };

const PROBLEMS: readonly RedemptionProblem[] = ['not_whole_blocks', 'below_minimum', 'insufficient_points'];

function toRedemption(value: unknown): Redemption | null {
  if (typeof value !== 'object' || value === null) return null;
  const answer = value as Record<string, unknown>;
  const credit = centavosOf(answer.credit);
  const creditBalance = centavosOf(answer.credit_balance);
  const points = Number(answer.points);
  const pointsBalance = Number(answer.points_balance);
  if (credit === null || creditBalance === null || !Number.isSafeInteger(points) || !Number.isSafeInteger(pointsBalance)) return null;
  return { points, credit, pointsBalance, creditBalance };
}

/**
 * Converts `points` of the signed-in shopper into saldo a favor. `requestId` names the intent: the
 * same id sent again (a double click, a retry after a lost answer) converts nothing more and gets
 * the first answer.
 */
export async function redeemPoints(points: number, requestId: string): Promise<RedeemAnswer> {
  const { data, error } = await getSupabase().rpc('redeem_points', { points, request_id: requestId });
  if (error) {
    const problem = PROBLEMS.find((p) => p === error.details);
    if (problem) return { ok: false, problem };
    console.error('No se pudieron canjear los puntos', error);
    return { ok: false, problem: 'failed' };
  }
  const redemption = toRedemption(data);
  if (!redemption) {
    console.error('Respuesta de canje no válida', data);
    return { ok: false, problem: 'failed' };
  }
  return { ok: true, redemption };
}

/** A new request id: one per redemption the shopper means to make. */
export function newRedemptionRequest(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
