/**
 * Forms a phone can fill: the card form on a slow phone (CPU throttled 4×) takes the expiry typed
 * as '1230' and shows '12/30', and the main fields of the shop ask for the right keyboard
 * (inputmode) and autofill (autocomplete).
 */
import { expect as baseExpect, test, type Locator } from './fixtures';
import { AccountPage } from './pages/account';
import { ADMIN, AuthPage, createConfirmedUser, signInAs } from './pages/auth';
import { AdminProductForm } from './pages/admin';
import { orderInDb, shopperWithOrder } from './pages/checkout';

// A 4× slower CPU on a machine shared by other suites: hydration and payment take a while.
const expect = baseExpect.configure({ timeout: 30_000 });

/** Attributes a field is checked for, by their HTML names. */
type FieldAttributes = Partial<Record<'autocomplete' | 'inputmode' | 'type' | 'enterkeyhint' | 'autocapitalize', string>>;

/** Asserts a field's autofill token, phone keyboard and whatever else is given. */
async function expectField(field: Locator, attributes: FieldAttributes) {
  await expect(field).toBeVisible();
  for (const [name, value] of Object.entries(attributes)) await expect(field, name).toHaveAttribute(name, value);
}

test('on a phone-speed CPU the card form takes the expiry typed as 1230, shows 12/30 and pays', async ({ page }) => {
  test.setTimeout(180_000);
  // A fresh shopper whose pending order already ships to an address (it opens at 'Pago').
  const user = await shopperWithOrder('op-starter-op-03-st-08-monkey-d-luffy');
  const auth = new AuthPage(page);
  await auth.goto(`/checkout/${user.orderId}`);
  await auth.login(user.email, user.password);
  await page.waitForURL((url) => url.pathname === `/checkout/${user.orderId}`);

  // From here on the page runs 4× slower, and loads again from scratch.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.reload();

  // Typed as soon as each field shows, digit by digit, without waiting for anything else.
  const card = page.getByRole('main').getByRole('form', { name: 'Pago con tarjeta' });
  const number = card.getByLabel('Número de tarjeta');
  const expiry = card.getByLabel('Vencimiento (MM/AA)');
  const cvc = card.getByLabel('CVC');
  await number.pressSequentially('4242424242424242');
  await expiry.pressSequentially('1230');
  await cvc.pressSequentially('123');
  await expect(number).toHaveValue('4242 4242 4242 4242');
  await expect(expiry).toHaveValue('12/30');
  await expect(cvc).toHaveValue('123');

  // Backspace goes through the slash, and the slash comes back with the year.
  await expiry.press('End');
  for (const shown of ['12/3', '12/', '12']) {
    await expiry.press('Backspace');
    await expect(expiry).toHaveValue(shown);
  }
  await expiry.pressSequentially('30');
  await expect(expiry).toHaveValue('12/30');

  await expectField(number, { autocomplete: 'cc-number', inputmode: 'numeric' });
  await expectField(expiry, { autocomplete: 'cc-exp', inputmode: 'numeric' });
  await expectField(cvc, { autocomplete: 'cc-csc', inputmode: 'numeric' });

  await card.getByRole('button', { name: /^Pagar \$/ }).click();
  await expect(page.getByRole('heading', { name: 'Gracias por tu compra' })).toBeVisible();
  await expect(card.getByText('La fecha de vencimiento no es válida.')).toHaveCount(0);
  expect((await orderInDb(user.orderId)).status).toBe('Pagado');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
});

test('sign-in, sign-up, newsletter and search ask for the right keyboard and autofill', async ({ page }) => {
  const auth = new AuthPage(page);
  await auth.goto();
  await expectField(auth.email, { autocomplete: 'email', type: 'email' });
  await expectField(auth.password, { autocomplete: 'current-password', type: 'password' });

  await auth.registerMode.click();
  await expectField(auth.username, { autocomplete: 'username', autocapitalize: 'none' });
  await expectField(auth.name, { autocomplete: 'given-name' });
  await expectField(auth.lastname, { autocomplete: 'family-name' });
  await expectField(auth.phone, { autocomplete: 'tel', type: 'tel' });
  await expectField(auth.email, { autocomplete: 'email', type: 'email' });
  await expectField(auth.password, { autocomplete: 'new-password' });

  const newsletter = page.getByRole('contentinfo').getByRole('textbox', { name: 'Correo electrónico' });
  await expectField(newsletter, { autocomplete: 'email', inputmode: 'email', type: 'email' });

  const search = page.getByRole('banner').getByRole('combobox', { name: 'Buscar productos' });
  await expectField(search, { type: 'search', inputmode: 'search', enterkeyhint: 'search', autocomplete: 'off' });
});

test('the address and profile forms of the account fill from the browser, the postal code on the numeric keypad', async ({ page }) => {
  const user = await createConfirmedUser('teclados');
  await signInAs(page, user.email, user.password);
  const account = new AccountPage(page);

  await account.openTab('Direcciones');
  const address = account.newAddressForm;
  // México: the street without its number, the municipio as the second level, the contact phone.
  await expectField(address.getByLabel('Calle', { exact: true }), { autocomplete: 'address-line1' });
  await expectField(address.getByLabel('Municipio o alcaldía'), { autocomplete: 'address-level2' });
  await expectField(address.getByLabel('Estado', { exact: true }), { autocomplete: 'address-level1' });
  await expectField(address.getByLabel('Código Postal'), { autocomplete: 'postal-code', inputmode: 'numeric' });
  await expectField(address.getByLabel('Teléfono de contacto'), { autocomplete: 'tel-national', inputmode: 'tel' });
  await expectField(address.getByRole('combobox', { name: 'País' }), { autocomplete: 'country-name' });

  await account.openTab('Mi perfil');
  await account.panel.getByRole('button', { name: 'Editar datos' }).click();
  const profile = account.profileForm;
  await expectField(profile.getByLabel('Username'), { autocomplete: 'username', autocapitalize: 'none' });
  await expectField(profile.getByLabel('Nombre', { exact: true }), { autocomplete: 'given-name' });
  await expectField(profile.getByLabel('Teléfono'), { autocomplete: 'tel', type: 'tel' });
  await expectField(profile.getByLabel('Calle'), { autocomplete: 'street-address' });
  await expectField(profile.getByLabel('Código Postal'), { autocomplete: 'postal-code', inputmode: 'numeric' });
});

test('the back office product form asks for prices on the decimal keypad', async ({ page }) => {
  await signInAs(page, ADMIN.email, ADMIN.password);
  const admin = new AdminProductForm(page);
  await admin.goto();
  await admin.expectShown();
  await expectField(admin.form.getByLabel('Precio (MXN)'), { inputmode: 'decimal' });
  await expectField(admin.form.getByLabel('Stock'), { inputmode: 'numeric' });
  await expectField(admin.form.getByLabel('Límite por cliente'), { inputmode: 'numeric' });
});
