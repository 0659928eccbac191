/**
 * Stock changes never rebuild the prebuilt pages: after load, one request per page reads the live
 * stock, and the product cards and the buy box correct their sold-out state from it.
 */
import { expect as baseExpect, test } from './fixtures';
import { serviceRest } from './pages/auth';

const expect = baseExpect.configure({ timeout: 15_000 });

// A product no other end-to-end test touches (stock 5 in the seed), and its expansion's listing.
const PRODUCT = { id: 'op-boosterbox-op-04', name: 'Caja de sobres OP-04 Kingdoms of Intrigue (24 sobres)' };
const LISTING = '/franchise/one-piece/expansions/op-04/products';

async function setStock(stock: number): Promise<void> {
  const res = await serviceRest('PATCH', `products?id=eq.${PRODUCT.id}`, { stock });
  expect(res.status).toBe(200);
}

test.describe.configure({ mode: 'serial' });

test.afterAll(async () => {
  await setStock(5);
});

test('a product sold out after the build shows Agotado on its card and in its buy box, with one stock request per page', async ({ page }) => {
  await setStock(0);
  const stockRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/rest/v1/products') && request.url().includes('select=id,stock,available')) stockRequests.push(request.url());
  });

  await page.goto(LISTING);
  const card = page.locator('article.product-card').filter({ has: page.getByRole('heading', { name: PRODUCT.name }) });
  await expect(card.getByRole('button', { name: `Agregar ${PRODUCT.name} al carrito` })).toBeDisabled();
  await expect(card.getByRole('button', { name: `Agregar ${PRODUCT.name} al carrito` })).toHaveText('Agotado');
  await expect(card.locator('.product-card-overlay')).toHaveText('Agotado');
  expect(stockRequests).toHaveLength(1);
  // Every card of the page was asked about in that one request.
  const cards = await page.locator('article.product-card[data-live-product]').count();
  expect(cards).toBeGreaterThan(1);
  expect(decodeURIComponent(stockRequests[0]!)).toContain(`"${PRODUCT.id}"`);

  stockRequests.length = 0;
  await page.goto(`/product/${PRODUCT.id}`);
  // Without any interaction, the buy box wakes up and says the product is sold out.
  const main = page.getByRole('main');
  await expect(main.getByText('Producto agotado')).toBeVisible();
  await expect(main.getByRole('button', { name: 'Agregar al carrito' })).toBeDisabled();
  expect(stockRequests).toHaveLength(1);
});

test('a product restocked after the build can be added from its card again', async ({ page }) => {
  await setStock(0);
  await page.goto(LISTING);
  const card = page.locator('article.product-card').filter({ has: page.getByRole('heading', { name: PRODUCT.name }) });
  await expect(card.getByRole('button', { name: `Agregar ${PRODUCT.name} al carrito` })).toBeDisabled();

  await setStock(3);
  await page.reload();
  const add = card.getByRole('button', { name: `Agregar ${PRODUCT.name} al carrito` });
  await expect(add).toBeEnabled();
  await expect(add).toHaveText('Agregar');
  await expect(card.locator('.product-card-overlay')).toHaveCount(0);
  await add.click();
  await expect(page.locator('.toast').filter({ hasText: 'Agregado al carrito' })).toBeVisible();
  // The cart is capped by the live stock the card now carries.
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '[]') as Array<{ id: string; stock: number | null }>);
  expect(stored.find((line) => line.id === PRODUCT.id)?.stock).toBe(3);
});
