/**
 * The back office (/admin): who gets in, shipping an order while the shopper watches their Orders
 * tab live and gets the e-mail, keyboard-only shipping, refunds, product edits, the newsletter
 * CSV, and axe on every screen (with screenshots at 375 and 1280 px when ADMIN_SCREENSHOTS names
 * a folder).
 */
import AxeBuilder from '@axe-core/playwright';
import { test, expect as baseExpect, type Page } from './fixtures';
import { ADMIN, SHOPPER, accessToken, atPath, serviceRest, signInAs } from './pages/auth.ts';
import { AccountPage } from './pages/account.ts';
import { BackOffice, orderNumber, shopperWithPaidOrder, subscribe } from './pages/back-office.ts';
import { mailbox, mxn } from './pages/checkout.ts';

// Screens wait on the local stack, which answers slowly while other suites share the 2 cores.
const expect = baseExpect.configure({ timeout: 15_000 });

test.describe.configure({ timeout: 120_000 });

async function seriousViolations(page: Page): Promise<string[]> {
  const axe = await new AxeBuilder({ page }).include('main').analyze();
  return axe.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Presses Tab until `target` has the focus (keyboard only), failing after `max` presses. */
async function tabTo(page: Page, target: ReturnType<Page['locator']>, max = 60): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('the element never got the focus with Tab');
}

test('sin sesión /admin lleva al inicio de sesión y de vuelta; una compradora ve No tienes acceso', async ({ page }) => {
  await page.goto('/admin/pedidos');
  await page.waitForURL((url) => url.pathname === '/auth' && url.searchParams.get('next') === '/admin/pedidos');
  const { AuthPage } = await import('./pages/auth.ts');
  await new AuthPage(page).login(ADMIN.email, ADMIN.password);
  await page.waitForURL(atPath('/admin/pedidos'));
  const office = new BackOffice(page);
  await office.ready();
  for (const label of ['Resumen', 'Pedidos', 'Productos', 'Boletín', 'Catálogo']) {
    await expect(office.nav.getByRole('link', { name: label, exact: true })).toBeVisible();
  }
  await expect(office.nav.getByRole('link', { name: 'Pedidos' })).toHaveAttribute('aria-current', 'page');

  // The account page keeps 'Registrar producto' and adds 'Panel de administración'.
  const account = new AccountPage(page);
  await account.goto();
  await expect(account.sidebar.getByRole('link', { name: 'Registrar producto' })).toHaveAttribute('href', '/admin/add');
  await account.sidebar.getByRole('link', { name: 'Panel de administración' }).click();
  await page.waitForURL(atPath('/admin'));
  await expect(page.getByRole('heading', { level: 1, name: 'Resumen' })).toBeVisible();
  // 'Registrar nuevo producto' stays reachable from 'Productos'.
  await office.nav.getByRole('link', { name: 'Productos' }).click();
  await expect(office.main.getByRole('link', { name: 'Registrar nuevo producto' })).toHaveAttribute('href', '/admin/add');

  const shopperPage = await page
    .context()
    .browser()!
    .newContext()
    .then((c) => c.newPage());
  await signInAs(shopperPage, SHOPPER.email, SHOPPER.password);
  await expect(new AccountPage(shopperPage).sidebar.getByRole('link', { name: 'Panel de administración' })).toHaveCount(0);
  for (const path of ['/admin', '/admin/pedidos', '/admin/productos', '/admin/boletin', '/admin/catalogo']) {
    await shopperPage.goto(path);
    await expect(shopperPage.getByRole('heading', { name: 'No tienes acceso' })).toBeVisible();
    await expect(shopperPage.getByRole('navigation', { name: 'Administración' })).toHaveCount(0);
  }
  await shopperPage.context().close();
});

