/**
 * Checkout data from the browser: creating the order through the database's create_order, by way
 * of create_order_unless_sold_out, which refuses a sold-out or not-yet-on-sale product at once
 * without queueing on its row lock during a drop and is otherwise create_order (the browser sends
 * product ids and quantities only, never prices), reading the caller's order and pointing
 * it at an address. The payment endpoints themselves are called through ./api.ts.
 */
import { getSupabase } from './supabase.ts';
import { openPreorderStock, withPreorderStock } from './preorders.ts';
import { openPreorderOffers } from './preorder-offers.ts';
import { CHECKOUT_MESSAGES, CHECKOUT_OFFER_GONE_REFUSAL } from '~/i18n/checkout.ts';
import { PRODUCT_MESSAGES } from '~/i18n/cart.ts';
import { DROP_CHECKOUT_TEXT } from '~/i18n/drops.ts';
import { ORDER_STATUS } from '~/domain/orders.ts';
import { parseAddressCopy, partsOfAddress, type AddressParts } from '~/domain/address-copy.ts';
import { type Centavos, centavos, toCentavos } from '~/domain/money.ts';
import { oxxoVoucher } from '~/domain/api-answers.ts';
import { z } from 'zod';

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
const isLineKind = (value: string | undefined): value is LineRefusal['kind'] => LINE_KINDS.some((kind) => kind === value);

/** Reads create_order's refusal: a Spanish message, and the line it concerns when there is one. */
export function parseCreateOrderError(error: { message?: string; details?: string | null; hint?: string | null }): {
  message: string;
  line: LineRefusal | null;
} {
  const details = error.details ?? '';
  const [code, ...rest] = details.split(':');
  // A preorder line outside its campaign's window: shown beside the line, with the database's message.
  const kind = code === 'preorder_not_open' || code === 'preorder_closed' ? 'unavailable' : code;
  const productId = rest.join(':');
  if (isLineKind(kind) && productId) {
    const remaining = error.hint !== null && error.hint !== undefined && /^\d+$/.test(error.hint) ? Number(error.hint) : null;
    // An offer that is gone or not of that product: the database names the product by its id only.
    const offerGone = kind === 'unknown_product' && (error.message ?? '').startsWith(CHECKOUT_OFFER_GONE_REFUSAL);
    const message = offerGone ? CHECKOUT_MESSAGES.offerGone : error.message || CHECKOUT_MESSAGES.createOrder;
    return { message, line: { productId, kind, message, remaining } };
  }
  if (details === 'not_authenticated') return { message: CHECKOUT_MESSAGES.signIn, line: null };
  // A coupon the database refused (expired, used up, below its minimum…): its own message says why.
  if (details.startsWith('coupon_') && error.message) return { message: error.message, line: null };
  if (ITEM_KINDS.includes(details)) return { message: CHECKOUT_MESSAGES.saveItems, line: null };
  return { message: CHECKOUT_MESSAGES.createOrder, line: null };
}

/** The outcome of creating an order. */
export type CreateOrderResult = { ok: true; orderId: string } | { ok: false; message: string; line: LineRefusal | null };

/** One line sent to create_order: a product, or one offer of a single card, and how many. */
export type OrderItemRequest = {
  product_id: string;
  quantity: number;
  offer_id?: string;
};

/**
 * An offer id as create_order accepts it (any UUID, as the database's own check): a line whose
 * stored offer id is anything else cannot be sold.
 */
export const offerIdSchema = z.guid();

/**
 * Creates the caller's order from product ids (and offer ids) and quantities; the database prices
 * it. No price is ever sent.
 */
