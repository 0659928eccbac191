/**
 * What the server tests read back from the database with the service role: an order's columns,
 * a product's stock, a shopper's reward points and balance, the refunds of an order, and the
 * local stack's mailbox.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { toCentavos } from '~/domain/money.ts';
import type { TestStack } from '../../packages/local-supabase/tests/helpers.ts';

/** The `columns` (a PostgREST select list) of one order, typed as the caller names them. */
export async function orderColumns<T>(service: SupabaseClient, id: string, columns: string): Promise<T> {
  const { data } = await service.from('orders').select(columns).eq('id', id).single();
  return data as T;
}

/** An order's total in centavos, as Stripe is asked to charge it. */
export async function orderCents(service: SupabaseClient, id: string): Promise<number> {
  const { data } = await service.from('orders').select('total').eq('id', id).single();
  return toCentavos(data!.total);
}

/** The units of a product in stock. */
export async function productStock(service: SupabaseClient, productId: string): Promise<number> {
  const { data } = await service.from('products').select('stock').eq('id', productId).single();
  return Number(data!.stock);
}

/** A shopper's reward points (0 without a rewards row), read through `client`. */
export async function rewardPoints(client: SupabaseClient, userId: string): Promise<number> {
  const { data } = await client.from('rewards').select('points').eq('user_id', userId).maybeSingle();
  return Number(data?.points ?? 0);
}

/** A shopper's balance ('saldo a favor'; 0 without an account). */
export async function storeCreditBalance(service: SupabaseClient, userId: string): Promise<number> {
  const { data } = await service.from('store_credit_accounts').select('balance').eq('user_id', userId).maybeSingle();
  return Number(data?.balance ?? 0);
}

/** The `columns` of every refund of an order. */
export async function refundRows(service: SupabaseClient, orderId: string, columns: string): Promise<Array<Record<string, unknown>>> {
  const { data } = await service.from('payment_refunds').select(columns).eq('order_id', orderId);
  return (data ?? []) as unknown as Array<Record<string, unknown>>;
}

/** The first available product with at least `units` in stock and as its per-customer limit: the cheapest or the priciest. */
export async function productWithStock(service: SupabaseClient, units: number, price: 'cheapest' | 'priciest'): Promise<string> {
  const { data } = await service
    .from('products')
    .select('id')
    .eq('available', true)
    .gte('stock', units)
    .gte('limit_per_customer', units)
    // A sealed product: a single card is bought by offer (create_order refuses it without one).
    .not('product_type_id', 'like', '%single-card')
    .order('price', { ascending: price === 'cheapest' })
    .limit(1);
  if (!data?.[0]) throw new Error('la semilla no tiene un producto con stock suficiente');
  return data[0].id as string;
}

/** Releases a shopper's pending orders as the sweeper does once they expire (their stock comes back). */
export async function releasePendingOrders(service: SupabaseClient, userId: string): Promise<void> {
  const { error } = await service
    .from('orders')
    .update({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .eq('user_id', userId)
    .eq('status', 'Pendiente');
  if (error) throw new Error(error.message);
  await service.rpc('release_expired_orders');
}

/** The messages the local stack's mailbox holds for `to`. */
export async function mailboxMessages<T>(stack: Pick<TestStack, 'url' | 'serviceRoleKey'>, to: string): Promise<T[]> {
  const res = await fetch(`${stack.url}/mailbox/api/messages?to=${encodeURIComponent(to)}`, {
    headers: { apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` },
  });
  return (await res.json()) as T[];
}