test('la administradora envía un pedido pagado con guía; la compradora lo ve en vivo y recibe el correo', async ({ page, browser, baseURL }) => {
  const shopper = await shopperWithPaidOrder(baseURL!);
  const number = orderNumber(shopper.orderId);

  // The shopper watches their Orders tab in a browser of their own.
  const shopperContext = await browser.newContext();
  const shopperPage = await shopperContext.newPage();
  await signInAs(shopperPage, shopper.email, shopper.password);
  const account = new AccountPage(shopperPage);
  await account.openTab('Pedidos');
  const row = account.panel.locator(`[data-order-id="${shopper.orderId}"]`);
  await expect(row).toContainText('Pagado');

  await signInAs(page, ADMIN.email, ADMIN.password);
  const office = new BackOffice(page);
  const detail = await office.openOrder(shopper.orderId);
  await expect(detail.getByTestId('admin-order-status')).toHaveText('Pagado');
  await expect(detail).toContainText(shopper.email);
  await expect(detail.getByTestId('admin-order-address')).toContainText('Insurgentes Sur 1000');
  // How it was paid, in the shop's words (orders.payment_method), not the provider's internal name.
  await expect(detail.getByTestId('admin-order-method')).toHaveText('Tarjeta');
  await expect(detail.getByTestId('admin-order-method')).not.toContainText('simulated');
  await expect(detail.getByRole('button', { name: 'Marcar como completado' })).toHaveCount(0);

  // Both fields are required.
  await detail.getByRole('button', { name: 'Marcar como enviado' }).click();
  await expect(detail).toContainText('Elige la paquetería.');
  await expect(detail).toContainText('Escribe el número de guía.');

  await detail.getByLabel('Paquetería').selectOption('DHL');
  await detail.getByLabel('Número de guía').fill('JD014600006281');
  await detail.getByRole('button', { name: 'Marcar como enviado' }).click();
  await expect(detail.getByTestId('admin-order-status')).toHaveText('Enviado');
  await expect(detail.getByTestId('admin-order-history')).toContainText('Pagado → Enviado');
  await expect(detail.getByTestId('admin-order-history')).toContainText('Administrador');
  await expect(detail.getByTestId('admin-order-history')).toContainText('Enviado por DHL, guía JD014600006281');
  await expect(detail.getByTestId('admin-order-history')).toContainText('Pendiente → Pagado');
  await expect(detail.getByTestId('admin-order-history')).not.toContainText('simulated');

  // Live, without a reload.
  await expect(row).toContainText('Enviado');
  await row.getByRole('button', { name: /Ver detalles/ }).click();
  // The Orders tab says how the order was paid: 'Tarjeta', never the provider's 'simulated-card'.
  await expect(account.panel.getByTestId('order-payment-method')).toHaveText('Forma de pago: Tarjeta');
  await expect(account.panel).not.toContainText('simulated');
  const tracking = account.panel.getByTestId('order-tracking');
  await expect(tracking.getByTestId('order-carrier')).toHaveText('DHL');
  await expect(tracking.getByRole('link', { name: /JD014600006281/ })).toHaveAttribute('href', /dhl\.com.*JD014600006281/);
  await expect(tracking.getByTestId('order-history')).toContainText('Pagado → Enviado');

  await expect
    .poll(async () => (await mailbox(shopper.email)).find((m) => m.subject === `Tu pedido ${number} fue enviado`)?.text ?? '', { timeout: 20_000 })
    .toContain('Número de guía: JD014600006281');
  const mail = (await mailbox(shopper.email)).find((m) => m.subject === `Tu pedido ${number} fue enviado`)!;
  expect(mail.text).toContain('Paquetería: DHL');

  // Then completed; an impossible transition is refused by the database.
  await detail.getByRole('button', { name: 'Marcar como completado' }).click();
  await expect(detail.getByTestId('admin-order-status')).toHaveText('Completado');
  await expect(row).toContainText('Completado');
  await expect.poll(async () => (await mailbox(shopper.email)).map((m) => m.subject), { timeout: 20_000 }).toContain(`Tu pedido ${number} fue completado`);
  const token = await accessToken(ADMIN.email, ADMIN.password);
  const again = await page.request.post(`/api/admin/orders/${shopper.orderId}/status`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { status: 'Enviado', carrier: 'DHL', trackingNumber: '1' },
  });
  expect(again.status()).toBe(409);
  expect(((await again.json()) as { message: string }).message).toBe('No se puede cambiar un pedido de «Completado» a «Enviado».');
  // A shopper cannot use the endpoint, even on their own order.
  const forbidden = await page.request.post(`/api/admin/orders/${shopper.orderId}/status`, {
    headers: { Authorization: `Bearer ${shopper.token}` },
    data: { status: 'Completado' },
  });
  expect(forbidden.status()).toBe(403);
  await shopperContext.close();
});

