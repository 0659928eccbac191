/**
 * The shopper's side of the server tests, as the browser does it against the local stack: a
 * supabase-js client on the anon key, signing in with e-mail and password, and a pending order
 * made through the `create_order` rpc with the shipping address the shipping step sets.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { DEMO_ADDRESS_IDS } from '../../scripts/seed/constants.ts';
import type { TestStack } from '../../packages/local-supabase/tests/helpers.ts';

/** Where the stack answers and its public key: all a browser client needs. */
export type StackAddress = Pick<TestStack, 'url' | 'anonKey'>;

/**
 * A client on the anon key that keeps no session on disk and never refreshes its token; with an
 * access token, every request carries it (the client acts as that user without signing in).
 */
export function anonClient(stack: StackAddress, accessToken?: string): SupabaseClient {
  return createClient(stack.url, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    ...(accessToken === undefined ? {} : { global: { headers: { Authorization: `Bearer ${accessToken}` } } }),
  });
}

/** Signs `user` in on a new anon client; its access token and the client, now acting as the user. */
export async function signIn(stack: StackAddress, user: { email: string; password: string }): Promise<{ token: string; client: SupabaseClient }> {
  const client = anonClient(stack);
  const { data, error } = await client.auth.signInWithPassword({ email: user.email, password: user.password });
  if (error || !data.session) throw error ?? new Error(`sin sesión para ${user.email}`);
  return { token: data.session.access_token, client };
}

export interface OrderItem {
  product_id: string;
  quantity: number;
  /** One offer of a single card (public.card_offers.id). */
  offer_id?: string;
}

export interface PendingOrderOptions {
  /** The coupon code given to create_order (none by default). */
  coupon?: string | null;
  /** The shipping address set on the order (the demo shopper's home address by default). */
  addressId?: string;
}

/** A new pending order of the signed-in `client` through create_order, with its shipping address set (paying needs one). */
export async function newPendingOrder(client: SupabaseClient, items: OrderItem[], options: PendingOrderOptions = {}): Promise<string> {
  const { data, error } = await client.rpc('create_order', { items, coupon_code: options.coupon ?? null });
  if (error) throw new Error(error.message);
  const address = await client
    .from('orders')
    .update({ shipping_address_id: options.addressId ?? DEMO_ADDRESS_IDS.home })
    .eq('id', data);
  if (address.error) throw new Error(address.error.message);
  return data as string;
}
