/**
 * Orders of single cards through the local stack, as the browser and the payment endpoints do
 * them: a line naming an offer is priced at the offer's price in the database (whatever the
 * browser sends), reserves the offer's stock (not the product's), keeps the offer's label for the
 * Orders tab, the back office and the receipt e-mail; an unknown offer, an offer of another
 * product, a malformed id or a sold-out offer is refused with a 400 and a Spanish message.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SHOPPER } from '../../scripts/seed/constants.ts';
import { oxxoVoucherExpiry } from '~/domain/mexican-payments.ts';
import { createPaymentIntent } from '~/server/payments/cards.ts';
import { simulatedConfirm } from '~/server/payments/simulated.ts';
import type { ServerContext } from '~/server/context.ts';
import { localMailboxSender } from '~/server/mail/transport.ts';
import { createAdminClient } from '~/server/supabase.ts';
import { apiRequest as req, callApi as call } from '../support/api-requests.ts';
import { serverContext } from '../support/server-context.ts';
import { mailboxMessages, orderColumns, productStock, productWithStock } from '../support/shop-rows.ts';
import { newPendingOrder, signIn } from '../support/shopper.ts';
import { startTestStack, type TestStack } from '../../packages/local-supabase/tests/helpers.ts';

let stack: TestStack;
let ctx: ServerContext;
let shopperToken: string;
let shopper: SupabaseClient;
let service: SupabaseClient;
let productId: string;
let otherProductId: string;
let lpOffer: string;
let soldOutOffer: string;
let otherOffer: string;

/** A new offer of a product, written as the back office does (service role here). */
async function newOffer(
  product: string,
  offer: { condition: 'NM' | 'LP' | 'HP'; language: string; finish: string; price: number; stock: number },
): Promise<string> {
  const { data, error } = await service
    .from('card_offers')
    .insert({ product_id: product, ...offer })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  return (data as { id: string }).id;
}

async function offerStock(id: string): Promise<number> {
  const { data, error } = await service.from('card_offers').select('stock').eq('id', id).single();
  if (error) throw new Error(error.message);
  return (data as { stock: number }).stock;
}