test('se envía un pedido solo con el teclado', async ({ page, baseURL }) => {
  const shopper = await shopperWithPaidOrder(baseURL!);
  const number = orderNumber(shopper.orderId);
  await signInAs(page, ADMIN.email, ADMIN.password);
  const office = new BackOffice(page);
  await office.goto(`/admin/pedidos?q=${encodeURIComponent(number)}`);
  const link = office.main.getByRole('link', { name: number, exact: true });
  await expect(link).toBeVisible();
  // The list says how each order was paid.
  await expect(office.main.locator(`[data-order-id="${shopper.orderId}"]`).getByTestId('admin-order-method')).toHaveText('Tarjeta');
  await tabTo(page, link);
  await page.keyboard.press('Enter');
  const detail = office.main.getByTestId('admin-order-detail');
  await expect(detail.getByRole('heading', { level: 1, name: `Pedido ${number}` })).toBeFocused();
  const carrier = detail.getByLabel('Paquetería');
  await tabTo(page, carrier);
  // A closed, focused select changes with the arrow keys.
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowDown');
  await expect(carrier).toHaveValue('FedEx');
  await page.keyboard.press('Tab');
  await expect(detail.getByLabel('Número de guía')).toBeFocused();
  await page.keyboard.type('794698765432');
  await page.keyboard.press('Enter');
  await expect(detail.getByTestId('admin-order-status')).toHaveText('Enviado');
  await expect(detail).toContainText('794698765432');
  const order = await serviceRest('GET', `orders?id=eq.${shopper.orderId}&select=status,carrier,tracking_number`);
  expect(order.body).toEqual([{ status: 'Enviado', carrier: 'FedEx', tracking_number: '794698765432' }]);
});

test('Cancelar y reembolsar: confirmación, reembolso a la tarjeta por el proveedor, stock devuelto y correo', async ({ page, baseURL }) => {
  // A product no other end-to-end test buys, so its stock moves only with this order.
  const productId = 'op-boosterbox-op-02';
  const shopper = await shopperWithPaidOrder(baseURL!, productId);
  const number = orderNumber(shopper.orderId);
  const stockOf = async () => ((await serviceRest('GET', `products?id=eq.${productId}&select=stock`)).body as Array<{ stock: number }>)[0]!.stock;
  await signInAs(page, ADMIN.email, ADMIN.password);
  const office = new BackOffice(page);
  const detail = await office.openOrder(shopper.orderId);
  const before = await stockOf();

  await detail.getByRole('button', { name: 'Cancelar y reembolsar' }).click();
  const dialog = page.getByRole('dialog', { name: `¿Cancelar y reembolsar el pedido ${number}?` });
  await expect(dialog).toBeVisible();
  // The method by its label, never the provider's internal name; back to the card by default.
  await expect(dialog.getByTestId('refund-method')).toHaveText('Tarjeta');
  await expect(dialog).not.toContainText('simulad');
  await expect(dialog.getByRole('radio', { name: 'Reembolsar a la tarjeta' })).toBeChecked();
  expect(await seriousViolations(page)).toEqual([]);
  // 'No, volver' changes nothing.
  await dialog.getByRole('button', { name: 'No, volver' }).click();
  await expect(dialog).toBeHidden();
  await expect(detail.getByTestId('admin-order-status')).toHaveText('Pagado');

  await detail.getByRole('button', { name: 'Cancelar y reembolsar' }).click();
  await dialog.getByRole('button', { name: 'Sí, cancelar y reembolsar' }).click();
  await expect(detail.getByTestId('admin-order-status')).toHaveText('Reembolsado');
  await expect(detail.getByTestId('admin-order-history')).toContainText('Pagado → Reembolsado');
  await expect(detail.getByRole('button', { name: 'Cancelar y reembolsar' })).toHaveCount(0);
  // This order's unit came back.
  expect(await stockOf()).toBe(before + 1);
  const order = await serviceRest('GET', `orders?id=eq.${shopper.orderId}&select=status,refund_ref`);
  expect((order.body as Array<{ status: string; refund_ref: string | null }>)[0]).toMatchObject({ status: 'Reembolsado', refund_ref: expect.any(String) });
  await expect.poll(async () => (await mailbox(shopper.email)).map((m) => m.subject), { timeout: 20_000 }).toContain(`Tu pedido ${number} fue reembolsado`);
});

