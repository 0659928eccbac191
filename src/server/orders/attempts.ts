/**
 * The provider payments opened for an order (payment_attempts): recorded when an endpoint opens
 * one, closed when it is used or given up, so the sweeper can close those an order no longer needs.
 */
import type { ServerContext } from '../context.ts';

/** Records a provider payment opened for an order, so the sweeper can close it if unused. */
export async function recordAttempt(ctx: ServerContext, orderId: string, provider: string, ref: string): Promise<void> {
  const { error } = await ctx.admin
    .from('payment_attempts')
    .upsert({ order_id: orderId, provider, ref }, { onConflict: 'provider,ref', ignoreDuplicates: true });
  if (error) throw new Error(`payment_attempts: ${error.message}`);
}

/** Marks a recorded provider payment as used or closed. */
export async function closeAttempt(ctx: ServerContext, provider: string, ref: string, status: 'succeeded' | 'canceled'): Promise<void> {
  const { error } = await ctx.admin.from('payment_attempts').update({ status }).eq('provider', provider).eq('ref', ref);
  if (error) throw new Error(`payment_attempts: ${error.message}`);
}
