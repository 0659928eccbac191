/**
 * Checkout data from the browser: creating the order through the database's create_order (the
 * browser sends product ids and quantities only, never prices), reading the caller's order and pointing
 * it at an address. The payment endpoints themselves are called through ./api.ts.
 */
import { getSupabase } from './supabase.ts';
import { PRODUCT_MESSAGES } from '../domain/products.ts';
import { MESSAGES } from '../domain/validation.ts';
import { REFUND_MESSAGES, ORDER_STATUS } from '../domain/orders.ts';
import { type Centavos, toCentavos } from '../domain/money.ts';

export const CHECKOUT_MESSAGES = {
  createOrder: 'Error al crear el pedido.',
  saveItems: 'Error al guardar los productos del pedido.',
  createProblem: 'Ocurrió un problema al crear tu pedido.',
  signIn: 'Debes iniciar sesión para finalizar tu compra.',
  stripeNotReady: 'Stripe no está listo aún.',
  noClientSecret: 'No se recibió clientSecret.',
  paymentFailed: 'Error al procesar el pago.',
  paymentError: 'Hubo un error al procesar el pago.',
  paypalError: 'Hubo un error con PayPal.',
  paypalNotConfigured: 'PayPal no está configurado.',
  cardUnavailable: 'El pago con tarjeta no está disponible.',
  lateRefund: REFUND_MESSAGES.late_payment,
  walletUnavailable: 'Google Pay o Apple Pay no están disponibles en este dispositivo.',
  loadingConfirmation: 'Cargando confirmación...',
  emptyCart: 'Tu carrito está vacío.',
  maxStock: PRODUCT_MESSAGES.maxStock,
  selectAddress: MESSAGES.selectAddress,
} as const;

/** Why create_order refused one line of the cart. */
export interface LineRefusal {
  productId: string;
  kind: 'out_of_stock' | 'limit_exceeded' | 'unavailable' | 'unknown_product';
  message: string;
  /** Units still available or allowed, when the database says. */
  remaining: number | null;
}

const LINE_KINDS = ['out_of_stock', 'limit_exceeded', 'unavailable', 'unknown_product'] as const;
const ITEM_KINDS = ['invalid_item', 'invalid_quantity', 'too_many_items', 'empty_order'];

/** Reads create_order's refusal: a Spanish message, and the line it concerns when there is one. */
export function parseCreateOrderError(error: { message?: string; details?: string | null; hint?: string | null }): { message: string; line: LineRefusal | null } {
  const details = error.details ?? '';
  const [kind, ...rest] = details.split(':');
  const productId = rest.join(':');
  if ((LINE_KINDS as readonly string[]).includes(kind ?? '') && productId) {
    const remaining = error.hint !== null && error.hint !== undefined && /^\d+$/.test(error.hint) ? Number(error.hint) : null;
    const message = error.message || CHECKOUT_MESSAGES.createOrder;
    return { message, line: { productId, kind: kind as LineRefusal['kind'], message, remaining } };
  }
  if (details === 'not_authenticated') return { message: CHECKOUT_MESSAGES.signIn, line: null };
  if (ITEM_KINDS.includes(details)) return { message: CHECKOUT_MESSAGES.saveItems, line: null };
  return { message: CHECKOUT_MESSAGES.createOrder, line: null };
}

/** The outcome of creating an order. */
export type CreateOrderResult =
  | { ok: true; orderId: string }
  | { ok: false; message: string; line: LineRefusal | null };

/** Creates the caller's order from product ids and quantities; the database prices it. */
export async function createOrder(items: Array<{ product_id: string; quantity: number }>, couponCode: string | null): Promise<CreateOrderResult> {
  try {
    const { data, error } = await getSupabase().rpc('create_order', { items, coupon_code: couponCode });
    if (error) return { ok: false, ...parseCreateOrderError(error) };
    if (typeof data !== 'string') return { ok: false, message: CHECKOUT_MESSAGES.createOrder, line: null };
    return { ok: true, orderId: data };
  } catch {
    return { ok: false, message: CHECKOUT_MESSAGES.createProblem, line: null };
  }
}

/** Cancels the caller's pending order (its stock returns at once). */
export async function cancelOrder(orderId: string): Promise<void> {
  await getSupabase().rpc('cancel_order', { order_id: orderId });
}

/** One product line of an order. */
export interface CheckoutOrderLine {
  id: string;
  product_id: string | null;
  quantity: number;
  /** The unit price the order was priced at. */
  priceCentavos: Centavos;
  name: string;
  image: string | null;
}

/** The address an order ships to. */
export interface CheckoutAddress {
  id: string;
  label: string | null;
  street: string;
  city: string;
  state: string;
  zip: string;
  country: string;
}

