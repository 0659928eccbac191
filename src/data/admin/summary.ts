/**
 * The back office's 'Resumen': the numbers of admin_summary and the refunds and chargebacks to
 * review (admin_refunds_to_review), read with the admin's own session.
 */
import * as z from 'zod/mini';
import { getSupabase } from '../supabase.ts';
import { type Centavos, tryToCentavos } from '~/domain/money.ts';
import { ADMIN_SUMMARY_DATA_TEXT } from '~/i18n/admin.ts';

/** One day of sales. */
export interface SalesDay {
  day: string;
  orders: number;
  totalCentavos: Centavos;
}

/** admin_summary(). */
export interface Summary {
  sales: SalesDay[];
  toShip: number;
  pendingPayment: number;
  refundsToReview: number;
  lowStock: Array<{ id: string; name: string; stock: number }>;
  lowStockCount: number;
}

// admin_summary's jsonb (supabase/migrations/20261123002000_back_office.sql); a day's total is a numeric in pesos.
const pesoAmount = z.pipe(
  z.union([z.number(), z.string()]),
  z.transform((value, ctx): Centavos => {
    const cents = tryToCentavos(value);
    if (cents === null) {
      ctx.issues.push({ code: 'custom', message: ADMIN_SUMMARY_DATA_TEXT.invalidAmount, input: value });
      return z.NEVER;
    }
    return cents;
  }),
);
const count = z.number().check(z.int());
const summaryAnswer = z.object({
  sales: z.array(
    z.pipe(
      z.object({ day: z.string(), orders: count, total: pesoAmount }),
      z.transform(({ day, orders, total }): SalesDay => ({ day, orders, totalCentavos: total })),
    ),
  ),
  toShip: count,
  pendingPayment: count,
  refundsToReview: count,
  lowStock: z.array(z.object({ id: z.string(), name: z.string(), stock: count })),
  lowStockCount: count,
});

/** The 'Resumen' numbers; null when they cannot be read or do not have the expected shape. */
export async function loadSummary(): Promise<Summary | null> {
  const { data, error } = await getSupabase().rpc('admin_summary');
  if (error) return null;
  const parsed = summaryAnswer.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/**
 * Where a refund stands: retried by the shop ('processing', 'failed') or stopped for an admin
 * ('manual'); 'chargeback': a chargeback on an order that used the balance, whose balance is held
 * until an admin decides (its amount is the balance held).
 */
export type RefundReviewStatus = 'processing' | 'failed' | 'manual' | 'chargeback';

/** A refund that has not gone through yet, with whose money it is (admin_refunds_to_review). */
export interface RefundToReview {
  id: string;
  order_id: string;
  /** The provider the refund goes back through (only to name the method; never shown itself). */
  provider: string;
  amountCentavos: Centavos;
  status: RefundReviewStatus;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  customer_name: string | null;
  customer_email: string | null;
}

// admin_refunds_to_review's jsonb (supabase/migrations/20261125000100_store_credit_oxxo.sql, chargebacks since
// 20261129000200_system_actor_chargebacks_oxxo.sql); amount is a numeric in pesos.
const refundsToReviewAnswer = z.array(
  z.pipe(
    z.object({
      id: z.string(),
      order_id: z.string(),
      provider: z.string(),
      amount: pesoAmount,
      status: z.enum(['processing', 'failed', 'manual', 'chargeback']),
      attempts: count,
      last_error: z.nullable(z.string()),
      next_attempt_at: z.nullable(z.string()),
      customer_name: z.nullable(z.string()),
      customer_email: z.nullable(z.string()),
    }),
    z.transform(({ amount, ...row }): RefundToReview => ({ ...row, amountCentavos: amount })),
  ),
);

/**
 * The refunds the shop must keep an eye on, those that need an admin ('manual') first; null when
 * they cannot be read or do not have the expected shape.
 */
export async function loadRefundsToReview(): Promise<RefundToReview[] | null> {
  const { data, error } = await getSupabase().rpc('admin_refunds_to_review');
  if (error) return null;
  const parsed = refundsToReviewAnswer.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/**
 * An admin's decision on a chargeback's held balance: return it to the shopper or keep it
 * (admin_resolve_chargeback, with the admin's session); the database's message when refused.
 */
export async function resolveChargeback(id: string, returnCredit: boolean): Promise<{ ok: true } | { ok: false; message: string }> {
  const { error } = await getSupabase().rpc('admin_resolve_chargeback', { p_id: id, p_return_credit: returnCredit });
  return error ? { ok: false, message: error.message } : { ok: true };
}
