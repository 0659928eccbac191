/**
 * Brings a stored cart in line with the live products: lines whose product is gone, unavailable or
 * sold out leave with a notice; prices and stock refresh; quantities clamp to the stock.
 */
import { type Centavos, formatCentavos } from './money.ts';
import { clampQuantity } from './products.ts';

/** What reconciling needs of a stored cart line. */
export interface StoredLine {
  id: string;
  name: string;
  priceCentavos: Centavos;
  quantity: number;
  stock: number | null;
}

/** Live facts about one product. */
export interface LiveFacts {
  id: string;
  name: string;
  priceCentavos: Centavos;
  stock: number | null;
  available: boolean;
}

/** What happens to one cart line. */
export type LineChange =
  | { kind: 'remove'; id: string; notice: string }
  | { kind: 'update'; id: string; priceCentavos: Centavos; stock: number | null; name: string; quantity: number; notices: string[] };

/** The changes that make `items` agree with `live` (products absent from `live` no longer exist). */
export function reconcileCart(items: readonly StoredLine[], live: readonly LiveFacts[]): LineChange[] {
  const byId = new Map(live.map((p) => [p.id, p]));
  const changes: LineChange[] = [];
  for (const item of items) {
    const product = byId.get(item.id);
    if (!product || !product.available) {
      changes.push({ kind: 'remove', id: item.id, notice: `«${item.name}» ya no está disponible y se quitó de tu carrito.` });
      continue;
    }
    if (product.stock !== null && product.stock <= 0) {
      changes.push({ kind: 'remove', id: item.id, notice: `«${product.name}» se agotó y se quitó de tu carrito.` });
      continue;
    }
    const notices: string[] = [];
    if (product.priceCentavos !== item.priceCentavos) {
      notices.push(`El precio de «${product.name}» cambió de ${formatCentavos(item.priceCentavos)} a ${formatCentavos(product.priceCentavos)}.`);
    }
    const quantity = clampQuantity(item.quantity, product.stock);
    if (quantity !== item.quantity) {
      notices.push(`Solo quedan ${product.stock} unidad(es) de «${product.name}»; ajustamos la cantidad.`);
    }
    if (notices.length > 0 || product.stock !== item.stock || product.name !== item.name) {
      changes.push({ kind: 'update', id: item.id, priceCentavos: product.priceCentavos, stock: product.stock, name: product.name, quantity, notices });
    }
  }
  return changes;
}
