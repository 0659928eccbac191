/**
 * Preorders on a 375 px phone: a product with no stock on the shelf in an open preorder campaign
 * shows its release date and the preorders left, a shopper adds it, chooses the waitlist at
 * checkout and pays with the simulated card; the Orders tab says it waits for the goods; the admin
 * registers the arrival in 'Preventas' (axe on the section) and the shopper's Orders tab turns to
 * 'Preventa asignada' without a reload.
 */
import AxeBuilder from '@axe-core/playwright';
import { test, expect as baseExpect, type Page } from './fixtures';
import { ADMIN, createConfirmedUser, serviceRest, signInAs, AuthPage } from './pages/auth.ts';
import { CheckoutPage } from './pages/checkout.ts';
import { PHONE } from './pages/phone.ts';

// Screens wait on the local stack, which answers slowly while other suites share the 2 cores.
const expect = baseExpect.configure({ timeout: 20_000 });

test.describe.configure({ timeout: 180_000 });
test.use({ viewport: PHONE });

const PRODUCT = 'pk-display-destined-rivals';

async function axeViolations(page: Page, selector: string): Promise<string[]> {
  const axe = await new AxeBuilder({ page }).include(selector).analyze();
  return axe.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('una preventa se paga con tarjeta, el admin registra la llegada y el cliente la ve asignada', async ({ page, browser }) => {
  // No units on the shelf: the campaign sells 10 preorders, at most 2 per shopper.
  await serviceRest('PATCH', `products?id=eq.${PRODUCT}`, { stock: 0 });
  const campaign = await serviceRest('POST', 'preorder_campaigns', {
    product_id: PRODUCT,
    release_date: '2027-02-12',
    opens_at: new Date(Date.now() - 3_600_000).toISOString(),
    closes_at: new Date(Date.now() + 86_400_000).toISOString(),
    allocation: 10,
    per_customer_limit: 2,
    per_order_limit: 2,
  });
  expect(campaign.status).toBeLessThan(300);
  const user = await createConfirmedUser('preventa');

  await page.goto(`/product/${PRODUCT}`);
  const main = page.getByRole('main');
  await expect(main.getByText('Preventa · Sale el 12 de febrero de 2027')).toBeVisible();
  await expect(main.getByText('Quedan 10 preventas')).toBeVisible();
  // The buy box counts the preorders left, not the empty shelf.
  await expect(main.locator('.stock')).toHaveText('Disponibles: 10');
  await main.getByRole('button', { name: 'Agregar al carrito' }).click();
  await expect(page.locator('.toast').filter({ hasText: 'Agregado al carrito' })).toBeVisible();

  const checkout = new CheckoutPage(page);
  await checkout.gotoSummary();
  await checkout.continueButton.click();
  await page.getByRole('main').getByRole('link', { name: 'Iniciar sesión' }).click();
  const auth = new AuthPage(page);
  await auth.login(user.email, user.password);
  await page.waitForURL((url) => url.pathname === '/checkout/summary');
  const waitlist = page.getByRole('checkbox', { name: 'Si no alcanza, mantenerme en lista de espera' });
  await expect(waitlist).toBeVisible();
  await waitlist.check();
  await checkout.continueButton.click();
  const orderId = await checkout.orderIdFromUrl();
  await checkout.fillAddress();
  await page.getByRole('button', { name: 'Usar esta dirección' }).click();
  await checkout.payWithCard('4242 4242 4242 4242');
  await expect(page.getByRole('heading', { name: 'Gracias por tu compra' })).toBeVisible();
  const { body: lines } = await serviceRest('GET', `preorder_lines?order_id=eq.${orderId}&select=quantity,waitlist,status`);
  expect(lines).toEqual([{ quantity: 1, waitlist: true, status: 'awaiting' }]);

  await page.goto('/account');
  await page.getByRole('tab', { name: 'Pedidos' }).click();
  const row = page.locator(`[data-order-id="${orderId}"]`);
  await expect(row.getByTestId('preorder-status')).toHaveText('Preventa: esperando llegada');

  // The admin, on another phone, registers the arrival of one unit.
  const adminContext = await browser.newContext({ viewport: PHONE });
  try {
    const admin = await adminContext.newPage();
    await signInAs(admin, ADMIN.email, ADMIN.password);
    await admin.goto('/admin/preventas');
    const section = admin.locator('section[aria-labelledby="adm-preorders-title"]');
    await expect(admin.getByRole('heading', { level: 1, name: 'Preventas' })).toBeVisible();
    const campaignRow = section.locator('tr', { hasText: 'Display de sobres Destined Rivals' });
    await expect(campaignRow).toBeVisible();
    expect(await axeViolations(admin, 'section[aria-labelledby="adm-preorders-title"]')).toEqual([]);
    await campaignRow.getByRole('button', { name: /^Registrar llegada de / }).click();
    const form = admin.getByRole('form', { name: /^Registrar llegada de / });
    await form.getByLabel('Unidades recibidas').fill('1');
    expect(await axeViolations(admin, 'section[aria-labelledby="adm-preorders-title"]')).toEqual([]);
    await form.getByRole('button', { name: 'Registrar', exact: true }).click();
    await expect(admin.getByRole('status').filter({ hasText: 'Llegada registrada: 1 pedido(s) surtido(s)' })).toBeVisible();
  } finally {
    await adminContext.close();
  }

  // The shopper's open Orders tab follows the change live.
  await expect(row.getByTestId('preorder-status')).toHaveText('Preventa asignada');
  expect((await serviceRest('GET', `preorder_lines?order_id=eq.${orderId}&select=status`)).body).toEqual([{ status: 'allocated' }]);
});
