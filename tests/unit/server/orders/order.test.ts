/**
 * What every payment asks of an order: the caller's own, still payable, shipping to one of the
 * buyer's addresses (copied onto the order), and the amount a provider charges.
 */
import { describe, expect, it } from 'vitest';
import { centavos } from '~/domain/money.ts';
import type { ServerContext } from '~/server/context.ts';
import { ORDER_NOT_PAYABLE, orderAmount, ownOrder, payableOrder, requirePayable, requireShippingAddress } from '~/server/orders/order.ts';
import type { OrderRow } from '~/server/orders/order-row.ts';
import { fakeSupabase, type Result } from '../../../support/fake-supabase.ts';

const ORDER_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const future = new Date(Date.now() + 60_000).toISOString();
const past = new Date(Date.now() - 1000).toISOString();

function order(fields: Partial<OrderRow> = {}): OrderRow {
  return {
    id: ORDER_ID,
    user_id: 'u1',
    status: 'Pendiente',
    subtotal: centavos(100_000),
    discount: centavos(0),
    shipping: centavos(0),
    total: centavos(100_000),
    credit_applied: centavos(0),
    paid_at: null,
    expires_at: future,
    shipping_address_id: 'a1',
    shipping_address: null,
    payment_provider: null,
    payment_ref: null,
    payment_method: null,
    installments: null,
    oxxo_voucher: null,
    ...fields,
  } as OrderRow;
}

function context(results: Record<string, Result[]>) {
  const fake = fakeSupabase(results);
  return { ctx: { admin: fake.client } as unknown as ServerContext, calls: fake.calls };
}

async function refusal(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('no refusal');
}

describe('requirePayable', () => {
  it('takes a pending order before it expires', () => {
    expect(requirePayable(order())).toMatchObject({ id: ORDER_ID });
    expect(requirePayable(order({ expires_at: null }))).toMatchObject({ id: ORDER_ID });
  });

  it('refuses a paid order, and a cancelled or expired one as no longer payable', async () => {
    expect(await refusal(() => requirePayable(order({ status: 'Pagado' })))).toMatchObject({ status: 409, code: 'order_paid' });
    expect(await refusal(() => requirePayable(order({ paid_at: past })))).toMatchObject({ code: 'order_paid' });
    expect(await refusal(() => requirePayable(order({ status: 'Cancelado' })))).toMatchObject({
      status: 409,
      code: 'order_not_payable',
      message: ORDER_NOT_PAYABLE,
    });
    expect(await refusal(() => requirePayable(order({ expires_at: past })))).toMatchObject({ code: 'order_not_payable' });
  });
});

describe('ownOrder and payableOrder', () => {
  const stored = { ...order(), subtotal: '1000.00', total: '1000.00', discount: 0, shipping: 0, credit_applied: 0 };

  it("answers the caller's own order, and refuses another's (403) and a missing one (404)", async () => {
    expect(await ownOrder(context({ orders: [{ data: stored, error: null }] }).ctx, { id: 'u1', email: null }, ORDER_ID)).toMatchObject({ total: 100_000 });
    expect(await refusal(() => ownOrder(context({ orders: [{ data: stored, error: null }] }).ctx, { id: 'u2', email: null }, ORDER_ID))).toMatchObject({
      status: 403,
    });
    expect(await refusal(() => ownOrder(context({ orders: [{ data: null, error: null }] }).ctx, { id: 'u1', email: null }, ORDER_ID))).toMatchObject({
      status: 404,
      code: 'order_not_found',
    });
  });

  it('refuses the own order once it is paid', async () => {
    const paid = { ...stored, status: 'Pagado' };
    expect(await refusal(() => payableOrder(context({ orders: [{ data: paid, error: null }] }).ctx, { id: 'u1', email: null }, ORDER_ID))).toMatchObject({
      code: 'order_paid',
    });
  });
});

