/**
 * Every screen of the shop on a 375 px phone (and every checkout step on a 320 px one too),
 * signed out, as a shopper and as an admin: no page scrolls sideways, and every visible button,
 * link and tab inside main (and the open dialog) is within the screen and at least 44 × 44 px.
 * Each screen's full-page screenshot at 375 px is attached to the test (looked at, never compared
 * pixel by pixel) and its scroll width recorded as an annotation. Checks are soft: one run lists
 * every screen that does not fit. Console and page errors fail the test (tests/e2e/fixtures.ts).
 */
import { expect as baseExpect, expectConsoleError, test, type Page, type TestInfo } from './fixtures';
import { AccountPage } from './pages/account';
import { ADMIN, SHOPPER, createConfirmedUser, serviceRest, signInAs } from './pages/auth';
import { BackOffice, orderNumber, shopperWithPaidOrder } from './pages/back-office';
import { CheckoutPage, seedCart, signInFrom } from './pages/checkout';
import { PHONE, atBothPhoneSizes, expectFitsPhone } from './pages/phone';

// Screens wait on the local stack, which answers slowly while other suites share the 2 cores.
const expect = baseExpect.configure({ timeout: 15_000 });

test.use({ viewport: PHONE });
test.describe.configure({ timeout: 240_000 });

// Products of the seed (supabase/seed.sql) in stock, with images; no other spec buys them.
const CART_PRODUCTS = ['pk-etb-stellar-crown', 'rb-booster-origins', 'pk-booster-stellar-crown'];
// The second order, paid at OXXO, buys others: each product is limited per customer.
const VOUCHER_PRODUCTS = ['pk-booster-surging-sparks', 'pk-blister-stellar-crown'];
const EXTRA_PRODUCT = 'pk-etb-surging-sparks';
/** What the account's and the back office's shoppers bought. */
const ACCOUNT_PRODUCT = 'rb-booster-spiritforged';
const BACK_OFFICE_PRODUCT = 'rb-booster-unleashed';
/** A product with a gallery of several images (read only). */
const GALLERY_PRODUCT = { id: 'op-tournament-op-01', name: 'Tournament Pack OP-01 Romance Dawn' };

/** Cart items as the shop stores them, from the products as the database has them. */
async function cartOf(ids: string[]) {
  const { body } = await serviceRest('GET', `products?id=in.(${ids.join(',')})&select=id,name,price,stock,image`);
  const rows = body as Array<{ id: string; name: string; price: number; stock: number; image: string }>;
  expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
  return ids.map((id) => {
    const row = rows.find((r) => r.id === id)!;
    return { id, name: row.name, price: Number(row.price), quantity: 1, stock: row.stock, image: row.image };
  });
}

/** Opens a path and waits for its level-1 heading. */
async function visit(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('main').getByRole('heading', { level: 1, name: heading }).first()).toBeVisible();
}

/** No spinner or 'Cargando…' note left in main. */
async function settled(page: Page): Promise<void> {
  await expect(
    page
      .getByRole('main')
      .getByRole('status')
      .filter({ hasText: /^Cargando/ }),
  ).toHaveCount(0);
}

