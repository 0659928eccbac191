/**
 * Add-to-cart buttons of product cards: one delegated listener for the whole page, no framework,
 * so listings stay light. The Toaster island wakes up on the first toast.
 */
import { z } from 'zod';
import { addToCart } from '../../stores/cart.ts';
import { showAddedToCart, showToast } from '../../stores/toast.ts';
import { PRODUCT_MESSAGES } from '../../domain/products.ts';

const cardProduct = z.object({
  id: z.string().min(1),
  name: z.string(),
  price: z.number().nonnegative(),
  stock: z.number().int().nonnegative().nullable(),
  image: z.string(),
});

/** Starts listening for clicks on `[data-card-add]` buttons (once per page). */
export function mountCardButtons(root: Document = document): void {
  if (root.documentElement.dataset.cardAdd === 'ready') return;
  root.documentElement.dataset.cardAdd = 'ready';
  root.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>('button[data-card-add]');
    if (!button || button.disabled) return;
    let parsed: z.infer<typeof cardProduct>;
    try {
      parsed = cardProduct.parse(JSON.parse(button.dataset.cardAdd ?? ''));
    } catch {
      return;
    }
    const result = addToCart(parsed, 1);
    if (result.added === 0) {
      showToast({ title: PRODUCT_MESSAGES.maxStock, message: parsed.name, tone: 'info' });
      return;
    }
    showAddedToCart(parsed.name);
  });
}