test('Cancelar un pedido pendiente devuelve el stock y avisa a la compradora', async ({ page }) => {
  // A product no other end-to-end test buys, so its stock moves only with this order.
  const productId = 'op-boosterbox-op-01';
  const { shopperWithOrder } = await import('./pages/checkout.ts');
  const shopper = await shopperWithOrder(productId);
  const number = orderNumber(shopper.orderId);
  const stockOf = async () => ((await serviceRest('GET', `products?id=eq.${productId}&select=stock`)).body as Array<{ stock: number }>)[0]!.stock;
  await signInAs(page, ADMIN.email, ADMIN.password);
  const detail = await new BackOffice(page).openOrder(shopper.orderId);
  await expect(detail.getByTestId('admin-order-status')).toHaveText('Pendiente');
  await expect(detail.getByRole('button', { name: 'Cancelar y reembolsar' })).toHaveCount(0);
  const before = await stockOf();
  await detail.getByRole('button', { name: 'Cancelar', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `¿Cancelar el pedido ${number}?` });
  await dialog.getByRole('button', { name: 'Sí, cancelar el pedido' }).click();
  await expect(detail.getByTestId('admin-order-status')).toHaveText('Cancelado');
  await expect(detail.getByTestId('admin-order-history')).toContainText('Pendiente → Cancelado');
  expect(await stockOf()).toBe(before + 1);
  await expect.poll(async () => (await mailbox(shopper.email)).map((m) => m.subject), { timeout: 20_000 }).toContain(`Tu pedido ${number} fue cancelado`);
});

test('editar precio y stock de un producto: validación, insignia de descuento y stock en vivo', async ({ page }) => {
  // A sealed product: a single card's price and stock are its offers' ('Carta y ofertas', admin-singles.spec.ts).
  const [product] = (
    await serviceRest('GET', 'products?select=id,name,price,stock&id=like.rb-*&product_type_id=neq.rb-single-card&preorder=eq.false&order=id.desc&limit=1')
  ).body as Array<{
    id: string;
    name: string;
    price: number;
    stock: number;
  }>;
  await signInAs(page, ADMIN.email, ADMIN.password);
  const office = new BackOffice(page);
  await office.goto(`/admin/productos?q=${encodeURIComponent(product!.id)}`);
  const row = office.main.locator(`[data-product-id="${product!.id}"]`);
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: /Editar/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Editar producto' });
  await expect(dialog).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // The add form's messages.
  await dialog.getByLabel('Precio (MXN)', { exact: true }).fill('12,5');
  await dialog.getByLabel('Stock').fill('-1');
  await dialog.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Revisa los campos marcados.');
  await expect(dialog).toContainText('Precio inválido: usa un número mayor o igual a 0 con hasta 2 decimales.');
  await expect(dialog).toContainText('El stock debe ser un número entero mayor o igual a 0.');

  await dialog.getByLabel('Precio (MXN)', { exact: true }).fill('750');
  await dialog.getByLabel('Precio original (MXN)').fill('1000');
  await expect(dialog.getByTestId('discount-preview')).toContainText('-25%');
  await dialog.getByLabel('Stock').fill('7');
  await dialog.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(dialog).toBeHidden();
  await expect(office.main.getByRole('status').filter({ hasText: 'Producto guardado' })).toBeVisible();
  await expect(row).toContainText(mxn(750));
  await expect(row).toContainText('-25%');
  const saved = await serviceRest('GET', `products?id=eq.${product!.id}&select=price,original_price,discount,stock`);
  expect(saved.body).toEqual([{ price: 750, original_price: 1000, discount: true, stock: 7 }]);

  // The product page's buy box reads the live stock at once (no rebuild needed for stock).
  await row.getByRole('button', { name: /Editar/ }).click();
  await dialog.getByLabel('Stock').fill('0');
  await dialog.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(office.main.getByRole('status').filter({ hasText: 'Stock actualizado' })).toBeVisible();
  const stock = await serviceRest('GET', `products?id=eq.${product!.id}&select=stock`);
  expect(stock.body).toEqual([{ stock: 0 }]);
});