export async function createOrder(items: OrderItemRequest[], couponCode: string | null, waitlist = false): Promise<CreateOrderResult> {
  const badOffer = items.find((item) => item.offer_id !== undefined && !offerIdSchema.safeParse(item.offer_id).success);
  if (badOffer) {
    const message = CHECKOUT_MESSAGES.offerGone;
    return { ok: false, message, line: { productId: badOffer.product_id, kind: 'unknown_product', message, remaining: null } };
  }
  try {
    const { data, error } = await getSupabase().rpc('create_order_unless_sold_out', { items, coupon_code: couponCode, ...(waitlist ? { waitlist } : {}) });
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
  /** The single card's offer as sold: 'LP · Inglés · Parallel'; null for a product sold as a whole. */
  offerLabel: string | null;
}

/** The address an order ships to, with its Mexican parts when it has them. */
export interface CheckoutAddress extends AddressParts {
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
  /** The part paid with the shopper's balance ('saldo a favor'). */
  creditCentavos: Centavos;
  /** What a provider still has to charge: the stored total less the balance applied (the server's rule). */
  dueCentavos: Centavos;
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
      'id, created_at, status, paid_at, expires_at, subtotal, discount, shipping, total, coupon_code, shipping_address_id, shipping_address, payment_method, installments, oxxo_voucher, credit_applied, order_items(id, product_id, quantity, price, offer_label, products(name, image))',
    )
    .eq('id', orderId)
    .maybeSingle();
  if (error) throw new Error(error.message);
  if (!data) return null;
  let address: CheckoutAddress | null = null;
  const copy = parseAddressCopy(data.shipping_address);
  if (data.status !== ORDER_STATUS.pending && copy) {
    // Once paid, the order shows its own copy, whatever the address book says now.
    address = {
      ...copy,
      label: copy.label,
      street: copy.street ?? '',
      city: copy.city ?? '',
      state: copy.state ?? '',
      zip: copy.zip ?? '',
      country: copy.country ?? '',
      id: data.shipping_address_id ?? '',
    };
  } else if (data.shipping_address_id !== null) {
    const found = await supabase
      .from('addresses')
      .select('id, label, street, exterior_number, interior_number, neighborhood, municipality, city, state, zip, country, delivery_references, phone')
      .eq('id', data.shipping_address_id)
      .maybeSingle();
    address = found.data
      ? {
          ...partsOfAddress(found.data),
          id: found.data.id,
          label: found.data.label,
          street: found.data.street,
          city: found.data.city,
          state: found.data.state,
          zip: found.data.zip,
          country: found.data.country,
        }
      : null;
  }
  const voucher = data.oxxo_voucher === null ? null : oxxoVoucher.safeParse(data.oxxo_voucher);
  return {
    id: data.id,
    created_at: data.created_at,
    status: data.status,
    paid_at: data.paid_at,
    expires_at: data.expires_at,
    subtotalCentavos: toCentavos(data.subtotal),
    discountCentavos: toCentavos(data.discount),
    shippingCentavos: toCentavos(data.shipping),
    totalCentavos: toCentavos(data.total),
    coupon_code: data.coupon_code,
    shipping_address_id: data.shipping_address_id,
    address,
    payment_method: data.payment_method,
    installments: data.installments,
    oxxo_voucher: voucher?.success ? voucher.data : null,
    creditCentavos: toCentavos(data.credit_applied),
    dueCentavos: centavos(toCentavos(data.total) - toCentavos(data.credit_applied)),
    lines: data.order_items.map((item) => ({
      id: item.id,
      product_id: item.product_id,
      quantity: item.quantity,
      priceCentavos: toCentavos(item.price),
      name: item.products?.name ?? PRODUCT_MESSAGES.unavailableLine,
      image: item.products?.image ?? null,
      offerLabel: item.offer_label || null,
    })),
  };
}

/**
 * Points the caller's order at one of their addresses. When refused, `message` is what the shopper
 * reads for a refusal the database explains (a drop's limit for that delivery address already
 * reached by other accounts: detail 'drop_address_limit:<product id>'), null for any other failure.
 */
export async function setOrderAddress(orderId: string, addressId: string): Promise<{ saved: true } | { saved: false; message: string | null }> {
  const { error } = await getSupabase().from('orders').update({ shipping_address_id: addressId }).eq('id', orderId);
  if (!error) return { saved: true };
  return { saved: false, message: error.details?.startsWith('drop_address_limit') ? DROP_CHECKOUT_TEXT.addressLimit : null };
}

/** Price, stock and availability of cart products right now. */
export interface LiveCartProduct {
  id: string;
  name: string;
  priceCentavos: Centavos;
  stock: number | null;
  available: boolean;
  image: string | null;
  /** A single card (it has a printing): sold by offer only. */
  soldByOffer: boolean;
}

/** Live rows for the cart's products (missing ids are simply absent). Throws on network errors. */
export async function fetchCartProducts(ids: string[]): Promise<LiveCartProduct[]> {
  if (ids.length === 0) return [];
  // Asked at the same time: a preorder in its open campaign counts the units the campaign still allows.
  const preorder = openPreorderStock(ids).catch(() => new Map<string, number | null>());
  const { data, error } = await getSupabase().from('products').select('id, name, price, stock, available, image, card_printings(product_id)').in('id', ids);
  if (error) throw new Error(error.message);
  const open = await preorder;
  return withPreorderStock(
    (data ?? []).map((r) => {
      // A one-to-one embed: the printing or null (an array from servers that do not tell one-to-one apart).
      const printing: unknown = r.card_printings;
      return {
        id: r.id,
        name: r.name,
        priceCentavos: toCentavos(r.price),
        stock: r.stock,
        available: r.available,
        image: r.image,
        soldByOffer: Array.isArray(printing) ? printing.length > 0 : printing !== null && printing !== undefined,
      };
    }),
    open,
  );
}

/** Price and stock of one offer of a single card right now. */
export interface LiveCartOffer {
  id: string;
  productId: string;
  priceCentavos: Centavos;
  stock: number;
}

/**
 * Live rows for the offers of the cart's single cards (missing or malformed ids are simply
 * absent); an offer in an open preorder campaign counts the units one order may take in it instead
 * of the empty shelf's. Throws on network errors.
 */
export async function fetchCartOffers(ids: string[]): Promise<LiveCartOffer[]> {
  const valid = [...new Set(ids.filter((id) => offerIdSchema.safeParse(id).success))];
  if (valid.length === 0) return [];
  const { data, error } = await getSupabase().from('card_offers').select('id, product_id, price, stock').in('id', valid);
  if (error) throw new Error(error.message);
  const rows = data ?? [];
  const preorders = await openPreorderOffers([...new Set(rows.map((r) => r.product_id))]).catch(() => new Map<string, { remaining: number }>());
  return rows.map((r) => ({
    id: r.id,
    productId: r.product_id,
    priceCentavos: toCentavos(r.price),
    stock: preorders.get(r.id)?.remaining ?? r.stock,
  }));
}