beforeAll(async () => {
  stack = await startTestStack();
  service = createAdminClient(stack.url, stack.serviceRoleKey);
  ctx = serverContext(service, { mode: 'simulated' }, localMailboxSender(stack.url, stack.serviceRoleKey));
  ({ token: shopperToken, client: shopper } = await signIn(stack, DEMO_SHOPPER));
  productId = await productWithStock(service, 5, 'cheapest');
  otherProductId = await productWithStock(service, 5, 'priciest');
  lpOffer = await newOffer(productId, { condition: 'LP', language: 'en', finish: 'parallel', price: 850, stock: 3 });
  soldOutOffer = await newOffer(productId, { condition: 'NM', language: 'ja', finish: 'parallel', price: 1200, stock: 0 });
  otherOffer = await newOffer(otherProductId, { condition: 'NM', language: 'es', finish: 'holo', price: 10, stock: 5 });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe('an order with a single card offer', () => {
  let orderId: string;

  it("is priced at the offer's price, reserves the offer's stock and keeps the offer's label", async () => {
    const productBefore = await productStock(service, productId);
    const { data: product } = await service.from('products').select('price, name').eq('id', productId).single();
    const productPrice = Number((product as { price: number | string }).price);
    // A price sent along by a browser is ignored: the database prices every line.
    const items = [
      { product_id: productId, offer_id: lpOffer, quantity: 2, price: 1 },
      { product_id: productId, quantity: 1, price: 1 },
    ];
    orderId = await newPendingOrder(shopper, items);

    const { data: lines } = await service.from('order_items').select('offer_id, offer_label, price, quantity').eq('order_id', orderId);
    const rows = (lines ?? []) as Array<{ offer_id: string | null; offer_label: string | null; price: number | string; quantity: number }>;
    const read = (row: (typeof rows)[number] | undefined) => row && [row.offer_label, Number(row.price), row.quantity];
    expect(rows).toHaveLength(2);
    expect(read(rows.find((r) => r.offer_id === lpOffer))).toEqual(['LP · Inglés · Parallel', 850, 2]);
    expect(read(rows.find((r) => r.offer_id === null))).toEqual([null, productPrice, 1]);
    const order = await orderColumns<{ subtotal: number | string }>(service, orderId, 'subtotal');
    expect(Number(order.subtotal)).toBeCloseTo(850 * 2 + productPrice, 2);
    expect(await offerStock(lpOffer)).toBe(1);
    // The product's own stock only gave the unit sold as the product itself.
    expect(await productStock(service, productId)).toBe(productBefore - 1);
  });

  it("shows the offer's label to the shopper reading their order and in the receipt e-mail", async () => {
    const { data, error } = await shopper.from('order_items').select('offer_label').eq('order_id', orderId).not('offer_label', 'is', null);
    expect(error).toBeNull();
    expect(data).toEqual([{ offer_label: 'LP · Inglés · Parallel' }]);

    const intent = await call(() => createPaymentIntent(req('POST', '/api/create-payment-intent', shopperToken, { orderId }), ctx));
    expect(intent.status).toBe(200);
    const paid = await call(() =>
      simulatedConfirm(
        req('POST', '/x', shopperToken, {
          clientSecret: intent.body.clientSecret,
          card: { number: '4242424242424242', expMonth: 1, expYear: 2040, cvc: '123' },
        }),
        ctx,
      ),
    );
    expect(paid.body.status).toBe('succeeded');
    expect((await orderColumns<{ status: string }>(service, orderId, 'status')).status).toBe('Pagado');
    const messages = await mailboxMessages<{ subject: string; text: string; html: string }>(stack, DEMO_SHOPPER.email);
    const receipt = messages.find((m) => m.subject.startsWith('Confirmación de tu pedido'));
    // The unit price paid, as every line of the receipt.
    expect(receipt?.text).toMatch(/, LP · Inglés · Parallel × 2 — \$850\.00\n/);
    expect(receipt?.html).toContain('LP · Inglés · Parallel × 2');
  });
});

describe('a refused offer', () => {
  /** create_order as the browser calls it: the HTTP status and the database's message. */
  async function refused(items: unknown[]): Promise<{ status: number; message: string | undefined; details: string | undefined }> {
    const { data, error, status } = await shopper.rpc('create_order', { items, coupon_code: null });
    expect(data).toBeNull();
    return { status, message: error?.message, details: error?.details };
  }

  it('answers an unknown offer or an offer of another product with a 400 and a Spanish message, reserving nothing', async () => {
    const before = await offerStock(otherOffer);
    for (const offerId of [crypto.randomUUID(), otherOffer]) {
      const answer = await refused([{ product_id: productId, offer_id: offerId, quantity: 1 }]);
      expect(answer).toEqual({ status: 400, message: `La opción elegida de «${productId}» no existe.`, details: `unknown_product:${productId}` });
    }
    expect(await offerStock(otherOffer)).toBe(before);
  });

  it('answers a malformed offer id and a sold-out offer with a 400 and a Spanish message', async () => {
    expect(await refused([{ product_id: productId, offer_id: 'nm-es-holo', quantity: 1 }])).toMatchObject({
      status: 400,
      message: 'Un producto del pedido no es válido.',
    });
    const soldOut = await refused([{ product_id: productId, offer_id: soldOutOffer, quantity: 1 }]);
    expect(soldOut.status).toBe(400);
    expect(soldOut.message).toMatch(/^Stock insuficiente para «.+» \(disponible: 0\)\.$/);
    expect(soldOut.details).toBe(`out_of_stock:${productId}`);
  });
});

describe('an OXXO voucher for a single card', () => {
  it("lasts one day when the offer has few copies left, whatever the product's own stock", async () => {
    const { data } = await service
      .from('products')
      .select('id')
      .eq('available', true)
      .gte('stock', 20)
      .not('product_type_id', 'like', '%single-card')
      .order('price')
      .limit(1);
    const plenty = (data as Array<{ id: string }>)[0]!.id;
    const scarce = await newOffer(plenty, { condition: 'HP', language: 'ko', finish: 'foil', price: 120, stock: 2 });
    const orderId = await newPendingOrder(shopper, [{ product_id: plenty, offer_id: scarce, quantity: 1 }]);
    const before = Date.now();
    const voucher = await call(() => createPaymentIntent(req('POST', '/api/create-payment-intent', shopperToken, { orderId, method: 'oxxo' }), ctx));
    expect(voucher.status).toBe(200);
    expect(Date.parse(voucher.body.voucher.expiresAt)).toBe(oxxoVoucherExpiry(new Date(before), 1).getTime());
  });
});
