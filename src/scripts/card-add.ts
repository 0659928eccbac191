/**
 * Add-to-cart buttons of product cards: one delegated listener for the whole page, no framework,
 * so listings stay light. The Toaster island wakes up on the first toast.
 */
import { addToCart } from '~/stores/cart.ts';
import { showAddOutcome } from '~/stores/toast.ts';
import { type Centavos, savedPriceCentavos } from '~/domain/money.ts';

interface CardProduct {
  id: string;
  name: string;
  priceCentavos: Centavos;
  stock: number | null;
  image: string;
}

/** The product a card's button carries in `data-card-add`; null when it is not one (no zod: every listing loads this). */
export function parseCardProduct(text: string | undefined): CardProduct | null {
  let data: unknown;
  try {
    data = JSON.parse(text ?? '');
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  if (typeof d.id !== 'string' || d.id === '' || typeof d.name !== 'string' || typeof d.image !== 'string') return null;
  // A page built before prices were centavos carries `price` in pesos.
  const priceCentavos = savedPriceCentavos(d.priceCentavos, d.price);
  if (priceCentavos === null) return null;
  const stock = d.stock;
  if (stock !== null && !(typeof stock === 'number' && Number.isInteger(stock) && stock >= 0)) return null;
  return { id: d.id, name: d.name, priceCentavos, stock, image: d.image };
}

/** Starts listening for clicks on `[data-card-add]` buttons (once per page). */
export function mountCardButtons(root: Document = document): void {
  if (root.documentElement.dataset.cardAdd === 'ready') return;
  root.documentElement.dataset.cardAdd = 'ready';
  root.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>('button[data-card-add]');
    if (!button || button.disabled) return;
    const parsed = parseCardProduct(button.dataset.cardAdd);
    if (!parsed) return;
    showAddOutcome(parsed.name, addToCart(parsed, 1));
  });
}