test('signed out: home, listings, product, explore, search, a cart of 3 lines, auth, help pages and 404', async ({ page }, testInfo) => {
  const check = (screen: string) => expectFitsPhone(page, testInfo, screen);

  await page.goto('/');
  await expect(page.getByRole('main').getByRole('heading', { name: 'Destined Rivals' }).first()).toBeVisible();
  await check('home');

  const search = page.getByRole('combobox', { name: 'Buscar productos' });
  await search.click();
  await expect(page.locator('astro-island:has(.ps-search)')).not.toHaveAttribute('ssr');
  await search.fill('sobre');
  await expect(page.getByRole('listbox', { name: 'Productos sugeridos' }).getByRole('option').first()).toBeVisible();
  await check('search open');
  await search.press('Escape');

  const listings: Array<[string, string | RegExp]> = [
    ['/franquicias', 'Selecciona una franquicia'],
    ['/franchise/pokemon/product-types', 'Selecciona un tipo de producto'],
    ['/franchise/pokemon/expansions', 'Selecciona una expansión'],
    ['/franchise/pokemon/product-types/booster-pack/products', /^Resultados \(\d+\)/],
    ['/franchise/pokemon/expansions/destined-rivals/products', /^Resultados \(\d+\)/],
    ['/franchise/one-piece/product-types', 'Selecciona un tipo de producto'],
  ];
  for (const [path, heading] of listings) {
    await visit(page, path, heading);
    await check(path);
  }

  await visit(page, `/product/${GALLERY_PRODUCT.id}`, GALLERY_PRODUCT.name);
  await expect(page.getByRole('main').getByText(/^Disponibles: \d+$/)).toBeVisible();
  await check('product');
  const gallery = page.getByRole('main').getByRole('button', { name: /en pantalla completa$/ });
  await gallery.click();
  await expect(page.getByRole('dialog', { name: /^Galería de / })).toBeVisible();
  await check('product gallery');
  await page.getByRole('dialog').getByRole('button', { name: 'Cerrar galería' }).click();

  await visit(page, '/explore', 'Explorar el catálogo');
  await expect(page.getByText(/^\d+ resultados?$/)).toBeVisible();
  await check('/explore');

  await seedCart(page, await cartOf(CART_PRODUCTS));
  await visit(page, '/checkout/summary', 'Tu carrito');
  await expect(page.getByRole('main').locator('[data-product-id]')).toHaveCount(3);
  await check('cart with 3 lines');
  await page.getByRole('main').getByRole('button', { name: 'Continuar con el envío' }).click();
  await expect(page.getByRole('main').getByText('Debes iniciar sesión para finalizar tu compra.')).toBeVisible();
  await check('cart, sign-in needed');

  await visit(page, '/auth', 'Inicia sesión');
  await check('/auth sign in');
  await page.getByRole('main').getByRole('button', { name: 'Crea tu cuenta', exact: true }).click();
  await expect(page.getByRole('main').getByRole('button', { name: 'Crear cuenta' })).toBeVisible();
  await check('/auth sign up');

  await page.goto('/account');
  await expect(
    page
      .getByRole('main')
      .getByRole('link', { name: 'Iniciar sesión' })
      .or(page.getByRole('main').getByRole('heading', { level: 1 }))
      .first(),
  ).toBeVisible();
  await check('/account signed out');

  for (const path of ['/faq', '/envios', '/devoluciones', '/pagos', '/privacidad', '/terminos', '/contacto', '/guia-de-condiciones']) {
    await page.goto(path);
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
    await check(path);
  }

  expectConsoleError(page, /status of 404/); // the 404 answers are the point
  await visit(page, '/pagina-que-no-existe', 'Página no encontrada');
  await check('404');
  await visit(page, '/product/producto-que-no-existe', 'Producto no encontrado');
  await check('product not found');
});

/** Every checkout screen is checked at 375 × 812 and at 320 × 640. */
async function checkStep(page: Page, testInfo: TestInfo, screen: string): Promise<void> {
  await atBothPhoneSizes(page, () => expectFitsPhone(page, testInfo, screen));
}

