/**
 * Datos de facturación on a phone: a new shopper types an RFC with a wrong check digit and is told
 * 'RFC no válido' (nothing saved); the RFC fixed, the régimen list is a persona física's, the uso del
 * CFDI starts at G03 and follows the régimen, the invoice e-mail starts as the account's; saved,
 * a reload shows the data as stored (the RFC in capitals, the razón social with its accents), and
 * the database holds that row for this shopper alone. Axe on the section. The back office's edit
 * dialog shows a product's SAT keys (its type's default), refuses a key out of SAT's format and
 * saves an override, which an empty key gives back to the default.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator } from '@playwright/test';
import { test, expect as baseExpect } from './fixtures';
import { ADMIN, createConfirmedUser, serviceRest, signInAs } from './pages/auth.ts';
import { AccountPage } from './pages/account.ts';
import { BackOffice } from './pages/back-office.ts';
import { PHONE } from './pages/phone.ts';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 120_000 });
test.use({ viewport: PHONE });

/** The values of a select's options, in order. */
async function optionValues(select: Locator): Promise<string[]> {
  return select.locator('option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
}

test('a shopper saves their tax data: a bad RFC is refused, the fixed one is saved and shown after a reload', async ({ page }) => {
  const user = await createConfirmedUser('facturas');
  await signInAs(page, user.email, user.password);
  const account = new AccountPage(page);
  await account.openTab('Mi perfil');

  const section = account.panel.getByRole('region', { name: 'Datos de facturación' });
  const form = section.getByRole('form', { name: 'Datos de facturación' });
  await expect(form).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'Correo para recibir facturas' })).toHaveValue(user.email);
  const regime = form.getByRole('combobox', { name: 'Régimen fiscal' });
  const use = form.getByRole('combobox', { name: 'Uso del CFDI' });
  await expect(use).toHaveValue('G03');
  await expect(use.locator('option:checked')).toHaveText('G03 Gastos en general');

  const axe = await new AxeBuilder({ page }).include('[data-testid="tax-data"]').analyze();
  const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  // A wrong check digit: refused here, with nothing sent.
  const rfc = form.getByRole('textbox', { name: 'RFC' });
  await rfc.fill('gode561231gr9');
  await form.getByRole('textbox', { name: 'Razón social' }).fill('  Emilio Gómez Díaz ');
  await form.getByRole('textbox', { name: 'Código postal fiscal' }).fill('06700');
  await form.getByRole('button', { name: 'Guardar datos de facturación' }).click();
  await expect(form.getByText('RFC no válido: el dígito verificador no corresponde')).toBeVisible();
  await expect(form.getByText('Régimen fiscal requerido')).toBeVisible();
  await expect(rfc).toHaveAttribute('aria-invalid', 'true');

  // Fixed: a persona física's régimenes only; a salaried régimen moves the uso off G03.
  await rfc.fill('gode561231gr8');
  await expect(section.getByTestId('tax-person-kind')).toHaveText('Persona física');
  const regimes = await optionValues(regime);
  expect(regimes).toContain('612');
  expect(regimes).not.toContain('601');
  await regime.selectOption('605');
  await expect(use).toHaveValue('S01');
  expect(await optionValues(use)).not.toContain('G03');
  await regime.selectOption('612');
  await use.selectOption('G01');
  await form.getByRole('button', { name: 'Guardar datos de facturación' }).click();
  await account.expectToast('Datos de facturación guardados');

  await page.reload();
  await account.openTab('Mi perfil');
  await expect(rfc).toHaveValue('GODE561231GR8');
  await expect(form.getByRole('textbox', { name: 'Razón social' })).toHaveValue('Emilio Gómez Díaz');
  await expect(regime).toHaveValue('612');
  await expect(use).toHaveValue('G01');
  await expect(form.getByRole('textbox', { name: 'Código postal fiscal' })).toHaveValue('06700');

  const { body } = await serviceRest('GET', `tax_profiles?select=rfc,legal_name,tax_regime,tax_zip,cfdi_use,invoice_email&user_id=eq.${user.id}`);
  expect(body).toEqual([
    { rfc: 'GODE561231GR8', legal_name: 'Emilio Gómez Díaz', tax_regime: '612', tax_zip: '06700', cfdi_use: 'G01', invoice_email: user.email },
  ]);
});

test('the owner overrides a product’s SAT keys in the edit dialog, and empties them back to the defaults', async ({ page }) => {
  const [product] = (await serviceRest('GET', 'products?select=id,sat_product_key,sat_unit_key&product_type_id=eq.sleeves&order=id.asc&limit=1'))
    .body as Array<{ id: string; sat_product_key: string; sat_unit_key: string }>;
  expect(product, 'a sleeves product in the seed').toBeDefined();
  expect(product).toMatchObject({ sat_product_key: '60141101', sat_unit_key: 'H87' });

  await signInAs(page, ADMIN.email, ADMIN.password);
  const office = new BackOffice(page);
  await office.goto(`/admin/productos?q=${encodeURIComponent(product!.id)}`);
  const row = office.main.locator(`[data-product-id="${product!.id}"]`);
  await row.getByRole('button', { name: /Editar/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Editar producto' });
  const productKey = dialog.getByRole('textbox', { name: 'Clave de producto o servicio (ClaveProdServ)' });
  const unitKey = dialog.getByRole('textbox', { name: 'Clave de unidad (ClaveUnidad)' });
  await expect(productKey).toHaveValue('60141101');
  await expect(unitKey).toHaveValue('H87');

  await productKey.fill('6014110');
  await dialog.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(dialog).toContainText('La clave de producto o servicio del SAT son 8 dígitos');

  await productKey.fill('60141103');
  await unitKey.fill('xbx');
  await dialog.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(dialog).toBeHidden();
  await expect(office.main.getByRole('status').filter({ hasText: 'Producto guardado.' })).toBeVisible();
  const saved = await serviceRest('GET', `products?id=eq.${product!.id}&select=sat_product_key,sat_unit_key`);
  expect(saved.body).toEqual([{ sat_product_key: '60141103', sat_unit_key: 'XBX' }]);

  await row.getByRole('button', { name: /Editar/ }).click();
  await productKey.fill('');
  await unitKey.fill('');
  await dialog.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(dialog).toBeHidden();
  const reset = await serviceRest('GET', `products?id=eq.${product!.id}&select=sat_product_key,sat_unit_key`);
  expect(reset.body).toEqual([{ sat_product_key: '60141101', sat_unit_key: 'H87' }]);
});
