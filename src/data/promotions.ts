/**
 * The coupon check from the browser: check_promotion answers, for the cart's product ids and
 * quantities (prices are read by the database), what create_order would do with the code: the
 * promotion's type and value, which lines its scope matches and the amounts, or the refusal with
 * its Spanish message. The codes and their rules live only in the database.
 */
import { z } from 'zod';
import { getSupabase } from './supabase.ts';
import { type Centavos, toCentavos } from '~/domain/money.ts';
import { normalizeCouponCode, type AppliedPromotion } from '~/domain/pricing.ts';
import type { OrderItemRequest } from './checkout.ts';

/** The check's answer: the promotion and the lines it matches (in the order sent), or why not. */
type PromotionCheck =
  | { ok: true; promotion: AppliedPromotion; eligible: boolean[]; discountCentavos: Centavos; shippingCentavos: Centavos }
  | { ok: false; detail: string; message: string };

const amount = z.union([z.number(), z.string()]);
const answerSchema = z.union([
  z.looseObject({
    ok: z.literal(true),
    code: z.string(),
    type: z.enum(['percent', 'fixed', 'shipping']),
    value: amount,
    discount: amount,
    shipping: amount,
    eligible: z.array(z.boolean()),
  }),
  z.looseObject({ ok: z.literal(false), detail: z.string().nullable(), message: z.string() }),
]);

/** Asks the database about a code for these cart lines; null when it could not be asked. */
export async function checkPromotion(code: string, items: readonly OrderItemRequest[]): Promise<PromotionCheck | null> {
  try {
    const { data, error } = await getSupabase().rpc('check_promotion', { code: normalizeCouponCode(code), items: [...items] });
    return error ? null : readCheck(data, items.length);
  } catch {
    return null;
  }
}

function readCheck(data: unknown, lines: number): PromotionCheck | null {
  const parsed = answerSchema.safeParse(data);
  if (!parsed.success) return null;
  const answer = parsed.data;
  if (!answer.ok) return { ok: false, detail: answer.detail ?? '', message: answer.message };
  if (answer.eligible.length !== lines) return null;
  const value = answer.type === 'fixed' ? toCentavos(answer.value) : Number(answer.value);
  return {
    ok: true,
    promotion: { code: answer.code, type: answer.type, value },
    eligible: answer.eligible,
    discountCentavos: toCentavos(answer.discount),
    shippingCentavos: toCentavos(answer.shipping),
  };
}
