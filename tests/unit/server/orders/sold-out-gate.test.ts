import { describe, expect, it } from 'vitest';
import { createSoldOutGate, SOLD_OUT_TTL_MS } from '~/server/orders/sold-out-gate.ts';

const SOLD_OUT = { message: 'Agotado: ya no quedan unidades de «Caja».', details: 'out_of_stock:caja', hint: '0' };
const caja = [{ product_id: 'caja' }];

/** A gate on a clock the test moves. */
function gateAt(start = 1_000_000) {
  let now = start;
  const gate = createSoldOutGate(SOLD_OUT_TTL_MS, () => now);
  return { gate, advance: (ms: number) => (now += ms) };
}

describe('the sold-out gate', () => {
  it('refuses with the database’s own answer for a second after the database called a product sold out', () => {
    const { gate, advance } = gateAt();
    expect(gate.refusal(caja, false)).toBeNull();
    expect(gate.learn(caja, false, SOLD_OUT)).toEqual(SOLD_OUT);
    expect(gate.refusal(caja, false)).toEqual(SOLD_OUT);
    // The same product in a bigger cart: the database refuses the whole order, so does the gate.
    expect(gate.refusal([{ product_id: 'sobre' }, { product_id: 'caja' }], false)).toEqual(SOLD_OUT);
    advance(SOLD_OUT_TTL_MS - 1);
    expect(gate.refusal(caja, false)).toEqual(SOLD_OUT);
    advance(1);
    // A second later the database is asked again: units may have come back.
    expect(gate.refusal(caja, false)).toBeNull();
  });

  it('learns nothing from a refusal that leaves units, or from another refusal', () => {
    const { gate } = gateAt();
    gate.learn(caja, false, { ...SOLD_OUT, message: 'Stock insuficiente para «Caja» (disponible: 2).', hint: '2' });
    gate.learn(caja, false, { message: 'Solo puedes comprar 1.', details: 'limit_exceeded:caja', hint: '0' });
    gate.learn(caja, false, { message: '«Caja» aún no está a la venta.', details: 'unavailable:caja', hint: '2026-12-11' });
    expect(gate.learn(caja, false, { ...SOLD_OUT, message: null })).toBeNull();
    expect(gate.refusal(caja, false)).toBeNull();
  });

  it('leaves offers of singles and waitlist orders to the database', () => {
    const { gate } = gateAt();
    const offerLine = [{ product_id: 'caja', offer_id: 'o-1' }];
    // An offer's refusal names its product: it says nothing about the product's own stock.
    gate.learn(offerLine, false, SOLD_OUT);
    expect(gate.refusal(caja, false)).toBeNull();
    // A shopper joining a preorder's waitlist is not refused for a full campaign.
    gate.learn(caja, true, SOLD_OUT);
    expect(gate.refusal(caja, false)).toBeNull();
    gate.learn(caja, false, SOLD_OUT);
    expect(gate.refusal(caja, true)).toBeNull();
    expect(gate.refusal(offerLine, false)).toBeNull();
    expect(gate.refusal([{ product_id: 'caja' }, { product_id: 'caja', offer_id: 'o-1' }], false)).toBeNull();
  });

  it('learns only about a product of the refused cart', () => {
    const { gate } = gateAt();
    gate.learn([{ product_id: 'sobre' }], false, SOLD_OUT);
    expect(gate.refusal(caja, false)).toBeNull();
  });

  it('remembers a bounded number of products, forgetting the oldest first', () => {
    const { gate } = gateAt();
    for (let i = 0; i <= 1000; i++) {
      gate.learn([{ product_id: `p${i}` }], false, { ...SOLD_OUT, details: `out_of_stock:p${i}` });
    }
    expect(gate.refusal([{ product_id: 'p0' }], false)).toBeNull();
    expect(gate.refusal([{ product_id: 'p1000' }], false)?.details).toBe('out_of_stock:p1000');
  });
});
