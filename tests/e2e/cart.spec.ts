/**
 * The cart summary (/checkout/summary): quantities within 1…stock, Eliminar, the empty cart, the
 * coupon messages, reconciliation with live products, create_order's refusals next to the line,
 * and a price changed in localStorage never reaching the order.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect as baseExpect, test, expectConsoleError } from './fixtures';
import { accessToken, AuthPage, createConfirmedUser, serviceRest, STACK_URL, stackKeys } from './pages/auth';
import { CheckoutPage, mxn, orderInDb, seedCart } from './pages/checkout';

const expect = baseExpect.configure({ timeout: 15_000 });

const item = (id: string, price: number, quantity: number, stock: number, name = id) => ({ id, name, price, quantity, stock, image: '' });

test.describe('cart summary', () => {
  test('quantity − / + stay within 1 and the stock, Eliminar empties the cart, Seguir comprando goes home', async ({ page }) => {
    await seedCart(page, [item('pk-blister-prismatic-evolutions', 199, 10, 11)]);
    const checkout = new CheckoutPage(page);
    await checkout.gotoSummary();
    const row = checkout.row('pk-blister-prismatic-evolutions');
    const plus = row.getByRole('button', { name: /^Agregar uno de/ });
    const minus = row.getByRole('button', { name: /^Quitar uno de/ });
    await expect(row).toContainText(mxn(1990));
    await plus.click();
    await expect(row.locator('output')).toHaveText('11');
    await expect(plus).toBeDisabled();
    await expect(row.getByText('Máximo disponible en stock.')).toBeVisible();
    await expect(row).toContainText(mxn(2189));
    for (let i = 0; i < 10; i += 1) await minus.click();
    await expect(row.locator('output')).toHaveText('1');
    await expect(minus).toBeDisabled();
    await expect(checkout.main.getByText('Te faltan')).toContainText(mxn(2999 - 199));
    const results = await new AxeBuilder({ page }).include('main').analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);

    await row.getByRole('button', { name: /^Eliminar/ }).click();
    await expect(checkout.main.getByText('Tu carrito está vacío.')).toBeVisible();
    await checkout.main.getByRole('link', { name: 'Seguir comprando' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('a coupon that is removed clears its message; an unknown one clears the coupon', async ({ page }) => {
    await seedCart(page, [item('pk-etb-twilight-masquerade', 1299, 3, 37)]);
    const checkout = new CheckoutPage(page);
    await checkout.gotoSummary();
    await expect(page.locator('[data-amount="shipping"]')).toHaveText('Gratis');
    await expect(page.getByText('¡Tu pedido tiene envío gratis!')).toBeVisible();
    await checkout.applyCoupon('MEKACAT10');
    await expect(checkout.couponMessage).toHaveText('🎉 Cupón aplicado: 10% de descuento.');
    await expect(page.locator('[data-amount="discount"]')).toHaveText(`−${mxn(389.7)}`);
    await expect(checkout.total).toHaveText(mxn(3897 - 389.7));
    await checkout.applyCoupon('GRATIS');
    await expect(checkout.couponMessage).toHaveText('⚠️ Cupón no válido.');
    await expect(checkout.total).toHaveText(mxn(3897));
    await checkout.applyCoupon('MEKACAT10');
    await page.getByRole('button', { name: 'Quitar cupón' }).click();
    await expect(checkout.couponMessage).toHaveText('');
    await expect(checkout.total).toHaveText(mxn(3897));
  });

  test('reconciles with live products: gone products leave, prices refresh, quantities clamp', async ({ page }) => {
    await seedCart(page, [
      item('no-existe-este-producto', 10, 1, 5, 'Producto fantasma'),
      item('pk-bundle-prismatic-evolutions', 1, 2, 44, 'Bundle viejo'),
      item('pk-booster-journey-together', 89, 9, 50),
    ]);
    const checkout = new CheckoutPage(page);
    await checkout.gotoSummary();
    await expect(page.getByText('«Producto fantasma» ya no está disponible y se quitó de tu carrito.')).toBeVisible();
    await expect(checkout.row('no-existe-este-producto')).toHaveCount(0);
    await expect(page.getByText(/El precio de «.+» cambió de \$1\.00 a \$899\.00\./)).toBeVisible();
    await expect(checkout.row('pk-bundle-prismatic-evolutions')).toContainText(mxn(1798));
    const { body } = await serviceRest('GET', 'products?id=eq.pk-booster-journey-together&select=stock');
    const stock = (body as Array<{ stock: number }>)[0]!.stock;
    await expect(checkout.row('pk-booster-journey-together').locator('output')).toHaveText(String(Math.min(9, stock)));
    // The cart was seeded with peso prices; it is saved back with the unit price in centavos.
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '[]') as Array<{ id: string; priceCentavos: number }>);
    expect(stored.find((i) => i.id === 'pk-bundle-prismatic-evolutions')?.priceCentavos).toBe(89900);
  });

  test('a price lowered in localStorage after the page opened never reaches the order', async ({ page }) => {
    const user = await createConfirmedUser('precio');
    await page.goto('/auth?next=/checkout/summary');
    await page.evaluate(() =>
      localStorage.setItem('cart', JSON.stringify([{ id: 'pk-display-stellar-crown', name: 'Display', price: 1444, quantity: 1, stock: 26, image: '' }])),
    );
    await new AuthPage(page).login(user.email, user.password);
    await page.waitForURL('**/checkout/summary');
    const checkout = new CheckoutPage(page);
    await expect(checkout.row('pk-display-stellar-crown')).toBeVisible();
    // Setup: the page has met the live catalogue (the line's name is the catalogue's now); a price
    // written before that is replaced by the live one, which is not what this test is about.
    await expect
      .poll(() => page.evaluate(() => (JSON.parse(localStorage.getItem('cart') ?? '[]') as Array<{ name?: string }>)[0]?.name))
      .toBe('Display de sobres Corona Astral (18 sobres)');
    // Tampering after reconciliation: another tab writes a cheaper price; the store follows it.
    await page.evaluate(() => {
      const cart = JSON.parse(localStorage.getItem('cart')!) as Array<{ price?: number; priceCentavos?: number }>;
      delete cart[0]!.price;
      cart[0]!.priceCentavos = 100;
      localStorage.setItem('cart', JSON.stringify(cart));
      window.dispatchEvent(new StorageEvent('storage', { key: 'cart', newValue: JSON.stringify(cart), storageArea: localStorage }));
    });
    await expect(checkout.total).toHaveText(mxn(1 + 99));
    await checkout.continueButton.click();
    const orderId = await checkout.orderIdFromUrl();
    const row = await orderInDb(orderId);
    expect(Number(row.subtotal)).toBe(1444);
    expect(Number(row.total)).toBe(1444 + 99);
    // The shipping step's address form (México's: the postal code first).
    await page.getByLabel('Código Postal').waitFor();
  });

  test('create_order refusals show next to the line concerned', async ({ page }) => {
    const user = await createConfirmedUser('limite');
    await seedCart(page, [item('pk-etb-crown-zenith', 2199, 4, 42, 'ETB Crown Zenith')]);
    // The database refuses the order (400): the browser logs that failed request.
    expectConsoleError(page, /status of 400.*create_order/);
    await page.goto('/auth?next=/checkout/summary');
    await new AuthPage(page).login(user.email, user.password);
    await page.waitForURL((url) => url.pathname === '/checkout/summary');
    const checkout = new CheckoutPage(page);
    await checkout.continueButton.click();
    const row = checkout.row('pk-etb-crown-zenith');
    await expect(row.getByRole('alert')).toContainText('Solo puedes comprar 3 unidad(es)');
    await expect(page).toHaveURL(/\/checkout\/summary$/);
  });
});

