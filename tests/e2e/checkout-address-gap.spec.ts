/**
 * An order pointed at an address saved before the Mexican parts were asked (no número exterior,
 * no colonia) reaches the payment step; paying is refused by the server (409 'Completa tu
 * dirección de envío: …'), and the checkout takes the shopper back to the shipping step with that
 * address open, its missing parts marked with the form's own messages. Completed and saved, the
 * same order (and cart) goes back to the payment and is paid. On a 375 px phone, with axe on the
 * reopened form.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect as baseExpect, expectConsoleError, test } from './fixtures';
import { createConfirmedUser, serviceRest, signInAs } from './pages/auth';
import { CheckoutPage, seedCart } from './pages/checkout';

const expect = baseExpect.configure({ timeout: 20_000 });

test.use({ viewport: { width: 375, height: 812 } });

const PRODUCT = { id: 'op-starter-op-01-st-01-straw-hat-crew', name: 'Starter', price: 349, quantity: 1, stock: 37, image: '' };

test('paying an order whose address lacks its Mexican parts goes back to that address, and pays once it is completed', async ({ page }) => {
  test.setTimeout(150_000);
  const user = await createConfirmedUser('direccionvieja');
  // An address as the shop saved them before número exterior and colonia were asked (the postal
  // code is a valid one, so the addresses_zip_mx trigger accepts the row as it is).
  const created = await serviceRest('POST', 'addresses', {
    user_id: user.id,
    label: 'Oficina',
    street: 'Paseo de la Reforma',
    city: 'Ciudad de México',
    state: 'Ciudad de México',
    zip: '11000',
    country: 'México',
    phone: '5512345678',
  });
  expect(created.status).toBe(201);
  const addressId = (created.body as Array<{ id: string }>)[0]!.id;

  await seedCart(page, [PRODUCT]);
  await signInAs(page, user.email, user.password);
  const checkout = new CheckoutPage(page);
  await checkout.gotoSummary();
  await checkout.continueButton.click();
  const orderId = await checkout.orderIdFromUrl();
  // The order points at the old address (as an order opened again from its link): it opens at the payment.
  const pointed = await serviceRest('PATCH', `orders?id=eq.${orderId}`, { shipping_address_id: addressId });
  expect(pointed.status).toBe(200);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Confirmar tu pago' })).toBeVisible();

  // The server refuses the payment with the address's first missing part.
  expectConsoleError(page, /Failed to load resource: the server responded with a status of 409/);
  await checkout.payWithCard('4242424242424242');
  const main = page.getByRole('main');
  await expect(main.getByRole('alert').filter({ hasText: 'Completa tu dirección de envío: Número exterior requerido.' })).toBeVisible();
  await expect(checkout.progress).toContainText('Paso 2 de 4');
  await expect(page).toHaveURL(new RegExp(`/checkout/${orderId}$`));
  await expect(page.getByRole('heading', { name: 'Confirmar tu pago' })).toHaveCount(0);

  const form = main.getByRole('form', { name: 'Completa tu dirección' });
  await expect(form.getByLabel('Calle', { exact: true })).toHaveValue('Paseo de la Reforma');
  // The postal code's lookup fills the alcaldía and lists its colonias; the missing parts are marked.
  await expect(form.getByLabel('Municipio o alcaldía')).toHaveValue('Miguel Hidalgo');
  await expect(form).toContainText('Número exterior requerido');
  await expect(form).toContainText('Colonia requerida');
  await expect(form.getByLabel('Número exterior')).toHaveAttribute('aria-invalid', 'true');
  const axe = await new AxeBuilder({ page }).include('main').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);

  await form.getByLabel('Número exterior').fill('2000');
  await expect(form).not.toContainText('Número exterior requerido');
  await form.getByRole('combobox', { name: 'Colonia' }).selectOption({ label: 'Lomas de Chapultepec I Sección' });
  await expect(form).not.toContainText('Colonia requerida');
  await form.getByRole('button', { name: 'Guardar y usar esta dirección' }).click();

  // Back at the payment of the same order, with its line still there.
  await expect(page.getByRole('heading', { name: 'Confirmar tu pago' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/checkout/${orderId}$`));
  await expect(main.locator('.order-summary')).toContainText('Starter');
  await checkout.payWithCard('4242424242424242');
  await expect(page.getByRole('heading', { name: 'Gracias por tu compra' })).toBeVisible();

  const order = await serviceRest('GET', `orders?id=eq.${orderId}&select=status,shipping_address_id,shipping_address`);
  expect(order.body).toEqual([
    expect.objectContaining({
      status: 'Pagado',
      shipping_address_id: addressId,
      shipping_address: expect.objectContaining({
        street: 'Paseo de la Reforma',
        exterior_number: '2000',
        neighborhood: 'Lomas de Chapultepec I Sección',
        municipality: 'Miguel Hidalgo',
        zip: '11000',
      }),
    }),
  ]);
});
