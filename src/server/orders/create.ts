/**
 * POST /api/orders {items, coupon_code, waitlist}: the checkout's order, made by the database's
 * create_order_unless_sold_out acting as the signed-in shopper (their token; the database checks
 * it, prices the lines, takes the stock and applies every rule), with each server's sold-out gate
 * in front (./sold-out-gate.ts), so that a drop's late shoppers are told 'Agotado' without queueing
 * in the database behind the ones who buy.
 *
 * Only product ids, offer ids, quantities, the coupon's code and the waitlist choice are read from
 * the browser; never a price, a status or a user id. The answer is 201 {orderId}, or the
 * database's refusal as {error, message, details, hint} (details and hint as create_order raises
 * them, so the checkout marks the line it concerns), 409 for a refusal of the cart, 401 without a
 * valid session, 400 for a malformed request.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import type { Database } from '~/data/database.types.ts';
import { API_AUTH_TEXT } from '~/i18n/api.ts';
import { CHECKOUT_MESSAGES } from '~/i18n/checkout.ts';
import { bearerToken } from '../http/auth.ts';
import { ApiError, json, readJson } from '../http/json.ts';
import type { GateRefusal, SoldOutGate } from './sold-out-gate.ts';

/**
 * What the order endpoint needs: a database client with the anonymous key, shared by every request
 * of the process (each call carries its caller's token: the database acts as them), and this
 * server's gate.
 */
export interface OrderContext {
  database: SupabaseClient<Database>;
  gate: SoldOutGate;
}

/** The request's shape; create_order checks everything again (ids, quantities, the cart's size). */
const orderRequest = z.object({
  items: z
    .array(
      z.object({
        product_id: z.string().min(1).max(200),
        quantity: z.number().int().min(1).max(10000),
        offer_id: z.string().min(1).max(200).optional(),
      }),
    )
    .min(1)
    .max(50),
  coupon_code: z.string().max(100).nullable().optional(),
  waitlist: z.boolean().optional(),
});

/**
 * A sold-out refusal is the same for every shopper who sends that cart: a proxy in front may keep
 * it for the gate's second (nginx's `location = /api/orders`, keyed by the body). Every other
 * answer is personal and never kept (json's `no-store`).
 */
const SAME_FOR_EVERYONE = { 'cache-control': 'public, max-age=1' };

/** Refusals create_order raises about the request itself rather than the shop's stock or rules. */
const REQUEST_REFUSALS = new Set(['invalid_item', 'invalid_quantity', 'too_many_items', 'empty_order']);

/** The HTTP status of a refusal from the database. */
function statusOf(refusal: GateRefusal & { code?: string }, httpStatus: number): number {
  const details = refusal.details ?? '';
  // PostgREST's PGRST3xx: the token is missing, malformed or expired.
  if (details === 'not_authenticated' || httpStatus === 401 || refusal.code?.startsWith('PGRST3')) return 401;
  if (REQUEST_REFUSALS.has(details)) return 400;
  // Every refusal create_order raises on purpose (stock, limits, drops, preorders, coupons).
  if (refusal.code === 'P0001') return 409;
  return 502;
}

/** The endpoint: 201 {orderId}, or the refusal as JSON. */
export async function postOrder(request: Request, context: OrderContext): Promise<Response> {
  const token = bearerToken(request);
  if (!token || token.length > 8192) throw new ApiError(401, API_AUTH_TEXT.signInToCheckout, 'not_authenticated');
  const parsed = orderRequest.safeParse(await readJson(request, z.unknown()));
  if (!parsed.success) return json({ error: 'invalid_request', message: CHECKOUT_MESSAGES.saveItems, details: 'invalid_item', hint: null }, 400);
  const { items, coupon_code: couponCode = null, waitlist = false } = parsed.data;

  const known = context.gate.refusal(items, waitlist);
  if (known) return json({ error: 'out_of_stock', ...known }, 409, SAME_FOR_EVERYONE);

  const { data, error, status } = await context.database
    .rpc('create_order_unless_sold_out', { items, coupon_code: couponCode, ...(waitlist ? { waitlist } : {}) })
    .setHeader('Authorization', `Bearer ${token}`);
  if (error) {
    const refused = statusOf(error, status);
    if (refused === 401) throw new ApiError(401, API_AUTH_TEXT.sessionInvalid, 'not_authenticated');
    if (refused === 502) {
      console.error('[orders] create_order no respondió', error.message);
      throw new ApiError(502, CHECKOUT_MESSAGES.createProblem, 'upstream_error');
    }
    const soldOut = context.gate.learn(items, waitlist, error);
    if (soldOut) return json({ error: 'out_of_stock', ...soldOut }, 409, SAME_FOR_EVERYONE);
    const code = (error.details ?? '').split(':')[0] || 'refused';
    return json({ error: code, message: error.message, details: error.details ?? null, hint: error.hint ?? null }, refused);
  }
  if (typeof data !== 'string') throw new ApiError(502, CHECKOUT_MESSAGES.createProblem, 'upstream_error');
  return json({ orderId: data }, 201);
}
