import { test, expect as baseExpect, expectConsoleError } from './fixtures';
import AxeBuilder from '@axe-core/playwright';
import { AuthPage, SHOPPER, createConfirmedUser, serviceRest, signInAs } from './pages/auth.ts';
import { AccountPage } from './pages/account.ts';

// Each test signs in and waits on the local stack, which answers slowly while other suites
// share the 2 cores.
const expect = baseExpect.configure({ timeout: 10_000 });

test.describe.configure({ timeout: 60_000 });

/** A Mexican address in Puebla for AccountPage.fillAddress: colonia 'Centro' and a contact phone. */
function mx(street: string, exterior: string, municipality: string, zip: string) {
  return { street, exterior, neighborhood: 'Centro', municipality, state: 'Puebla', zip, phone: '2221234567' };
}

async function expectNoSeriousViolations(page: import('@playwright/test').Page) {
  const results = await new AxeBuilder({ page }).include('main').analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

test('sin sesión /account muestra el inicio de sesión y, al entrar, la cuenta en la misma página', async ({ page }) => {
  await page.goto('/account');
  const auth = new AuthPage(page);
  await auth.ready();
  await auth.login(SHOPPER.email, SHOPPER.password);
  const account = new AccountPage(page);
  // 'Bienvenido' shows as the sign-in succeeds, for 2.6 s, while the account is still loading its
  // profile: looked for first (on a busy machine the tabs came after it had gone, 2026-12-02).
  await account.expectToast('Bienvenido');
  await expect(account.tabs).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/account');
});

test('una sesión guardada que ya no es válida muestra Sesión no disponible con Iniciar sesión', async ({ page }) => {
  // The stale session is refused on purpose, by whichever read goes first: the profile, the user,
  // the sign-out, or the header's favorites count.
  expectConsoleError(page, /status of 40[13].*\/(rest\/v1\/(profiles|favorites)|auth\/v1\/(user|logout))/);
  await signInAs(page, SHOPPER.email, SHOPPER.password);
  // Corrupt the stored access token: the auth server refuses it.
  await page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('sb-') && k.endsWith('-auth-token'))!;
    const value = JSON.parse(localStorage.getItem(key)!);
    value.access_token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.firma-falsa';
    value.expires_at = Math.floor(Date.now() / 1000) + 3600;
    localStorage.setItem(key, JSON.stringify(value));
  });
  await page.reload();
  await expect(page.getByRole('alert')).toHaveText('Sesión no disponible.');
  await expect(page.getByRole('main').getByRole('link', { name: 'Iniciar sesión' })).toHaveAttribute('href', /^\/auth/);
});

test('barra lateral, pestañas recordadas, Favoritos, Configuración y accesibilidad de cada pestaña', async ({ page }) => {
  // Five accessibility scans on a shared 2-core machine.
  test.setTimeout(60_000);
  await signInAs(page, SHOPPER.email, SHOPPER.password);
  const account = new AccountPage(page);
  await expect(account.sidebar.getByRole('heading')).toHaveText(`${SHOPPER.name} ${SHOPPER.lastname}`);
  await expect(account.sidebar).toContainText(SHOPPER.email);
  await expect(account.tabs.getByRole('tab')).toHaveText(['Mi perfil', 'Favoritos', 'Pedidos', 'Mis ventas', 'Direcciones', 'Configuración']);
  await expect(account.tabs.getByRole('tab', { name: 'Mi perfil' })).toHaveAttribute('aria-selected', 'true');
  await expect(account.sidebar.getByRole('link', { name: 'Registrar producto' })).toHaveCount(0);
  await expect(account.panel.getByTestId('summary-orders')).toHaveText('11');
  await expectNoSeriousViolations(page);

  await account.openTab('Favoritos');
  await expect(account.panel).toContainText('Aún no tienes favoritos. Toca el corazón en un producto para guardarlo aquí.');
  await expectNoSeriousViolations(page);
  await account.openTab('Configuración');
  await expect(account.panel.getByRole('heading', { name: 'Correos que quieres recibir' })).toBeVisible();
  await expect(account.panel.getByRole('checkbox', { name: /Avisos de existencias/ })).toBeChecked();
  await expectNoSeriousViolations(page);
  // The cards the shopper sold to the shop ('Vende tus cartas'): none yet for the demo shopper.
  await account.openTab('Mis ventas');
  await expect(account.panel.getByRole('heading', { name: 'Mis ventas' })).toBeVisible();
  await expect(account.panel).toContainText('Aún no nos has vendido cartas.');
  await expect(account.panel.getByRole('link', { name: 'Vende tus cartas' })).toHaveAttribute('href', '/vende');
  await expectNoSeriousViolations(page);
  await account.openTab('Direcciones');
  await expect(account.addresses).toHaveCount(2);
  await expectNoSeriousViolations(page);
  await account.openTab('Pedidos');
  await expect(account.orderRows).toHaveCount(8);
  await expectNoSeriousViolations(page);

  await page.reload();
  await expect(account.tabs.getByRole('tab', { name: 'Pedidos' })).toHaveAttribute('aria-selected', 'true');
  await expect(account.panel.getByRole('heading', { name: 'Mis pedidos' })).toBeVisible();
});

