/**
 * The drop rush's answers and checks (`npm run load -- --drop`, scripts/load/drop.ts): what each
 * shopper's `create_order` call came back with, the refusals counted by their message, and the
 * correctness checks the run fails on. Pure functions, no I/O.
 */

/** What one shopper's order attempt ended with. */
export type DropAnswer =
  | { kind: 'order'; orderId: string }
  | { kind: 'refused'; status: number; code: string; message: string }
  | { kind: 'server-error'; status: number; text: string }
  | { kind: 'unexpected'; status: number; text: string }
  | { kind: 'no-answer'; error: string };

/**
 * The refusals that tell a shopper clearly that there is no unit for them: sold out (create_order's
 * 'out_of_stock:<id>' or the drop's own 'Agotado' check) and the per-customer limit. Anything else
 * (a product not on sale yet, a permission error, an empty message) is not an answer to a drop.
 */
const CLEAR_REFUSAL_CODES = ['out_of_stock', 'limit_exceeded'];

/** Reads `create_order`'s HTTP answer: an order id, a refusal with its message and code, or a failure. */
export function readOrderAnswer(status: number, text: string): DropAnswer {
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (status >= 500) return { kind: 'server-error', status, text: text.slice(0, 200) };
  if (status === 200 && typeof body === 'string' && /^[0-9a-f-]{36}$/i.test(body)) return { kind: 'order', orderId: body };
  if (status >= 400 && status < 500 && body && typeof body === 'object') {
    const { message, details } = body as { message?: unknown; details?: unknown };
    if (typeof message === 'string' && message.trim() !== '') {
      const code = typeof details === 'string' ? (details.split(':')[0] ?? '') : '';
      return { kind: 'refused', status, code, message };
    }
  }
  return { kind: 'unexpected', status, text: text.slice(0, 200) };
}

/** True for a refusal that tells the shopper in Spanish that there is no unit left for them. */
export function isClearRefusal(answer: DropAnswer): boolean {
  return answer.kind === 'refused' && CLEAR_REFUSAL_CODES.includes(answer.code) && /[a-záéíóúñ]/i.test(answer.message);
}

/** The refusals by message, most frequent first. */
export function refusalsByMessage(answers: readonly DropAnswer[]): Array<{ message: string; count: number }> {
  const counts = new Map<string, number>();
  for (const a of answers) if (a.kind === 'refused') counts.set(a.message, (counts.get(a.message) ?? 0) + 1);
  return [...counts].map(([message, count]) => ({ message, count })).sort((a, b) => b.count - a.count || a.message.localeCompare(b.message));
}

/** What the database says after the rush. */
export interface DropLedger {
  /** Units of the product in orders created since the run started (cancelled ones left out). */
  unitsInOrders: number;
  orders: number;
  /** Distinct shoppers among those orders. */
  buyers: number;
  stockLeft: number;
  /** The lowest stock read while the rush ran. */
  lowestStock: number;
}

/** One correctness check of the run. */
interface DropCheck {
  check: string;
  ok: boolean;
  figure: string;
}

/**
 * The correctness checks: no unit oversold (units in orders ≤ the drop's units, stock never below 0,
 * and units + stock left = the drop's units), no 5xx anywhere, exactly `units` orders for as many
 * distinct shoppers (every unit sold, none twice to one shopper), each order answered to a shopper
 * the database also counts, every page and live-data call answered, and every other shopper
 * refused clearly (no timeout, no error, no unexpected answer).
 */
export function dropChecks(input: {
  shoppers: number;
  units: number;
  answers: readonly DropAnswer[];
  /** Product pages and live-data calls answered 5xx, and those not answered 200 at all (5xx included). */
  pages: { server: number; failed: number };
  ledger: DropLedger;
}): DropCheck[] {
  const { shoppers, units, answers, pages, ledger } = input;
  const count = (kind: DropAnswer['kind']) => answers.filter((a) => a.kind === kind).length;
  const orders = count('order');
  const clear = answers.filter(isClearRefusal).length;
  const refused = count('refused');
  const server = count('server-error');
  const noAnswer = count('no-answer');
  const unexpected = count('unexpected');
  const oversold = Math.max(0, ledger.unitsInOrders - units) + Math.max(0, -ledger.lowestStock) + Math.max(0, -ledger.stockLeft);
  return [
    {
      check: 'Unidades vendidas de más: 0',
      ok: oversold === 0 && ledger.unitsInOrders + ledger.stockLeft === units,
      figure: `${oversold} (en pedidos ${ledger.unitsInOrders} de ${units}; quedan ${ledger.stockLeft}; existencia mínima vista ${ledger.lowestStock})`,
    },
    {
      check: 'Respuestas 5xx: 0',
      ok: server === 0 && pages.server === 0,
      figure: `${server} de la llamada de compra, ${pages.server} de páginas y datos en vivo`,
    },
    {
      check: 'Página del producto y sus datos en vivo: 200 para cada comprador',
      ok: pages.failed === 0,
      figure: `${pages.failed} sin 200 (fallos y tiempos agotados incluidos)`,
    },
    {
      check: `Pedidos creados: exactamente ${units}, de ${units} compradores distintos`,
      ok: orders === units && ledger.orders === units && ledger.buyers === units,
      figure: `${orders} respuestas con pedido; ${ledger.orders} pedidos en la base de datos, de ${ledger.buyers} compradores`,
    },
    {
      check: 'Cada comprador recibió respuesta: pedido o rechazo claro en español',
      ok: answers.length === shoppers && orders + clear === shoppers && noAnswer === 0 && unexpected === 0,
      figure: `${orders} pedidos + ${clear} rechazos claros de ${shoppers}; otros rechazos ${refused - clear}, sin respuesta ${noAnswer}, inesperadas ${unexpected}`,
    },
  ];
}
