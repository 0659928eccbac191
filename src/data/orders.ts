/**
 * The `orders` and `order_items` tables as the account page reads them. Orders are created and
 * paid on the server; a user only reads their own.
 */
import { getSupabase } from './supabase.ts';
import { parseAddressCopy, type AddressCopy } from '~/domain/address-copy.ts';
import type { DataResult } from './profiles.ts';
import { type Centavos, toCentavos, tryToCentavos } from '~/domain/money.ts';
import type { OrderStatus } from '~/domain/orders.ts';
import type { Database } from './database.types.ts';

/** `true` when A and B are the same union: each is assignable to the other. */
type SameUnion<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
/**
 * The statuses the code names (ORDER_STATUS in src/domain/orders.ts, which may not import
 * src/data) are exactly the labels of the migrations' order_status enum: a status added, renamed
 * or removed on one side only makes this line fail to type-check. (The enum's order is checked
 * against ORDER_STATUS by tests/db/order-status.test.ts.)
 * @public Read by the type checker, not by code.
 */
export type OrderStatusIsTheDatabaseEnum = Holds<SameUnion<OrderStatus, Database['public']['Enums']['order_status']>>;

/** An order as the account's history lists it. */
export interface AccountOrder {
  id: string;
  user_id: string;
  created_at: string;
  /** The stored total; null when the row has none. */
  totalCentavos: Centavos | null;
  status: string;
  paid_at: string | null;
  shipping_address_id: string | null;
  /** The address copy the order ships to (set when the payment starts and when it is paid). */
  shipping_address: AddressCopy | null;
  /** 'card', 'oxxo', 'paypal' or 'store_credit' (set by the server). */
  payment_method?: string | null;
  /** Months of 'meses sin intereses'; null: a single payment. */
  installments?: number | null;
  /**
   * The provider's internal name, read only so that orders without payment_method can still be
   * labelled (paymentMethodLabel in src/domain/payment-methods.ts); never shown.
   */
  payment_provider?: string | null;
}

/** One line of an order, with the product when it still exists. */
export interface OrderLine {
  id: string;
  quantity: number;
  /** The unit price the order was priced at. */
  priceCentavos: Centavos;
  product_id: string | null;
  product: { id: string; name: string; image: string | null } | null;
  /** The single card's offer as sold: 'LP · Inglés · Parallel'; null for a product sold as a whole. */
  offerLabel: string | null;
}

const ORDER_COLUMNS = 'id, user_id, created_at, total, status, paid_at, shipping_address_id, shipping_address, payment_method, installments, payment_provider';

/** The user's orders, newest first. */
export async function listOrders(userId: string): Promise<DataResult<AccountOrder[]>> {
  const { data, error } = await getSupabase().from('orders').select(ORDER_COLUMNS).eq('user_id', userId).order('created_at', { ascending: false });
  if (error) return { data: null, error };
  return {
    data: (data ?? []).map(({ total, ...row }) => ({ ...row, totalCentavos: tryToCentavos(total), shipping_address: parseAddressCopy(row.shipping_address) })),
    error: null,
  };
}

/** How many orders the user placed since `since` (the quick summary's last-30-days count). */
export async function countOrdersSince(userId: string, since: Date): Promise<DataResult<number>> {
  const { data, error } = await getSupabase().from('orders').select('id').eq('user_id', userId).gte('created_at', since.toISOString());
  if (error) return { data: null, error };
  return { data: (data ?? []).length, error: null };
}

/**
 * The lines of one order, each joined with its product (null when the product is gone) and with
 * the offer's label kept on the line when it sold a single card's offer.
 */
export async function listOrderLines(orderId: string): Promise<DataResult<OrderLine[]>> {
  const supabase = getSupabase();
  const { data, error } = await supabase.from('order_items').select('id, quantity, price, product_id, offer_label').eq('order_id', orderId);
  if (error) return { data: null, error };
  const items = data ?? [];
  const ids = [...new Set(items.map((item) => item.product_id).filter((id): id is string => !!id))];
  let products: { id: string; name: string; image: string | null }[] = [];
  if (ids.length > 0) {
    const result = await supabase.from('products').select('id, name, image').in('id', ids);
    if (result.error) return { data: null, error: result.error };
    products = result.data ?? [];
  }
  const byId = new Map(products.map((product) => [product.id, product]));
  return {
    data: items.map(({ price, offer_label, ...item }) => ({
      ...item,
      offerLabel: offer_label || null,
      priceCentavos: toCentavos(price),
      product: item.product_id ? (byId.get(item.product_id) ?? null) : null,
    })),
    error: null,
  };
}

/** One status change of an order. */
export interface OrderEvent {
  id: number;
  created_at: string;
  from_status: string | null;
  to_status: string;
  note: string | null;
}

/** Where an order is: its carrier and tracking number (once shipped) and every status change. */
export interface OrderTracking {
  carrier: string | null;
  tracking_number: string | null;
  events: OrderEvent[];
}

/** The shipping details and status history of one of the caller's orders. */
export async function loadOrderTracking(orderId: string): Promise<DataResult<OrderTracking>> {
  const supabase = getSupabase();
  const [order, events] = await Promise.all([
    supabase.from('orders').select('carrier, tracking_number').eq('id', orderId).maybeSingle(),
    supabase.from('order_events').select('id, created_at, from_status, to_status, note').eq('order_id', orderId).order('created_at').order('id'),
  ]);
  if (order.error) return { data: null, error: order.error };
  if (events.error) return { data: null, error: events.error };
  return {
    data: { carrier: order.data?.carrier ?? null, tracking_number: order.data?.tracking_number ?? null, events: events.data ?? [] },
    error: null,
  };
}