test('pedidos de la compradora demo: columnas, colores, 8 por página y detalles', async ({ page }) => {
  await signInAs(page, SHOPPER.email, SHOPPER.password);
  const account = new AccountPage(page);
  await account.openTab('Pedidos');
  await expect(account.panel.getByRole('columnheader')).toHaveText(['ID', 'Fecha', 'Total', 'Estado', 'Detalles']);
  await expect(account.orderRows).toHaveCount(8);
  await expect(account.panel.getByText('Página 1 de 2')).toBeVisible();
  await expect(account.panel.getByRole('button', { name: 'Anteriores' })).toBeDisabled();

  const first = account.orderRows.first();
  await expect(first.getByRole('cell').nth(0)).toHaveText(/^#[0-9A-F]{6}$/);
  await expect(first.getByRole('cell').nth(1)).toHaveText(/^\d{2}\/\d{2}\/\d{2}$/);
  await expect(first.getByRole('cell').nth(2)).toHaveText(/^\$[\d,]+\.\d{2}$/);
  const colours = { Enviado: 'green', Completado: 'green', Pendiente: 'yellow', Cancelado: 'red', Pagado: 'blue' } as const;
  for (const [status, colour] of Object.entries(colours)) {
    const badge = account.panel.locator('[data-color]', { hasText: status }).first();
    if ((await badge.count()) > 0) await expect(badge).toHaveAttribute('data-color', colour);
  }

  const details = first.getByRole('button', { name: /Ver detalles/ });
  await details.click();
  const lines = account.panel.getByTestId('order-lines').first();
  await expect(lines.getByTestId('order-line').first()).toContainText(/Cantidad: \d+/);
  await expect(lines.getByTestId('order-line').first()).toContainText(/\$[\d,]+\.\d{2}/);
  await expect(first.getByRole('button', { name: /Ocultar/ })).toBeVisible();
  await first.getByRole('button', { name: /Ocultar/ }).click();
  await expect(account.panel.getByTestId('order-lines')).toHaveCount(0);

  await account.panel.getByRole('button', { name: 'Siguientes' }).click();
  await expect(account.orderRows).toHaveCount(3);
  await expect(account.panel.getByText('Página 2 de 2')).toBeVisible();
  await expect(account.panel.getByRole('button', { name: 'Siguientes' })).toBeDisabled();
  await account.panel.getByRole('button', { name: 'Anteriores' }).click();
  await expect(account.orderRows).toHaveCount(8);
});

test.describe('cuenta nueva', () => {
  test('perfil: vacíos, validación, username ocupado, sin cambios, cancelar y guardar', async ({ page }) => {
    expectConsoleError(page, /status of 409.*\/rest\/v1\/profiles/); // the taken username is refused on purpose
    const user = await createConfirmedUser('perfil');
    await signInAs(page, user.email, user.password);
    const account = new AccountPage(page);
    await expect(account.panel).toContainText('No has registrado dirección.');
    await expect(account.panel).toContainText('Aún no tienes un cliente de Stripe asociado.');
    await expect(account.panel.getByTestId('summary-orders')).toHaveText('0');

    const edit = account.panel.getByRole('button', { name: 'Editar datos' });
    await edit.click();
    const form = account.profileForm;
    const save = form.getByRole('button', { name: 'Guardar' });
    await save.click();
    await expect(form.getByRole('alert')).toHaveText('Sin cambios por guardar');

    await form.getByLabel('Nombre', { exact: true }).fill('');
    await form.getByLabel('Teléfono').fill('12');
    await form.getByLabel('Estado').fill('Jalisco');
    await save.click();
    await expect(form.getByRole('alert')).toHaveText('Revisa los campos marcados.');
    await expect(form).toContainText('Nombre requerido');
    await expect(form).toContainText('Teléfono inválido');
    await expect(form).toContainText('Calle requerida');
    await expect(form).toContainText('Ciudad requerida');
    await expect(form).toContainText('Código Postal requerido');

    // Only street and city: the database stores whole addresses, so the form asks for the rest in
    // Spanish before anything is saved, and the profile stays as it was.
    await form.getByLabel('Nombre', { exact: true }).fill('Otra');
    await form.getByLabel('Teléfono').fill('5512345678');
    await form.getByLabel('Estado').fill('');
    await form.getByLabel('Calle').fill('Av. Juárez 10');
    await form.getByLabel('Ciudad').fill('Guadalajara');
    await save.click();
    await expect(form.getByRole('alert')).toHaveText('Revisa los campos marcados.');
    await expect(form).toContainText('Estado requerido');
    await expect(form).toContainText('Código Postal requerido');
    const untouched = await serviceRest('GET', `profiles?id=eq.${user.id}&select=name`);
    expect(untouched.body).toEqual([{ name: 'Prueba' }]);
    await form.getByLabel('Calle').fill('');
    await form.getByLabel('Ciudad').fill('');

    // Cancel restores what was stored.
    await form.getByRole('button', { name: 'Cancelar' }).click();
    await expect(account.panel).toContainText('Prueba');
    await edit.click();
    await expect(form.getByLabel('Nombre', { exact: true })).toHaveValue('Prueba');
    await expect(form.getByLabel('Teléfono')).toHaveValue('5512345678');

    await form.getByLabel('Username').fill('AnaGarcia');
    await save.click();
    await expect(form.getByRole('alert')).toHaveText('El username ya está en uso');

    await form.getByLabel('Username').fill(`${user.username}x`);
    await form.getByLabel('Nombre', { exact: true }).fill('Mariana');
    await form.getByLabel('Teléfono').fill('');
    await form.getByLabel('Calle').fill('Av. Juárez 10');
    await form.getByLabel('Ciudad').fill('Guadalajara');
    await form.getByLabel('Estado').fill('Jalisco');
    await form.getByLabel('Código Postal').fill('44100');
    await save.click();
    await expect(account.panel.getByRole('status').filter({ hasText: '✅' })).toBeVisible();
    await expect(account.sidebar.getByRole('heading')).toHaveText('Mariana Cuenta');
    await expect(account.panel.getByTestId('main-address')).toContainText('Av. Juárez 10, C.P. 44100, Guadalajara, Jalisco, México');
    // The save note goes away after about 2.4 s.
    await expect(account.panel.getByRole('status').filter({ hasText: '✅' })).toHaveCount(0, { timeout: 4000 });

    const stored = await serviceRest('GET', `profiles?id=eq.${user.id}&select=username,name,phone`);
    expect(stored.body).toEqual([{ username: `${user.username}x`, name: 'Mariana', phone: null }]);

    await account.panel.getByRole('button', { name: 'Gestionar direcciones' }).click();
    await expect(account.tabs.getByRole('tab', { name: 'Direcciones' })).toHaveAttribute('aria-selected', 'true');
    await expect(account.addresses).toHaveCount(1);
  });

  test('direcciones: alta, predeterminada, edición, borrado con confirmación y la única bloqueada', async ({ page }) => {
    const user = await createConfirmedUser('direcciones');
    await signInAs(page, user.email, user.password);
    const account = new AccountPage(page);
    await account.openTab('Direcciones');
    await expect(account.panel).toContainText('Aún no has agregado direcciones.');

    const form = account.newAddressForm;
    // The first address is always the default: no checkbox.
    await expect(form.getByLabel('Usar como dirección predeterminada')).toHaveCount(0);
    await form.getByRole('button', { name: 'Guardar dirección' }).click();
    await expect(form.getByRole('alert')).toHaveText('Revisa los campos marcados.');
    // México: the specification's messages and the Mexican parts' (the city is optional there).
    for (const text of [
      'Calle requerida',
      'Número exterior requerido',
      'Colonia requerida',
      'Municipio o alcaldía requerido',
      'Estado requerido',
      'Código Postal requerido',
      'Teléfono de 10 dígitos',
    ]) {
      await expect(form).toContainText(text);
    }

    await account.fillAddress(form, { label: 'Casa', ...mx('Calle Uno', '1', 'Puebla', '72000') });
    await form.getByRole('button', { name: 'Guardar dirección' }).click();
    await account.expectToast('Dirección guardada');
    await expect(account.addresses).toHaveCount(1);
    const only = account.addresses.first();
    await expect(only).toContainText('Predeterminada');
    await expect(only.getByRole('button', { name: 'Eliminar' })).toBeDisabled();
    await expect(only).toContainText('Debes tener al menos una dirección');

    await account.fillAddress(form, { label: 'Oficina', ...mx('Calle Dos', '2', 'Puebla', '72001'), isDefault: false });
    await form.getByRole('button', { name: 'Guardar dirección' }).click();
    await expect(account.addresses).toHaveCount(2);
    await expect(account.addresses.first()).toContainText('Casa');
    await expect(account.addresses.first()).toContainText('Predeterminada');

    await account.fillAddress(form, { label: 'Bodega', ...mx('Calle Tres', '3', 'San Pedro Cholula', '72760'), isDefault: true });
    await form.getByRole('button', { name: 'Guardar dirección' }).click();
    await expect(account.addresses).toHaveCount(3);
    await expect(account.addresses.first()).toContainText('Bodega');
    await expect(account.panel.getByText('Predeterminada', { exact: true })).toHaveCount(1);

    // Inline edit.
    const office = account.addresses.filter({ hasText: 'Oficina' });
    await office.getByRole('button', { name: 'Editar' }).click();
    const editForm = account.panel.getByRole('form', { name: 'Editar dirección' });
    await account.fillAddress(editForm, { exterior: '22' });
    await editForm.getByRole('button', { name: 'Guardar cambios' }).click();
    await account.expectToast('Dirección actualizada');
    await expect(account.addresses.filter({ hasText: 'Oficina' })).toContainText('Calle Dos 22');

    await account.addresses.filter({ hasText: 'Oficina' }).getByRole('button', { name: 'Hacer predeterminada' }).click();
    await account.expectToast('Predeterminada actualizada');
    await expect(account.addresses.first()).toContainText('Oficina');
    await expect(account.panel.getByText('Predeterminada', { exact: true })).toHaveCount(1);

    // Deleting asks first; cancelling keeps it.
    await account.addresses.first().getByRole('button', { name: 'Eliminar' }).click();
    const dialog = page.getByRole('dialog', { name: '¿Eliminar esta dirección?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toBeHidden();
    await expect(account.addresses).toHaveCount(3);

    // Deleting the default promotes the first remaining address.
    await account.addresses.first().getByRole('button', { name: 'Eliminar' }).click();
    await dialog.getByRole('button', { name: 'Sí, eliminar' }).click();
    await account.expectToast('Dirección eliminada');
    await expect(account.addresses).toHaveCount(2);
    await expect(account.panel.getByText('Predeterminada', { exact: true })).toHaveCount(1);
    await expect(account.addresses.first()).toContainText('Predeterminada');

    await account.addresses.nth(1).getByRole('button', { name: 'Eliminar' }).click();
    await dialog.getByRole('button', { name: 'Sí, eliminar' }).click();
    await expect(account.addresses).toHaveCount(1);
    await expect(account.addresses.first().getByRole('button', { name: 'Eliminar' })).toBeDisabled();

    // The database refuses it too, whatever the screen does.
    const refused = await serviceRest('GET', `addresses?user_id=eq.${user.id}&select=id`);
    expect((refused.body as unknown[]).length).toBe(1);
  });

  test('lo que se escribe para la siguiente dirección mientras la lista se vuelve a leer se queda', async ({ page }) => {
    const user = await createConfirmedUser('direccion-seguida');
    await signInAs(page, user.email, user.password);
    const account = new AccountPage(page);
    await account.openTab('Direcciones');
    await expect(account.panel).toContainText('Aún no has agregado direcciones.');

    // From here on, reading the list takes 2 s, as on a slow connection (the save itself does not wait).
    let slow = true;
    await page.route('**/rest/v1/addresses?*', async (route) => {
      if (slow && route.request().method() === 'GET') await new Promise((resolve) => setTimeout(resolve, 2_000));
      await route.continue();
    });
    const form = account.newAddressForm;
    await account.fillAddress(form, { label: 'Casa', ...mx('Calle Uno', '1', 'Puebla', '72000') });
    await form.getByRole('button', { name: 'Guardar dirección' }).click();
    await account.expectToast('Dirección guardada');
    // The next address, typed at once: the form was emptied with the toast, not after the list.
    await account.fillAddress(form, { label: 'Oficina', ...mx('Calle Dos', '2', 'San Pedro Cholula', '72760') });
    await expect(account.addresses).toHaveCount(1);
    await expect(form.getByLabel('Etiqueta (opcional)', { exact: true })).toHaveValue('Oficina');
    await expect(form.getByLabel('Calle', { exact: true })).toHaveValue('Calle Dos');
    await expect(form.getByLabel('Número exterior')).toHaveValue('2');
    slow = false;
    await form.getByRole('button', { name: 'Guardar dirección' }).click();
    await expect(account.addresses).toHaveCount(2);
    await expect(account.addresses.filter({ hasText: 'Oficina' })).toContainText('Calle Dos 2');
    await expect(account.addresses.filter({ hasText: 'Oficina' })).toContainText('C.P. 72760, San Pedro Cholula');
  });

  test('datos en vivo: pedido marcado pagado, perfil y direcciones cambiados desde otro lado', async ({ page }) => {
    const user = await createConfirmedUser('envivo');
    await signInAs(page, user.email, user.password);
    const account = new AccountPage(page);
    await account.openTab('Pedidos');
    await expect(account.panel).toContainText('No tienes pedidos aún.');

    const created = await serviceRest('POST', 'orders', { user_id: user.id, subtotal: 250, total: 250, status: 'Pendiente' });
    expect(created.status).toBe(201);
    const orderId = (created.body as { id: string }[])[0]!.id;
    await expect(account.orderRows).toHaveCount(1);
    const badge = account.orderRows.first().locator('[data-color]');
    await expect(badge).toHaveText('Pendiente');
    await expect(badge).toHaveAttribute('data-color', 'yellow');

    const paid = await serviceRest('PATCH', `orders?id=eq.${orderId}`, { status: 'Pagado', paid_at: new Date().toISOString() });
    expect(paid.status).toBe(200);
    await expect(badge).toHaveText('Pagado');
    await expect(badge).toHaveAttribute('data-color', 'blue');

    await serviceRest('PATCH', `profiles?id=eq.${user.id}`, { name: 'Renata' });
    await expect(account.sidebar.getByRole('heading')).toHaveText('Renata Cuenta');

    await account.openTab('Direcciones');
    await expect(account.panel).toContainText('Aún no has agregado direcciones.');
    await serviceRest('POST', 'addresses', { user_id: user.id, street: 'Calle Viva 5', city: 'Mérida', state: 'Yucatán', zip: '97000', country: 'México' });
    await expect(account.addresses).toHaveCount(1);
    await expect(account.addresses.first()).toContainText('Calle Viva 5');
  });
});

test.describe('fallos de carga', () => {
  test('cuenta, direcciones y productos de un pedido: mensaje y Reintentar', async ({ page }) => {
    await signInAs(page, SHOPPER.email, SHOPPER.password);
    const account = new AccountPage(page);

    // The account itself.
    expectConsoleError(page, /Failed to load resource|net::ERR_/); // the failure is the point of this step
    let down = true;
    let lastRead = Date.now();
    await page.route('**/rest/v1/profiles?*', (route) => {
      if (!down) return route.fallback();
      lastRead = Date.now();
      return route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"caída"}' });
    });
    await page.reload();
    await expect(page.getByRole('alert')).toContainText('No se pudo cargar tu cuenta. Intenta nuevamente.');
    // Every read the page starts by itself meets the failure: the backend comes back only once none
    // has come for 3 s (on a busy machine the session check's read came 0.9 s after the others,
    // past the network's idle time, and loaded the account before 'Reintentar' was pressed).
    await expect.poll(() => Date.now() - lastRead, { timeout: 30_000 }).toBeGreaterThan(3_000);
    const retry = page.getByRole('button', { name: 'Reintentar' });
    await expect(retry).toBeVisible();
    down = false;
    await retry.click();
    await expect(account.tabs).toBeVisible({ timeout: 15_000 });
    await page.unroute('**/rest/v1/profiles?*');

    // The addresses.
    expectConsoleError(page, /Failed to load resource|net::ERR_/); // the failure is the point of this step
    await page.route('**/rest/v1/addresses?*', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"caída"}' }));
    await account.openTab('Direcciones');
    await expect(account.panel.getByRole('alert')).toHaveText('No se pudieron cargar tus direcciones.');
    await page.unroute('**/rest/v1/addresses?*');
    await account.panel.getByRole('button', { name: 'Reintentar' }).click();
    await expect(account.addresses).toHaveCount(2);

    // The lines of an order; hovering already asks for them.
    expectConsoleError(page, /Failed to load resource|net::ERR_/); // the failure is the point of this step
    await page.route('**/rest/v1/order_items?*', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"caída"}' }));
    await account.openTab('Pedidos');
    const details = account.orderRows.first().getByRole('button', { name: /Ver detalles/ });
    const asked = page.waitForRequest('**/rest/v1/order_items?*');
    await details.hover();
    await asked;
    await details.click();
    await expect(account.panel.getByText('No se pudieron cargar los productos. Intenta de nuevo.')).toBeVisible();
    await expect(account.panel.getByText('Error al cargar productos')).toBeVisible();
    await page.unroute('**/rest/v1/order_items?*');
    await account.panel.getByTestId('order-lines').getByRole('button', { name: 'Reintentar' }).click();
    await expect(account.panel.getByTestId('order-line').first()).toContainText(/Cantidad: \d+/);
  });

  test('un pedido sin productos y un producto que ya no existe', async ({ page }) => {
    const user = await createConfirmedUser('lineas');
    const empty = await serviceRest('POST', 'orders', { user_id: user.id, subtotal: 0, total: 0, status: 'Cancelado', created_at: '2026-01-02T12:00:00Z' });
    const withGone = await serviceRest('POST', 'orders', {
      user_id: user.id,
      subtotal: 80,
      total: 80,
      status: 'Completado',
      created_at: '2026-01-01T12:00:00Z',
    });
    expect([empty.status, withGone.status]).toEqual([201, 201]);
    const goneId = (withGone.body as { id: string }[])[0]!.id;
    const line = await serviceRest('POST', 'order_items', { order_id: goneId, product_id: null, quantity: 2, price: 40 });
    expect(line.status).toBe(201);

    await signInAs(page, user.email, user.password);
    const account = new AccountPage(page);
    await account.openTab('Pedidos');
    await expect(account.orderRows).toHaveCount(2);
    await expect(account.panel.getByText(/Página/)).toHaveCount(0);
    await expect(account.panel.getByRole('button', { name: 'Siguientes' })).toHaveCount(0);

    await account.orderRows
      .nth(0)
      .getByRole('button', { name: /Ver detalles/ })
      .click();
    await expect(account.panel.getByText('No hay productos disponibles para este pedido.')).toBeVisible();
    await account.orderRows
      .nth(1)
      .getByRole('button', { name: /Ver detalles/ })
      .click();
    const gone = account.panel.getByTestId('order-line');
    await expect(gone).toContainText('Producto no disponible');
    await expect(gone).toContainText('Cantidad: 2');
    await expect(gone).toContainText('$40.00');
  });
});

test.describe('seguridad de la cuenta', () => {
  test('cambiar la contraseña desde el perfil', async ({ page }) => {
    expectConsoleError(page, /status of 400.*\/auth\/v1\/token/); // a wrong current password is refused on purpose
    const user = await createConfirmedUser('clave');
    await signInAs(page, user.email, user.password);
    const account = new AccountPage(page);
    await account.panel.getByRole('button', { name: 'Cambiar contraseña' }).click();
    const form = account.panel.getByRole('form', { name: 'Cambiar contraseña' });
    const save = form.getByRole('button', { name: 'Guardar contraseña' });
    await form.getByLabel('Nueva contraseña').fill('Corta1');
    await save.click();
    await expect(form.getByRole('alert')).toHaveText('La contraseña debe tener al menos 8 caracteres.');
    await form.getByLabel('Nueva contraseña').fill('Cambiada123!');
    await form.getByLabel('Confirma la contraseña').fill('Cambiada124!');
    await save.click();
    await expect(form.getByRole('alert')).toHaveText('Las contraseñas no coinciden.');
    await form.getByLabel('Confirma la contraseña').fill('Cambiada123!');
    await save.click();
    await account.expectToast('Contraseña actualizada');

    await account.panel.getByRole('button', { name: 'Cerrar sesión' }).click();
    const auth = new AuthPage(page);
    await auth.login(user.email, user.password);
    await expect(auth.alert).toHaveText('Credenciales incorrectas.');
    await auth.login(user.email, 'Cambiada123!');
    await expect(account.tabs).toBeVisible();
  });

  test('correo sin verificar: reenviar la verificación, con éxito y con fallo', async ({ page }) => {
    // The stack confirms every user that can sign in, so every auth answer that carries the user
    // (GET /user, and the session from /token that supabase-js stores and reports again on load)
    // is edited on the way.
    const unconfirmed = (user: Record<string, unknown>) => {
      delete user.email_confirmed_at;
      delete user.confirmed_at;
    };
    await page.route('**/auth/v1/user', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as Record<string, unknown>;
      unconfirmed(body);
      await route.fulfill({ response, json: body });
    });
    await page.route('**/auth/v1/token?*', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { user?: Record<string, unknown> };
      if (body.user) unconfirmed(body.user);
      await route.fulfill({ response, json: body });
    });
    await signInAs(page, SHOPPER.email, SHOPPER.password);
    const account = new AccountPage(page);
    await page.reload();
    const resend = account.panel.getByRole('button', { name: 'Reenviar correo de verificación' });
    await expect(resend).toBeVisible({ timeout: 15_000 });
    await expect(account.panel.getByText('Verificado')).toHaveCount(0);

    let sent: unknown = null;
    await page.route('**/auth/v1/resend*', async (route) => {
      sent = route.request().postDataJSON();
      await route.fulfill({ status: 200, json: {} });
    });
    await resend.click();
    await expect(account.panel.getByText('Correo de verificación reenviado')).toBeVisible();
    expect(sent).toMatchObject({ email: SHOPPER.email, type: 'signup' });
    // Status notes clear themselves after 1.8 s.
    await expect(account.panel.getByText('Correo de verificación reenviado')).toHaveCount(0, { timeout: 4000 });

    await page.unroute('**/auth/v1/resend*');
    expectConsoleError(page, /Failed to load resource|net::ERR_/); // the failure is the point of this step
    await page.route('**/auth/v1/resend*', (route) =>
      route.fulfill({ status: 429, json: { code: 'over_email_send_rate_limit', message: 'Email rate limit exceeded' } }),
    );
    await resend.click();
    await expect(account.panel.getByText('No se pudo reenviar el correo.')).toBeVisible();
  });
});
