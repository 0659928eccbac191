/**
 * A single card in a grid is bought as one of its copies: its card says 'Desde' the cheapest copy
 * in stock and links to its page to choose one; it never adds the product itself to the cart
 * (create_order refuses a single without an offer).
 */
import { expect, test } from './fixtures';

// OP-05's listing: its sealed products and its singles on one page.
const LISTING = '/franchise/one-piece/expansions/op-05/products';
// The demo's OP05-119 has copies in stock at several prices (scripts/seed).
const LUFFY = 'Monkey.D.Luffy (OP05-119)';

test.use({ viewport: { width: 375, height: 812 } });

test('a single card in a listing shows its lowest price and opens its page to choose a copy', async ({ page }) => {
  await page.goto(LISTING);
  const card = page.getByRole('article').filter({ has: page.getByRole('heading', { name: LUFFY }) });
  await expect(card).toHaveCount(1);
  // A sealed product of the same listing keeps its add button.
  await expect(page.getByRole('button', { name: /^Agregar .* al carrito$/ }).first()).toBeVisible();
  await expect(card.getByText(/^Desde \$/)).toBeVisible();
  // No add button: a single is chosen by condition, language and finish on its page.
  await expect(card.getByRole('button', { name: /Agregar/ })).toHaveCount(0);
  const choose = card.getByRole('link', { name: `Elegir condición e idioma de ${LUFFY}` });
  await expect(choose).toHaveText('Elegir');
  await choose.click();
  await expect(page.getByRole('heading', { level: 1, name: LUFFY })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Guía de condiciones' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('cart'))).toBeNull();
});
