/**
 * The caller's customer at the card provider (stored on the profile as stripe_customer_id): found
 * or created on first use, and the checks that a customer or a saved card a request names is the
 * caller's own.
 */
import { PAYMENTS_CUSTOMER_TEXT } from '~/i18n/payments.ts';
import type { ServerContext } from '../context.ts';
import type { Caller } from '../http/auth.ts';
import { ApiError } from '../http/json.ts';
import { provider, requireCard } from './guards.ts';

/** The caller's provider customer id as stored on the profile, or null. */
export async function storedCustomerId(ctx: ServerContext, userId: string): Promise<string | null> {
  const { data, error } = await ctx.admin.from('profiles').select('stripe_customer_id').eq('id', userId).maybeSingle();
  if (error) throw new Error(`profiles: ${error.message}`);
  const value = data?.stripe_customer_id;
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * The caller's customer at the card provider, created the first time one is needed and stored on
 * the profile (only the service role may write stripe_customer_id).
 */
export async function ensureCustomer(ctx: ServerContext, caller: Caller): Promise<string> {
  const card = requireCard(ctx);
  const stored = await storedCustomerId(ctx, caller.id);
  if (stored && (await card.customerExists(stored))) return stored;
  const created = await card.createCustomer(caller);
  const { error } = await ctx.admin.from('profiles').update({ stripe_customer_id: created }).eq('id', caller.id);
  if (error) throw new Error(`profiles: ${error.message}`);
  return created;
}

/** Refuses (403) a customer id that is not the caller's own. */
export async function requireOwnCustomer(ctx: ServerContext, caller: Caller, customerId: string): Promise<void> {
  const stored = await storedCustomerId(ctx, caller.id);
  if (!stored || stored !== customerId) throw new ApiError(403, PAYMENTS_CUSTOMER_TEXT.customerNotYours, 'forbidden');
}

/** The customer a saved card belongs to, when it is the caller's (404 unknown, 403 someone else's). */
export async function requireOwnCard(ctx: ServerContext, caller: Caller, pmId: string): Promise<string> {
  const owner = await provider(() => requireCard(ctx).paymentMethodCustomer(pmId));
  if (!owner) throw new ApiError(404, PAYMENTS_CUSTOMER_TEXT.paymentMethodNotFound, 'payment_method_not_found');
  await requireOwnCustomer(ctx, caller, owner);
  return owner;
}
