/**
 * npm run load -- --drop's answers and checks (scripts/load/drop-summary.ts): create_order's HTTP
 * answers read as an order, a refusal with its Spanish message, a 5xx or something unexpected;
 * refusals counted by message; and the run failing on an oversold unit, a 5xx, the wrong number
 * of orders or a shopper left without a clear answer.
 */
import { describe, expect, it } from 'vitest';
import { dropChecks, isClearRefusal, readOrderAnswer, refusalsByMessage, type DropAnswer, type DropLedger } from '../../../scripts/load/drop-summary.ts';

const ORDER_ID = '0b6f4a52-3c1e-4d7a-9f7e-2f8b1c0d9e11';
const soldOut = (message = 'Stock insuficiente para «Caja» (disponible: 0).') =>
  JSON.stringify({ code: 'P0001', message, details: 'out_of_stock:caja', hint: '0' });

describe('readOrderAnswer', () => {
  it('reads an order id, a refusal with its message and code, a 5xx and anything else', () => {
    expect(readOrderAnswer(200, JSON.stringify(ORDER_ID))).toEqual({ kind: 'order', orderId: ORDER_ID });
    expect(readOrderAnswer(400, soldOut('Agotado: ya no quedan unidades de «Caja».'))).toEqual({
      kind: 'refused',
      status: 400,
      code: 'out_of_stock',
      message: 'Agotado: ya no quedan unidades de «Caja».',
    });
    expect(readOrderAnswer(503, 'upstream down')).toMatchObject({ kind: 'server-error', status: 503 });
    expect(readOrderAnswer(200, '"not an id"')).toMatchObject({ kind: 'unexpected', status: 200 });
    expect(readOrderAnswer(400, '<html>bad</html>')).toMatchObject({ kind: 'unexpected', status: 400 });
    expect(readOrderAnswer(401, JSON.stringify({ code: 'PGRST301', message: '', details: null }))).toMatchObject({ kind: 'unexpected' });
  });

  it('counts as clear only a sold-out or limit refusal with a message', () => {
    expect(isClearRefusal(readOrderAnswer(400, soldOut()))).toBe(true);
    expect(isClearRefusal(readOrderAnswer(400, JSON.stringify({ message: 'Solo puedes comprar 1 unidad(es)…', details: 'limit_exceeded:caja' })))).toBe(true);
    // A shopper refused because the drop had not started was sent too early: not an answer to the drop.
    expect(isClearRefusal(readOrderAnswer(400, JSON.stringify({ message: '«Caja» aún no está a la venta…', details: 'unavailable:caja' })))).toBe(false);
    expect(isClearRefusal(readOrderAnswer(403, JSON.stringify({ message: 'permission denied for function create_order', details: null })))).toBe(false);
  });
});

describe('refusalsByMessage', () => {
  it('counts each message, most frequent first', () => {
    const answers: DropAnswer[] = [
      readOrderAnswer(400, soldOut('Agotado: ya no quedan unidades de «Caja».')),
      readOrderAnswer(400, soldOut()),
      readOrderAnswer(400, soldOut('Agotado: ya no quedan unidades de «Caja».')),
      readOrderAnswer(200, JSON.stringify(ORDER_ID)),
    ];
    expect(refusalsByMessage(answers)).toEqual([
      { message: 'Agotado: ya no quedan unidades de «Caja».', count: 2 },
      { message: 'Stock insuficiente para «Caja» (disponible: 0).', count: 1 },
    ]);
  });
});

describe('dropChecks', () => {
  const orders = (n: number): DropAnswer[] =>
    Array.from({ length: n }, (_, i) => ({ kind: 'order', orderId: `${ORDER_ID.slice(0, -2)}${String(i).padStart(2, '0')}` }));
  const refusals = (n: number): DropAnswer[] => Array.from({ length: n }, () => readOrderAnswer(400, soldOut()));
  const ledger: DropLedger = { unitsInOrders: 3, orders: 3, buyers: 3, stockLeft: 0, lowestStock: 0 };
  const pages = { server: 0, failed: 0 };
  const failed = (checks: ReturnType<typeof dropChecks>) => checks.filter((c) => !c.ok).map((c) => c.check);

  it('passes a drop that sold every unit once and refused everyone else clearly', () => {
    const checks = dropChecks({ shoppers: 10, units: 3, answers: [...orders(3), ...refusals(7)], pages, ledger });
    expect(failed(checks)).toEqual([]);
    expect(checks).toHaveLength(5);
  });

  it('fails on a unit oversold, in orders or as stock below zero', () => {
    const answers = [...orders(3), ...refusals(7)];
    expect(failed(dropChecks({ shoppers: 10, units: 3, answers, pages, ledger: { ...ledger, unitsInOrders: 4 } }))).toContain('Unidades vendidas de más: 0');
    expect(failed(dropChecks({ shoppers: 10, units: 3, answers, pages, ledger: { ...ledger, lowestStock: -1 } }))).toContain('Unidades vendidas de más: 0');
  });

  it('fails on a 5xx, a page without 200, too few orders or one shopper twice', () => {
    const five = dropChecks({
      shoppers: 10,
      units: 3,
      answers: [...orders(3), ...refusals(6), { kind: 'server-error', status: 500, text: '' }],
      pages,
      ledger,
    });
    expect(failed(five)).toEqual(['Respuestas 5xx: 0', 'Cada comprador recibió respuesta: pedido o rechazo claro en español']);
    const page = dropChecks({ shoppers: 10, units: 3, answers: [...orders(3), ...refusals(7)], pages: { server: 1, failed: 1 }, ledger });
    expect(failed(page)).toEqual(['Respuestas 5xx: 0', 'Página del producto y sus datos en vivo: 200 para cada comprador']);
    const short = dropChecks({
      shoppers: 10,
      units: 3,
      answers: [...orders(2), ...refusals(8)],
      pages,
      ledger: { ...ledger, unitsInOrders: 2, orders: 2, buyers: 2, stockLeft: 1 },
    });
    expect(failed(short)).toEqual(['Pedidos creados: exactamente 3, de 3 compradores distintos']);
    const twice = dropChecks({ shoppers: 10, units: 3, answers: [...orders(3), ...refusals(7)], pages, ledger: { ...ledger, buyers: 2 } });
    expect(failed(twice)).toEqual(['Pedidos creados: exactamente 3, de 3 compradores distintos']);
  });

  it('fails when a shopper got no answer, an unclear one, or was never counted', () => {
    const timeout = dropChecks({
      shoppers: 10,
      units: 3,
      answers: [...orders(3), ...refusals(6), { kind: 'no-answer', error: 'timeout after 30000 ms' }],
      pages,
      ledger,
    });
    expect(failed(timeout)).toEqual(['Cada comprador recibió respuesta: pedido o rechazo claro en español']);
    const unclear = readOrderAnswer(403, JSON.stringify({ message: 'permission denied', details: null }));
    expect(failed(dropChecks({ shoppers: 10, units: 3, answers: [...orders(3), ...refusals(6), unclear], pages, ledger }))).toEqual([
      'Cada comprador recibió respuesta: pedido o rechazo claro en español',
    ]);
    expect(failed(dropChecks({ shoppers: 10, units: 3, answers: [...orders(3), ...refusals(6)], pages, ledger }))).toEqual([
      'Cada comprador recibió respuesta: pedido o rechazo claro en español',
    ]);
  });
});