/** An order as the checkout shows it: the stored amounts, never recomputed. */
export interface CheckoutOrder {
  id: string;
  created_at: string;
  status: string;
  paid_at: string | null;
  expires_at: string | null;
  subtotalCentavos: Centavos;
  discountCentavos: Centavos;
  shippingCentavos: Centavos;
  totalCentavos: Centavos;
  coupon_code: string | null;
  shipping_address_id: string | null;
  lines: CheckoutOrderLine[];
  address: CheckoutAddress | null;
  /** 'card', 'oxxo' or 'paypal' once a payment started or ended (the server sets it). */
  payment_method?: string | null;
  /** Months of 'meses sin intereses' the card was charged in; null: a single payment. */
  installments?: number | null;
  /** The OXXO voucher while the order waits for the store payment. */
  oxxo_voucher?: CheckoutVoucher | null;
}

/** An OXXO voucher as the server stored it on the order (amount in centavos). */
export interface CheckoutVoucher {
  reference: string;
  expiresAt: string;
  amount: number;
  hostedVoucherUrl: string | null;
  paymentIntentId: string;
}

/** The caller's order with its lines and address; null when it is not theirs or does not exist. */
export async function loadOrder(orderId: string): Promise<CheckoutOrder | null> {
  const supabase = getSupabase();
  const { data, error } = await supabase
    .from('orders')
    .select(
      'id, created_at, status, paid_at, expires_at, subtotal, discount, shipping, total, coupon_code, shipping_address_id, shipping_address, payment_method, installments, oxxo_voucher, order_items(id, product_id, quantity, price, products(name, image))',
    )
    .eq('id', orderId)
    .maybeSingle();
  if (error) throw new Error(error.message);
  if (!data) return null;
  const row = data as Record<string, unknown> & { order_items?: Array<Record<string, unknown>> };
  let address: CheckoutAddress | null = null;
  const copy = row.shipping_address as Omit<CheckoutAddress, 'id'> | null;
  if (row.status !== ORDER_STATUS.pending && copy && typeof copy === 'object') {
    // Once paid, the order shows its own copy, whatever the address book says now.
    address = { ...copy, id: typeof row.shipping_address_id === 'string' ? row.shipping_address_id : '' };
  } else if (typeof row.shipping_address_id === 'string') {
    const found = await supabase
      .from('addresses')
      .select('id, label, street, city, state, zip, country')
      .eq('id', row.shipping_address_id)
      .maybeSingle();
    address = (found.data as CheckoutAddress | null) ?? null;
  }
  return {
    id: String(row.id),
    created_at: String(row.created_at),
    status: String(row.status),
    paid_at: (row.paid_at as string | null) ?? null,
    expires_at: (row.expires_at as string | null) ?? null,
    subtotalCentavos: toCentavos(String(row.subtotal)),
    discountCentavos: toCentavos(String(row.discount)),
    shippingCentavos: toCentavos(String(row.shipping)),
    totalCentavos: toCentavos(String(row.total)),
    coupon_code: (row.coupon_code as string | null) ?? null,
    shipping_address_id: (row.shipping_address_id as string | null) ?? null,
    address,
    payment_method: (row.payment_method as string | null) ?? null,
    installments: typeof row.installments === 'number' ? row.installments : null,
    oxxo_voucher: (row.oxxo_voucher as CheckoutVoucher | null) ?? null,
    lines: (row.order_items ?? []).map((item) => {
      const product = item.products as { name?: string; image?: string } | null;
      return {
        id: String(item.id),
        product_id: (item.product_id as string | null) ?? null,
        quantity: Number(item.quantity),
        priceCentavos: toCentavos(String(item.price)),
        name: product?.name ?? 'Producto no disponible',
        image: product?.image ?? null,
      };
    }),
  };
}

/** Points the caller's order at one of their addresses. */
export async function setOrderAddress(orderId: string, addressId: string): Promise<boolean> {
  const { error } = await getSupabase().from('orders').update({ shipping_address_id: addressId }).eq('id', orderId);
  return !error;
}

/** Price, stock and availability of cart products right now. */
export interface LiveCartProduct {
  id: string;
  name: string;
  priceCentavos: Centavos;
  stock: number | null;
  available: boolean;
  image: string | null;
}

/** Live rows for the cart's products (missing ids are simply absent). Throws on network errors. */
export async function fetchCartProducts(ids: string[]): Promise<LiveCartProduct[]> {
  if (ids.length === 0) return [];
  const { data, error } = await getSupabase().from('products').select('id, name, price, stock, available, image').in('id', ids);
  if (error) throw new Error(error.message);
  return (data ?? []).map((r) => ({
    id: r.id,
    name: r.name,
    priceCentavos: toCentavos(r.price),
    stock: r.stock,
    available: r.available,
    image: r.image,
  }));
}