test('a shopper buys on a phone: every checkout step, each payment method, the confirmation and the open OXXO voucher notice', async ({ page }, testInfo) => {
  const user = await createConfirmedUser('telefono');
  // Some saldo a favor, so its payment tab has something to offer.
  const credited = await serviceRest('POST', 'rpc/store_credit_post', { p_user: user.id, p_amount: 5000, p_reason: 'adjustment', p_note: 'prueba' });
  expect(credited.status).toBe(200);
  const cart = await cartOf(CART_PRODUCTS);
  await seedCart(page, cart);
  await page.goto('/auth?next=/checkout/summary');
  await signInFrom(page, user.email, user.password);
  await page.waitForURL((url) => url.pathname === '/checkout/summary');

  const checkout = new CheckoutPage(page);
  const main = checkout.main;
  await expect(checkout.progress).toContainText('Paso 1 de 4');
  await expect(main.locator('[data-product-id]')).toHaveCount(3);
  await checkStep(page, testInfo, 'checkout 1 summary');

  await checkout.continueButton.click();
  await checkout.orderIdFromUrl();
  // México's address form: the postal code comes first.
  await expect(main.getByLabel('Código Postal')).toBeVisible();
  await checkStep(page, testInfo, 'checkout 2 shipping, new address');
  await checkout.fillAddress();
  await expect(main.getByRole('button', { name: 'Usar esta dirección' })).toBeVisible();
  await checkStep(page, testInfo, 'checkout 2 shipping, saved address');

  await main.getByRole('button', { name: 'Usar esta dirección' }).click();
  await expect(main.getByRole('heading', { name: 'Confirmar tu pago' })).toBeVisible();
  await expect(main.getByLabel('Número de tarjeta')).toBeVisible();
  await checkStep(page, testInfo, 'checkout 3 payment, card');
  await main.getByText(/^Resumen del pedido/).click();
  await checkStep(page, testInfo, 'checkout 3 payment, order summary open');
  for (const [tab, shown] of [
    ['Google / Apple Pay', /Google Pay|Apple Pay/],
    ['PayPal', /PayPal/],
    ['Efectivo en OXXO', 'Generar ficha de pago OXXO'],
    ['Saldo a favor', /saldo a favor/],
  ] as const) {
    await main.getByRole('tab', { name: tab }).click();
    await expect(main.getByRole('tabpanel').getByText(shown).first()).toBeVisible();
    await checkStep(page, testInfo, `checkout 3 payment, ${tab}`);
  }

  await main.getByRole('tab', { name: 'Tarjeta' }).click();
  await checkout.payWithCard('4242 4242 4242 4242');
  await expect(main.getByRole('heading', { name: 'Gracias por tu compra' })).toBeVisible({ timeout: 30_000 });
  await checkStep(page, testInfo, 'checkout 4 confirmation');

  // A second order, to be paid in cash at OXXO. The server makes the voucher but its answer never
  // reaches the phone (the network dropped); the shopper then changes the cart: the checkout offers
  // to keep the voucher or cancel it.
  const voucherCart = await cartOf(VOUCHER_PRODUCTS);
  await page.evaluate((items) => localStorage.setItem('cart', JSON.stringify(items)), voucherCart);
  await visit(page, '/checkout/summary', 'Tu carrito');
  await checkout.continueButton.click();
  const voucherOrderId = await checkout.orderIdFromUrl();
  await main.getByRole('button', { name: 'Usar esta dirección' }).click();
  await main.getByRole('tab', { name: 'Efectivo en OXXO' }).click();
  expectConsoleError(page, /ERR_INTERNET_DISCONNECTED.*\/api\/create-payment-intent/);
  await page.route('**/api/create-payment-intent', async (route) => {
    await route.fetch();
    await route.abort('internetdisconnected');
  });
  await main.getByRole('button', { name: 'Generar ficha de pago OXXO' }).click();
  await expect(
    main
      .getByRole('tabpanel')
      .getByText(/No se pudo|error/i)
      .first(),
  ).toBeVisible();
  await page.unroute('**/api/create-payment-intent');
  await expect
    .poll(
      async () => ((await serviceRest('GET', `orders?id=eq.${voucherOrderId}&select=oxxo_voucher`)).body as Array<{ oxxo_voucher: unknown }>)[0]?.oxxo_voucher,
    )
    .toBeTruthy();

  await page.evaluate((items) => localStorage.setItem('cart', JSON.stringify(items)), [...voucherCart, ...(await cartOf([EXTRA_PRODUCT]))]);
  await visit(page, '/checkout/summary', 'Tu carrito');
  await checkout.continueButton.click();
  const notice = main.getByRole('alert').filter({ hasText: 'Tienes una ficha de OXXO pendiente para este pedido' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(orderNumber(voucherOrderId));
  await checkStep(page, testInfo, 'checkout 1 summary, open OXXO voucher notice');

  await notice.getByRole('button', { name: 'Conservar la ficha' }).click();
  await page.waitForURL((url) => url.pathname === `/checkout/${voucherOrderId}`);
  await expect(main.getByTestId('oxxo-voucher').getByRole('heading', { name: 'Tu ficha de pago OXXO' })).toBeVisible();
  await checkStep(page, testInfo, 'checkout 3 payment, OXXO voucher');

  // The Orders tab with an order waiting for its OXXO payment and a paid one.
  const account = new AccountPage(page);
  await account.goto();
  await account.openTab('Pedidos');
  await expect(account.panel.getByTestId('oxxo-pending')).toBeVisible();
  await expectFitsPhone(page, testInfo, 'account, Pedidos with an OXXO voucher pending');
});

test('a shopper’s account on a phone: every tab with data, saldo a favor and order details', async ({ page, baseURL }, testInfo) => {
  const check = (screen: string) => expectFitsPhone(page, testInfo, screen);
  // A shopper with a paid order (and its address) and saldo a favor with a movement.
  const shopper = await shopperWithPaidOrder(baseURL!, ACCOUNT_PRODUCT);
  const { body } = await serviceRest('GET', `orders?id=eq.${shopper.orderId}&select=user_id`);
  const userId = (body as Array<{ user_id: string }>)[0]!.user_id;
  const credited = await serviceRest('POST', 'rpc/store_credit_post', { p_user: userId, p_amount: 12_345, p_reason: 'adjustment', p_note: 'prueba' });
  expect(credited.status).toBe(200);

  await signInAs(page, shopper.email, shopper.password);
  const account = new AccountPage(page);
  await expect(account.panel.getByRole('region', { name: 'Resumen' }).getByText('Saldo a favor: $123.45', { exact: true })).toBeVisible();
  await expect(account.panel.getByRole('region', { name: 'Movimientos de tu saldo a favor' }).getByRole('listitem')).toHaveCount(1);
  await settled(page);
  await check('account, Mi perfil with saldo a favor');
  await account.panel.getByRole('button', { name: 'Editar datos' }).click();
  await expect(account.profileForm).toBeVisible();
  await check('account, Mi perfil editing');

  await account.openTab('Pedidos');
  await expect(account.orderRows).toHaveCount(1);
  await check('account, Pedidos');
  await account.orderRows
    .first()
    .getByRole('button', { name: /^Ver detalles/ })
    .click();
  await expect(account.panel.getByTestId('order-line').first()).toBeVisible();
  await check('account, Pedidos with details open');

  for (const tab of ['Favoritos', 'Direcciones', 'Configuración'] as const) {
    await account.openTab(tab);
    await settled(page);
    await check(`account, ${tab}`);
  }
  await account.openTab('Direcciones');
  await expect(account.addresses.first()).toBeVisible();
  await account.addresses.first().getByRole('button', { name: 'Editar' }).click();
  await check('account, Direcciones editing');

  // The demo shopper's history: more than 8 orders, so the pager shows too.
  await page.getByRole('complementary', { name: 'Tu cuenta' }).getByRole('button', { name: 'Cerrar sesión' }).click();
  await signInAs(page, SHOPPER.email, SHOPPER.password);
  await account.openTab('Pedidos');
  await expect(account.panel.getByText(/^Página 1 de \d+$/)).toBeVisible();
  await check('account, Pedidos with pages');
  await account.orderRows
    .first()
    .getByRole('button', { name: /^Ver detalles/ })
    .click();
  await expect(account.panel.getByTestId('order-line').first()).toBeVisible();
  await check('account, Pedidos with pages, details open');
});

test('the back office on a phone: every screen, the order detail with its refund dialog, and the admin’s account', async ({ page, baseURL }, testInfo) => {
  const check = (screen: string) => expectFitsPhone(page, testInfo, screen);
  const shopper = await shopperWithPaidOrder(baseURL!, BACK_OFFICE_PRODUCT);
  await signInAs(page, ADMIN.email, ADMIN.password);
  await settled(page);
  await check('account as admin');

  const office = new BackOffice(page);
  const screens: Array<[string, string]> = [
    ['/admin', 'Resumen'],
    ['/admin/pedidos', 'Pedidos'],
    ['/admin/productos', 'Productos'],
    ['/admin/boletin', 'Boletín'],
    ['/admin/catalogo', 'Catálogo'],
  ];
  for (const [path, heading] of screens) {
    await office.goto(path);
    await expect(office.main.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await settled(page);
    await check(path);
  }

  await office.goto('/admin/productos');
  await office.main.getByRole('button', { name: 'Editar' }).first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await check('/admin/productos, edit dialog');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  const detail = await office.openOrder(shopper.orderId);
  await settled(page);
  await check('/admin/pedidos, order detail');
  await detail.getByRole('button', { name: 'Cancelar y reembolsar' }).click();
  const dialog = page.getByRole('dialog', { name: `¿Cancelar y reembolsar el pedido ${orderNumber(shopper.orderId)}?` });
  await expect(dialog).toBeVisible();
  await check('/admin/pedidos, refund dialog');
  await dialog.getByRole('button', { name: 'No, volver' }).click();
  await expect(dialog).toBeHidden();

  await page.goto('/admin/add');
  await expect(page.getByRole('form', { name: 'Registrar nuevo producto' })).toBeVisible({ timeout: 20_000 });
  await check('/admin/add');
  await page.goto('/account/addproduct');
  await expect(page.getByRole('form', { name: 'Registrar nuevo producto' })).toBeVisible({ timeout: 20_000 });
  await check('/account/addproduct');
});