test.describe('checkout refuses what is not yours', () => {
  test('another user’s order, a forged amount and another customer id are refused', async ({ page, request }) => {
    test.setTimeout(60_000);
    const owner = await createConfirmedUser('dueno');
    const intruder = await createConfirmedUser('intruso');
    const ownerToken = await accessToken(owner.email, owner.password);
    const intruderToken = await accessToken(intruder.email, intruder.password);
    const { anonKey } = await stackKeys();
    const created = await request.post(`${STACK_URL}/rest/v1/rpc/create_order`, {
      headers: { apikey: anonKey, Authorization: `Bearer ${ownerToken}` },
      data: { items: [{ product_id: 'pk-sleeves-surging-sparks', quantity: 1 }], coupon_code: null },
    });
    expect(created.ok()).toBe(true);
    const orderId = (await created.json()) as string;

    const forged = await request.post('/api/create-payment-intent', { headers: { Authorization: `Bearer ${ownerToken}` }, data: { orderId, amount: 100 } });
    expect(forged.status()).toBe(400);
    const foreign = await request.post('/api/create-payment-intent', { headers: { Authorization: `Bearer ${intruderToken}` }, data: { orderId } });
    expect(foreign.status()).toBe(403);
    const anonymous = await request.post('/api/create-payment-intent', { data: { orderId } });
    expect(anonymous.status()).toBe(401);
    const customer = await request.post('/api/stripe/customer', { headers: { Authorization: `Bearer ${ownerToken}` }, data: {} });
    const { customerId } = (await customer.json()) as { customerId: string };
    const cards = await request.get(`/api/stripe/payment-methods?customerId=${customerId}`, { headers: { Authorization: `Bearer ${intruderToken}` } });
    expect(cards.status()).toBe(403);
    const ownCards = await request.get(`/api/stripe/payment-methods?customerId=${customerId}`, { headers: { Authorization: `Bearer ${ownerToken}` } });
    expect(await ownCards.json()).toEqual([]);

    // The intruder opening the owner's order page sees a refusal, never the order.
    await page.goto(`/auth?next=/checkout/${orderId}`);
    await new AuthPage(page).login(intruder.email, intruder.password);
    await page.waitForURL((url) => url.pathname === `/checkout/${orderId}`);
    await expect(page.getByText('No tienes acceso a este pedido.')).toBeVisible();
    expect((await orderInDb(orderId)).status).toBe('Pendiente');

    expectConsoleError(page, /status of 404/); // the 404 answer is the point
    const malformed = await page.goto('/checkout/no-es-un-pedido');
    expect(malformed?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Pedido no encontrado' })).toBeVisible();
  });
});
