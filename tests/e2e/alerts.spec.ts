/**
 * 'Avísame cuando llegue' end to end on a phone: a signed-out shopper taps it on a sold-out
 * product and is sent to sign in, asks for the alert, finds it in Configuración; the admin puts
 * units back; the shop's sweeper e-mails the shopper, and the e-mail's link cancels the alert
 * without signing in (the page the link opens cancels nothing until its button is pressed).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect as baseExpect, expectConsoleError } from './fixtures';
import { ADMIN, AuthPage, accessToken, createConfirmedUser, serviceRest, signInAs, stackKeys, STACK_URL } from './pages/auth.ts';
import { AccountPage } from './pages/account.ts';
import { BackOffice } from './pages/back-office.ts';
import { mailbox } from './pages/checkout.ts';
import { PHONE } from './pages/phone.ts';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 120_000 });
test.use({ viewport: PHONE });

async function expectNoSeriousAxeViolations(page: Page): Promise<void> {
  const axe = await new AxeBuilder({ page }).include('main').analyze();
  const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

test('a sold-out product: Avísame, the admin restocks, the e-mail arrives and its link cancels the alert signed out', async ({ page, browser, baseURL }) => {
  // A sealed One Piece product sold out when the site was built (its page says so without any
  // script); the other suites' sold-out and edited products are Pokémon and Riftbound ones.
  const { body } = await serviceRest(
    'GET',
    'products?select=id,name&stock=eq.0&available=eq.true&preorder=eq.false&on_sale_at=is.null&id=like.op-*&id=not.like.*single*&order=id.asc&limit=1',
  );
  const [product] = body as Array<{ id: string; name: string }>;
  expect(product, 'a sold-out sealed product in the seed').toBeDefined();
  const path = `/product/${product!.id}`;
  const user = await createConfirmedUser('avisos');

  await page.goto(path);
  const main = page.getByRole('main');
  await main.getByRole('button', { name: 'Avísame cuando llegue' }).click();
  await page.waitForURL((url) => url.pathname === '/auth' && url.searchParams.get('next') === path);
  await new AuthPage(page).login(user.email, user.password);
  await page.waitForURL((url) => url.pathname === path);

  await main.getByRole('button', { name: 'Avísame cuando llegue' }).click();
  await expect(main.getByText('Te avisaremos cuando llegue')).toBeVisible();
  await expect(main.getByRole('button', { name: 'Ya no avisarme' })).toBeVisible();

  // Configuración lists it, with the e-mail settings.
  await page.goto('/account?tab=settings');
  const account = new AccountPage(page);
  await expect(account.tabs.getByRole('tab', { name: 'Configuración' })).toHaveAttribute('aria-selected', 'true');
  await expect(account.panel.getByRole('checkbox', { name: /Avisos de existencias/ })).toBeChecked();
  const alert = account.panel.getByTestId('restock-alert');
  await expect(alert).toHaveCount(1);
  await expect(alert.getByRole('link', { name: product!.name })).toHaveAttribute('href', path);
  await expectNoSeriousAxeViolations(page);

  // The admin puts three units back, with their own session.
  const { anonKey } = await stackKeys();
  const adminToken = await accessToken(ADMIN.email, ADMIN.password);
  const restock = await fetch(`${STACK_URL}/rest/v1/products?id=eq.${encodeURIComponent(product!.id)}`, {
    method: 'PATCH',
    headers: { apikey: anonKey, Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json', Prefer: 'return=representation' },
    body: JSON.stringify({ stock: 3 }),
  });
  expect(restock.status).toBe(200);

  // The shop's sweeper (each minute, or now) turns the alert into the e-mail.
  const { serviceRoleKey } = await stackKeys();
  const subject = `Ya llegó: ${product!.name}`;
  await expect
    .poll(
      async () => {
        await fetch(`${baseURL}/api/internal/sweep`, { method: 'POST', headers: { authorization: `Bearer ${serviceRoleKey}` } });
        return (await mailbox(user.email)).map((mail) => mail.subject);
      },
      { timeout: 60_000, intervals: [1000, 2000] },
    )
    .toContain(subject);
  const mail = (await mailbox(user.email)).find((m) => m.subject === subject)!;
  expect(mail.text).toContain(`${product!.name} volvió a estar disponible en la tienda.`);
  const link = /https?:\/\/\S+\/avisos\/cancelar\?t=[0-9a-f]{64}/.exec(mail.text)?.[0];
  expect(link, 'the cancel link in the e-mail').toBeDefined();

  // Signed out (another browser context), the link shows what it cancels; only the button cancels.
  const signedOut = await browser.newContext({ viewport: PHONE, locale: 'es-MX', timezoneId: 'America/Mexico_City' });
  const other = await signedOut.newPage();
  await other.goto(link!);
  const otherMain = other.getByRole('main');
  await expect(otherMain.getByRole('heading', { name: 'Cancelar tu aviso de existencias' })).toBeVisible();
  await expect(otherMain).toContainText(`Aviso de existencias de: ${product!.name}`);
  await expectNoSeriousAxeViolations(other);
  const standing = await serviceRest('GET', `stock_alerts?user_id=eq.${user.id}&select=cancelled_at`);
  expect(standing.body).toEqual([{ cancelled_at: null }]);

  await otherMain.getByRole('button', { name: 'Ya no quiero este aviso' }).click();
  await expect(otherMain.getByRole('status')).toHaveText('Listo: cancelamos tu aviso. No te enviaremos más correos de este producto.');
  const cancelled = await serviceRest('GET', `stock_alerts?user_id=eq.${user.id}&select=cancelled_at`);
  expect((cancelled.body as Array<{ cancelled_at: string | null }>)[0]!.cancelled_at).not.toBeNull();
  await other.reload();
  await expect(otherMain).toContainText('Este aviso ya estaba cancelado; no te enviaremos más correos de él.');
  await expect(otherMain.getByRole('button', { name: 'Ya no quiero este aviso' })).toHaveCount(0);
  await signedOut.close();

  // The account no longer lists it.
  await page.reload();
  await expect(account.panel).toContainText('No tienes avisos pendientes.');
});

test('a bad cancel link says so in Spanish and the endpoint answers 4xx JSON, never a 500', async ({ page, request }) => {
  expectConsoleError(page, /Failed to load resource.*404/);
  const response = await page.goto(`/avisos/cancelar?t=${'0'.repeat(64)}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('main')).toContainText('Este enlace no es válido o el aviso ya no existe.');
  await expectNoSeriousAxeViolations(page);

  const malformed = await request.post('/api/avisos/cancelar', { data: { token: 'nope' } });
  expect(malformed.status()).toBe(400);
  expect(await malformed.json()).toEqual({ error: 'invalid_request', message: 'El enlace para cancelar el aviso no es válido.' });
  const unknown = await request.post('/api/avisos/cancelar', { data: { token: 'a'.repeat(64) } });
  expect(unknown.status()).toBe(404);
  expect((await unknown.json()).message).toBe('Este enlace no es válido o el aviso ya no existe.');
});

test('Favoritos: “Avísame si baja de precio” is kept on the favorite with the price it has now', async ({ page }) => {
  const user = await createConfirmedUser('precio');
  const { body } = await serviceRest(
    'GET',
    'products?select=id,name,price&stock=gt.0&available=eq.true&preorder=eq.false&id=like.op-*&id=not.like.*single*&order=id.desc&limit=1',
  );
  const [product] = body as Array<{ id: string; name: string; price: number }>;
  expect(product, 'a sealed product in stock').toBeDefined();
  const { anonKey } = await stackKeys();
  const token = await accessToken(user.email, user.password);
  const added = await fetch(`${STACK_URL}/rest/v1/favorites`, {
    method: 'POST',
    headers: { apikey: anonKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ product_id: product!.id }),
  });
  expect(added.status).toBe(201);

  await signInAs(page, user.email, user.password);
  await page.goto('/account?tab=favorites');
  const account = new AccountPage(page);
  const favorite = account.panel.getByTestId('favorite');
  await expect(favorite.getByRole('link', { name: product!.name })).toBeVisible();
  const priceAlert = favorite.getByRole('checkbox', { name: 'Avísame si baja de precio' });
  await expect(priceAlert).not.toBeChecked();
  await priceAlert.check();
  await expect(page.getByTestId('toast').filter({ hasText: 'Te avisaremos si baja de precio.' })).toBeVisible();
  const saved = await serviceRest('GET', `favorites?user_id=eq.${user.id}&select=price_alert,price_alert_base`);
  expect(saved.body).toEqual([{ price_alert: true, price_alert_base: product!.price }]);
  await expectNoSeriousAxeViolations(page);

  await page.reload();
  await expect(account.panel.getByTestId('favorite').getByRole('checkbox', { name: 'Avísame si baja de precio' })).toBeChecked();
});

test('a price drop end to end: the shopper asks in Favoritos, the admin lowers the price in the back office, the e-mail arrives and its link turns the alert off signed out', async ({
  page,
  browser,
  baseURL,
}) => {
  // A sealed One Piece product in stock, apart from the one the test above uses (the last) and the
  // products other suites edit (Pokémon and Riftbound ones).
  const { body } = await serviceRest(
    'GET',
    'products?select=id,name,price&stock=gt.0&available=eq.true&preorder=eq.false&on_sale_at=is.null&id=like.op-*&id=not.like.*single*&order=id.asc&limit=1',
  );
  const [product] = body as Array<{ id: string; name: string; price: number }>;
  expect(product, 'a sealed product in stock').toBeDefined();
  const lower = Math.max(1, Math.floor(product!.price * 0.8));
  const user = await createConfirmedUser('baja-precio');
  const { anonKey, serviceRoleKey } = await stackKeys();
  const token = await accessToken(user.email, user.password);
  const added = await fetch(`${STACK_URL}/rest/v1/favorites`, {
    method: 'POST',
    headers: { apikey: anonKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ product_id: product!.id }),
  });
  expect(added.status).toBe(201);
  try {
    await signInAs(page, user.email, user.password);
    await page.goto('/account?tab=favorites');
    const account = new AccountPage(page);
    await account.panel.getByTestId('favorite').getByRole('checkbox', { name: 'Avísame si baja de precio' }).check();
    await expect(page.getByTestId('toast').filter({ hasText: 'Te avisaremos si baja de precio.' })).toBeVisible();

    // The admin lowers the price in the back office, on another phone.
    const adminContext = await browser.newContext({ viewport: PHONE });
    try {
      const admin = await adminContext.newPage();
      await signInAs(admin, ADMIN.email, ADMIN.password);
      const office = new BackOffice(admin);
      await office.goto(`/admin/productos?q=${encodeURIComponent(product!.id)}`);
      const row = office.main.locator(`[data-product-id="${product!.id}"]`);
      await row.getByRole('button', { name: /Editar/ }).click();
      const dialog = admin.getByRole('dialog', { name: 'Editar producto' });
      await dialog.getByLabel('Precio (MXN)', { exact: true }).fill(String(lower));
      await dialog.getByRole('button', { name: 'Guardar cambios' }).click();
      await expect(dialog).toBeHidden();
      await expect(office.main.getByRole('status').filter({ hasText: 'Producto guardado' })).toBeVisible();
    } finally {
      await adminContext.close();
    }

    // The shop's sweeper turns the queued price drop into the e-mail.
    const subject = `Bajó de precio: ${product!.name}`;
    await expect
      .poll(
        async () => {
          await fetch(`${baseURL}/api/internal/sweep`, { method: 'POST', headers: { authorization: `Bearer ${serviceRoleKey}` } });
          return (await mailbox(user.email)).map((mail) => mail.subject);
        },
        { timeout: 60_000, intervals: [1000, 2000] },
      )
      .toContain(subject);
    const mail = (await mailbox(user.email)).find((m) => m.subject === subject)!;
    expect(mail.text).toContain(`${product!.name}, que tienes en favoritos, bajó de`);
    const link = /https?:\/\/\S+\/avisos\/cancelar\?t=[0-9a-f]{64}/.exec(mail.text)?.[0];
    expect(link, 'the cancel link in the e-mail').toBeDefined();

    // Signed out, the link says which alert it turns off; only its button does it.
    const signedOut = await browser.newContext({ viewport: PHONE, locale: 'es-MX', timezoneId: 'America/Mexico_City' });
    try {
      const other = await signedOut.newPage();
      await other.goto(link!);
      const main = other.getByRole('main');
      await expect(main.getByRole('heading', { name: 'Cancelar tu aviso de baja de precio' })).toBeVisible();
      await expect(main).toContainText(`Aviso de baja de precio de: ${product!.name}`);
      await expectNoSeriousAxeViolations(other);
      expect((await serviceRest('GET', `favorites?user_id=eq.${user.id}&select=price_alert`)).body).toEqual([{ price_alert: true }]);
      await main.getByRole('button', { name: 'Ya no quiero este aviso' }).click();
      await expect(main.getByRole('status')).toHaveText('Listo: cancelamos tu aviso. No te enviaremos más correos de este producto.');
    } finally {
      await signedOut.close();
    }
    // The favorite stays, its price alert off, in the shopper's Favoritos too.
    expect((await serviceRest('GET', `favorites?user_id=eq.${user.id}&select=price_alert`)).body).toEqual([{ price_alert: false }]);
    await page.reload();
    await expect(account.panel.getByTestId('favorite').getByRole('checkbox', { name: 'Avísame si baja de precio' })).not.toBeChecked();
  } finally {
    await serviceRest('PATCH', `products?id=eq.${product!.id}`, { price: product!.price });
  }
});