test('Boletín: lista, búsqueda y Exportar CSV; el CSV pide token de administrador', async ({ page, request }) => {
  const tricky = `o"brien,${Date.now()}@correo.mx`;
  await subscribe(tricky);
  const none = await request.get('/api/admin/newsletter.csv');
  expect(none.status()).toBe(401);
  const shopper = await request.get('/api/admin/newsletter.csv', {
    headers: { Authorization: `Bearer ${await accessToken(SHOPPER.email, SHOPPER.password)}` },
  });
  expect(shopper.status()).toBe(403);
  const admin = await request.get('/api/admin/newsletter.csv', { headers: { Authorization: `Bearer ${await accessToken(ADMIN.email, ADMIN.password)}` } });
  expect(admin.status()).toBe(200);
  expect(admin.headers()['content-type']).toBe('text/csv; charset=utf-8');
  const csv = await admin.text();
  expect(csv.split('\r\n')[0]).toBe('correo,fecha_de_suscripcion');
  expect(csv).toContain(`"${tricky.replace(/"/g, '""')}",`);

  await signInAs(page, ADMIN.email, ADMIN.password);
  const office = new BackOffice(page);
  await office.goto('/admin/boletin');
  await expect(office.main.getByTestId('newsletter-count')).toContainText('suscriptor');
  await office.main.getByLabel('Buscar correo').fill('o"brien');
  await expect(office.main.getByTestId('subscriber-row').filter({ hasText: tricky })).toBeVisible();
  const download = page.waitForEvent('download');
  await office.main.getByRole('button', { name: 'Exportar CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^boletin-\d{4}-\d{2}-\d{2}\.csv$/);
});

test('axe en cada pantalla de administración (capturas a 375 y 1280 px con ADMIN_SCREENSHOTS)', async ({ page }) => {
  await signInAs(page, ADMIN.email, ADMIN.password);
  const office = new BackOffice(page);
  const folder = process.env.ADMIN_SCREENSHOTS;
  const screens: Array<[string, string, string]> = [
    ['resumen', '/admin', 'Resumen'],
    ['pedidos', '/admin/pedidos', 'Pedidos'],
    ['pedido', '/admin/pedidos?pedido=c0ffee00-0000-4000-9000-000000200005', 'Pedido #200005'],
    ['productos', '/admin/productos', 'Productos'],
    ['boletin', '/admin/boletin', 'Boletín'],
    ['catalogo', '/admin/catalogo', 'Catálogo'],
  ];
  for (const [name, path, heading] of screens) {
    for (const width of folder ? [375, 1280] : [1280]) {
      await page.setViewportSize({ width, height: 900 });
      await office.goto(path);
      await expect(office.main.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(office.main.getByRole('status').filter({ hasText: /^Cargando/ })).toHaveCount(0);
      expect(await seriousViolations(page), `${path} at ${width}px`).toEqual([]);
      if (folder) await page.screenshot({ path: `${folder}/admin-${name}-${width}.png`, fullPage: true });
    }
  }
  // The summary's chart is an image with a name and its numbers as a table.
  await office.goto('/admin');
  await expect(office.main.getByRole('img', { name: 'Ventas de los últimos 30 días' })).toBeVisible();
  await office.main.getByText('Ver los datos como tabla').click();
  await expect(office.main.getByRole('table').locator('tbody tr')).toHaveCount(30);
  for (const counter of ['Por enviar', 'Pendientes de pago', 'Reembolsos por revisar']) {
    await expect(office.main.getByRole('link', { name: new RegExp(counter) })).toBeVisible();
  }
});
