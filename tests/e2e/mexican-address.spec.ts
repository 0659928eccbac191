/**
 * The Mexican address on a phone (375 px, CPU throttled 4×): the postal code typed at once fills
 * estado and municipio and lists its colonias; the saved address shows in full, in the courier's
 * order; an unknown postal code lets everything be typed with no error; a checkout with an address
 * saved before the Mexican parts asks for them before the payment. axe on the form.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect as baseExpect, test, type Page } from './fixtures';
import { AccountPage } from './pages/account';
import { createConfirmedUser, serviceRest, signInAs } from './pages/auth';
import { CheckoutPage, seedCart } from './pages/checkout';

// A 4× slower CPU on a machine shared by other suites.
const expect = baseExpect.configure({ timeout: 30_000 });

test.use({ viewport: { width: 375, height: 812 } });

async function slowPhone(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
}

async function axe(page: Page) {
  const results = await new AxeBuilder({ page }).include('main').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
}

test('a new address by postal code: 06700 fills estado and municipio, Roma Norte is picked from the list, and the address shows in full', async ({ page }) => {
  test.setTimeout(120_000);
  const user = await createConfirmedUser('cp');
  await signInAs(page, user.email, user.password);
  await slowPhone(page);
  const account = new AccountPage(page);
  await account.openTab('Direcciones');
  const form = account.newAddressForm;

  // Typed at once, as a shopper does, while the phone is slow.
  await form.getByLabel('Código Postal').pressSequentially('06700');
  await expect(form.getByLabel('Estado', { exact: true })).toHaveValue('Ciudad de México');
  await expect(form.getByLabel('Municipio o alcaldía')).toHaveValue('Cuauhtémoc');
  const colonias = form.getByRole('combobox', { name: 'Colonia' });
  await expect(colonias.getByRole('option', { name: 'Roma Norte' })).toHaveCount(1);
  await expect(colonias.getByRole('option', { name: 'Otra' })).toHaveCount(1);
  // The code's only colonia is chosen at once; 'Otra' reveals a field to type another.
  await expect(colonias).toHaveValue('Roma Norte');
  await colonias.selectOption({ label: 'Otra' });
  await expect(form.getByLabel('Nombre de la colonia')).toBeVisible();
  await axe(page);

  // Saving with the rest empty names each missing part.
  await form.getByRole('button', { name: 'Guardar dirección' }).click();
  for (const message of ['Calle requerida', 'Número exterior requerido', 'Colonia requerida', 'Teléfono de 10 dígitos']) {
    await expect(form).toContainText(message);
  }

  await colonias.selectOption({ label: 'Roma Norte' });
  await form.getByLabel('Calle', { exact: true }).fill('Av. Chapultepec');
  await form.getByLabel('Número exterior').fill('480');
  await form.getByLabel('Número interior (opcional)').fill('12B');
  const references = form.getByLabel('Referencias (opcional)');
  await expect(references).toHaveAttribute('placeholder', 'Entre calles, color de fachada, indicaciones para la paquetería');
  await references.fill('Entre Sonora y Durango, portón negro');
  await form.getByLabel('Teléfono de contacto').fill('55 1234 5678');
  await form.getByRole('button', { name: 'Guardar dirección' }).click();

  const saved = account.addresses.first();
  await expect(saved).toContainText('Av. Chapultepec 480, Int. 12B');
  await expect(saved).toContainText('Col. Roma Norte');
  await expect(saved).toContainText('C.P. 06700, Cuauhtémoc');
  await expect(saved).toContainText('Referencias: Entre Sonora y Durango, portón negro');
  await expect(saved).toContainText('Tel. 55 1234 5678');
  const { body } = await serviceRest(
    'GET',
    `addresses?user_id=eq.${user.id}&select=street,exterior_number,interior_number,neighborhood,municipality,state,zip,phone`,
  );
  expect(body).toEqual([
    {
      street: 'Av. Chapultepec',
      exterior_number: '480',
      interior_number: '12B',
      neighborhood: 'Roma Norte',
      municipality: 'Cuauhtémoc',
      state: 'Ciudad de México',
      zip: '06700',
      phone: '5512345678',
    },
  ]);
});

test('an unknown postal code lets every field be typed, with no error', async ({ page }) => {
  test.setTimeout(120_000);
  const user = await createConfirmedUser('cpdesconocido');
  await signInAs(page, user.email, user.password);
  await slowPhone(page);
  const account = new AccountPage(page);
  await account.openTab('Direcciones');
  const form = account.newAddressForm;

  await form.getByLabel('Código Postal').pressSequentially('99999');
  await expect(form.getByRole('status').filter({ hasText: 'No encontramos' })).toHaveText(
    'No encontramos este código postal: escribe los datos de tu dirección.',
  );
  await expect(form.getByRole('combobox', { name: 'Colonia' })).toHaveCount(0);
  await expect(form.locator('.field-error')).toHaveCount(0);
  await form.getByRole('textbox', { name: 'Colonia', exact: true }).fill('Ejido Nuevo');
  await form.getByLabel('Municipio o alcaldía').fill('Aldama');
  await form.getByLabel('Estado', { exact: true }).fill('Chihuahua');
  await form.getByLabel('Calle', { exact: true }).fill('Calle Pino');
  await form.getByLabel('Número exterior').fill('S/N');
  await form.getByLabel('Teléfono de contacto').fill('6141234567');
  await form.getByRole('button', { name: 'Guardar dirección' }).click();
  await expect(account.addresses.first()).toContainText('Calle Pino S/N');
  await expect(account.addresses.first()).toContainText('Col. Ejido Nuevo');
  await expect(account.addresses.first()).toContainText('C.P. 99999, Aldama');
});

test('a checkout with an address saved before the Mexican parts asks for them before the payment', async ({ page }) => {
  test.setTimeout(150_000);
  const user = await createConfirmedUser('cpviejo');
  const { body } = await serviceRest('POST', 'addresses', {
    user_id: user.id,
    label: 'Casa',
    street: 'Av. Insurgentes Sur 1602, Col. Crédito Constructor',
    city: 'Ciudad de México',
    state: 'CDMX',
    zip: '03940',
    country: 'México',
  });
  const addressId = (body as Array<{ id: string }>)[0]!.id;
  await seedCart(page, [{ id: 'op-starter-op-01-st-01-straw-hat-crew', name: 'Starter', price: 349, quantity: 1, stock: 37, image: '' }]);
  await signInAs(page, user.email, user.password);
  const checkout = new CheckoutPage(page);
  await checkout.gotoSummary();
  await checkout.continueButton.click();
  await checkout.orderIdFromUrl();

  const main = page.getByRole('main');
  await expect(main.locator('.address-option')).toContainText('Av. Insurgentes Sur 1602, Col. Crédito Constructor');
  await expect(main.locator('.address-option')).toContainText('Faltan datos para el envío');
  await main.getByRole('button', { name: 'Usar esta dirección' }).click();
  const form = main.getByRole('form', { name: 'Completa tu dirección' });
  await expect(form.getByLabel('Calle', { exact: true })).toHaveValue('Av. Insurgentes Sur 1602, Col. Crédito Constructor');
  // The stored postal code's lookup fills what is blank: its only colonia and its alcaldía.
  await expect(form.getByRole('combobox', { name: 'Colonia' })).toHaveValue('Crédito Constructor');
  await expect(form.getByLabel('Municipio o alcaldía')).toHaveValue('Benito Juárez');
  await expect(form.getByLabel('Estado', { exact: true })).toHaveValue('CDMX');
  await axe(page);
  await form.getByRole('button', { name: 'Guardar y usar esta dirección' }).click();
  await expect(form).toContainText('Número exterior requerido');
  await expect(page.getByRole('heading', { name: 'Confirmar tu pago' })).toHaveCount(0);

  await form.getByLabel('Calle', { exact: true }).fill('Av. Insurgentes Sur');
  await form.getByLabel('Número exterior').fill('1602');
  await form.getByLabel('Teléfono de contacto').fill('5598765432');
  await form.getByRole('button', { name: 'Guardar y usar esta dirección' }).click();
  await expect(page.getByRole('heading', { name: 'Confirmar tu pago' })).toBeVisible();
  const stored = await serviceRest('GET', `addresses?id=eq.${addressId}&select=street,exterior_number,neighborhood,municipality,phone`);
  expect(stored.body).toEqual([
    { street: 'Av. Insurgentes Sur', exterior_number: '1602', neighborhood: 'Crédito Constructor', municipality: 'Benito Juárez', phone: '5598765432' },
  ]);
});
