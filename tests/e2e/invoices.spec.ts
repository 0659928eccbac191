/**
 * Facturas on a 375 px phone: a shopper pays an order with the simulated card; without tax data the
 * confirmation offers the link to fill them; once they are saved, 'Solicitar factura' issues the
 * (simulated) factura at once, and its PDF downloads, is a PDF and says 'SIN VALIDEZ FISCAL'; the
 * Orders tab shows the same factura with its downloads. Axe on the factura block in both places.
 */
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { test, expect as baseExpect, type Page } from './fixtures';
import { ADMIN, AuthPage, createConfirmedUser, serviceRest, signInAs } from './pages/auth.ts';
import { CheckoutPage } from './pages/checkout.ts';
import { PHONE } from './pages/phone.ts';
import { pdfText } from '../support/pdf-text.ts';

const expect = baseExpect.configure({ timeout: 20_000 });

test.describe.configure({ timeout: 180_000 });
test.use({ viewport: PHONE });

const PRODUCT = 'pk-buildbattle-temporal-forces';

async function axeViolations(page: Page, selector: string): Promise<string[]> {
  const axe = await new AxeBuilder({ page }).include(selector).analyze();
  return axe.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('un pedido pagado se factura con los datos guardados y el PDF se descarga', async ({ page, browser }) => {
  const user = await createConfirmedUser('factura');

  await page.goto(`/product/${PRODUCT}`);
  await page.getByRole('main').getByRole('button', { name: 'Agregar al carrito' }).click();
  await expect(page.locator('.toast').filter({ hasText: 'Agregado al carrito' })).toBeVisible();
  const checkout = new CheckoutPage(page);
  await checkout.gotoSummary();
  await checkout.continueButton.click();
  await page.getByRole('main').getByRole('link', { name: 'Iniciar sesión' }).click();
  await new AuthPage(page).login(user.email, user.password);
  await page.waitForURL((url) => url.pathname === '/checkout/summary');
  await checkout.continueButton.click();
  const orderId = await checkout.orderIdFromUrl();
  await checkout.fillAddress();
  await page.getByRole('button', { name: 'Usar esta dirección' }).click();
  await checkout.payWithCard('4242 4242 4242 4242');
  await expect(page.getByRole('heading', { name: 'Gracias por tu compra' })).toBeVisible();

  // No tax data yet: the confirmation says so and links to them.
  const block = page.getByTestId('invoice-block');
  await expect(block.getByRole('link', { name: 'Llenar mis datos de facturación' })).toBeVisible();
  expect(await axeViolations(page, '[data-testid="invoice-block"]')).toEqual([]);

  // The tax data saved (as the account's 'Datos de facturación' saves them), the button appears.
  const { body: digit } = await serviceRest('POST', 'rpc/rfc_check_digit', { p_rfc: 'GODE561231GR0' });
  const rfc = `GODE561231GR${digit as string}`;
  const userId = ((await serviceRest('GET', `orders?id=eq.${orderId}&select=user_id`)).body as Array<{ user_id: string }>)[0]!.user_id;
  const saved = await serviceRest('POST', 'tax_profiles', {
    user_id: userId,
    rfc,
    legal_name: 'Ana Gómez Díaz',
    tax_regime: '612',
    tax_zip: '06700',
    cfdi_use: 'G03',
    invoice_email: user.email,
  });
  expect(saved.status).toBeLessThan(300);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Gracias por tu compra' })).toBeVisible();
  await expect(block.getByText(/^Puedes solicitar la factura hasta el \d+ de \w+ de \d{4}\.$/)).toBeVisible();
  await block.getByRole('button', { name: 'Solicitar factura' }).click();
  await expect(block.getByRole('status')).toHaveText('Factura emitida');
  await expect(block.getByText('Factura de prueba, sin validez fiscal.')).toBeVisible();
  expect(await axeViolations(page, '[data-testid="invoice-block"]')).toEqual([]);

  const [response, download] = await Promise.all([
    page.waitForResponse((r) => /\/api\/invoices\/[0-9a-f-]{36}\/pdf$/.test(r.url())),
    page.waitForEvent('download'),
    block.getByRole('button', { name: 'Descargar PDF' }).click(),
  ]);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  expect(download.suggestedFilename()).toBe(`factura-${orderId.slice(-6).toUpperCase()}.pdf`);
  const pdf = await readFile(await download.path());
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const text = pdfText(pdf);
  expect(text).toContain('SIN VALIDEZ FISCAL');
  expect(text).toContain(rfc);
  expect(text).toContain('Ana Gómez Díaz');
  const invoices = (await serviceRest('GET', `invoices?order_id=eq.${orderId}&select=status,cfdi_uuid,payment_form`)).body as Array<{ cfdi_uuid: string }>;
  expect(invoices).toEqual([{ status: 'issued', cfdi_uuid: expect.any(String), payment_form: '04' }]);
  expect(text).toContain(invoices[0]!.cfdi_uuid);

  // The Orders tab shows the same factura with its downloads.
  await page.goto('/account?tab=orders');
  const row = page.locator(`[data-order-id="${orderId}"]`);
  await row.getByRole('button', { name: /Ver/ }).click();
  const inOrders = page.getByTestId('invoice-block');
  await expect(inOrders.getByRole('status')).toHaveText('Factura emitida');
  await expect(inOrders.getByText(`Folio fiscal: ${invoices[0]!.cfdi_uuid}`)).toBeVisible();
  await expect(inOrders.getByRole('button', { name: 'Descargar XML' })).toBeVisible();
  expect(await axeViolations(page, '[data-testid="invoice-block"]')).toEqual([]);

  // The back office lists it under Facturas and previews a month's factura global.
  const adminContext = await browser.newContext({ viewport: PHONE });
  try {
    const admin = await adminContext.newPage();
    await signInAs(admin, ADMIN.email, ADMIN.password);
    await admin.goto('/admin/facturas');
    await expect(admin.getByRole('heading', { level: 1, name: 'Facturas' })).toBeVisible();
    const listed = admin.getByTestId('invoice-row').filter({ hasText: `Pedido #${orderId.slice(-6).toUpperCase()}` });
    await expect(listed).toContainText('Emitida');
    await expect(listed).toContainText(rfc);
    expect(await axeViolations(admin, 'section[aria-labelledby="adm-invoices-title"]')).toEqual([]);
    await admin.getByRole('button', { name: 'Ver vista previa' }).click();
    await expect(admin.getByRole('status').filter({ hasText: /ventas sin factura|No hay ventas sin factura|ya se emitió/ })).toBeVisible();
    expect(await axeViolations(admin, 'section[aria-labelledby="adm-invoices-title"]')).toEqual([]);
  } finally {
    await adminContext.close();
  }
});