describe('requireShippingAddress', () => {
  const mexican = { exterior_number: '1', neighborhood: 'Juárez', municipality: 'Cuauhtémoc', phone: '5512345678' };
  const address = { label: 'Casa', street: 'Av. Reforma', city: 'CDMX', state: 'CDMX', zip: '06600', country: 'México', user_id: 'u1', ...mexican };

  it("copies the buyer's own address onto the pending order", async () => {
    const { ctx, calls } = context({ addresses: [{ data: address, error: null }] });
    const copy = await requireShippingAddress(ctx, order());
    expect(copy).toEqual({ label: 'Casa', street: 'Av. Reforma', city: 'CDMX', state: 'CDMX', zip: '06600', country: 'México', ...mexican });
    const update = calls.find((call) => call.table === 'orders')!;
    expect(update.steps).toEqual([
      { method: 'update', args: [{ shipping_address: copy }] },
      { method: 'eq', args: ['id', ORDER_ID] },
      { method: 'eq', args: ['status', 'Pendiente'] },
    ]);
  });

  it("refuses (409) no address and someone else's", async () => {
    const refused = { status: 409, code: 'address_required' };
    expect(await refusal(() => requireShippingAddress(context({}).ctx, order({ shipping_address_id: null })))).toMatchObject(refused);
    for (const data of [null, { ...address, user_id: 'u2' }]) {
      expect(await refusal(() => requireShippingAddress(context({ addresses: [{ data, error: null }] }).ctx, order()))).toMatchObject(refused);
    }
  });

  it("refuses (409) an address a courier cannot deliver to with the address form's message, and copies nothing", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ street: '  ' }, 'Calle requerida'],
      [{ exterior_number: null }, 'Número exterior requerido'],
      [{ zip: '441' }, 'Código Postal de 5 dígitos'],
      [{ neighborhood: ' ' }, 'Colonia requerida'],
      [{ municipality: null }, 'Municipio o alcaldía requerido'],
      [{ state: '' }, 'Estado requerido'],
      [{ phone: '55123' }, 'Teléfono de 10 dígitos'],
      [{ country: 'Estados Unidos', city: '', municipality: null }, 'Ciudad requerida'],
    ];
    for (const [change, message] of cases) {
      const { ctx, calls } = context({ addresses: [{ data: { ...address, ...change }, error: null }] });
      expect(await refusal(() => requireShippingAddress(ctx, order())), message).toMatchObject({
        status: 409,
        code: 'address_incomplete',
        message: `Completa tu dirección de envío: ${message}.`,
      });
      expect(calls.some((call) => call.table === 'orders')).toBe(false);
    }
    // Another country keeps the specification's fields: no Mexican parts needed.
    const abroad = { ...address, country: 'Estados Unidos', zip: '10001', exterior_number: null, neighborhood: null, municipality: null, phone: null };
    const { ctx } = context({ addresses: [{ data: abroad, error: null }] });
    await expect(requireShippingAddress(ctx, order())).resolves.toMatchObject({ street: 'Av. Reforma', country: 'Estados Unidos' });
  });

  it("maps the database's refusal of the copy to the same 409", async () => {
    const refusedCopy = { message: 'Completa tu dirección de envío: Colonia requerida.', details: 'address_incomplete', hint: 'neighborhood', code: '23514' };
    const { ctx } = context({ addresses: [{ data: address, error: null }], orders: [{ data: null, error: refusedCopy }] });
    expect(await refusal(() => requireShippingAddress(ctx, order()))).toMatchObject({
      status: 409,
      code: 'address_incomplete',
      message: 'Completa tu dirección de envío: Colonia requerida.',
    });
  });
});

describe('orderAmount', () => {
  it('is the total less the part paid with the balance', () => {
    expect(orderAmount({ total: centavos(139_850), credit_applied: centavos(39_850) })).toBe(100_000);
    expect(orderAmount({ total: centavos(500), credit_applied: centavos(0) })).toBe(500);
  });
});
