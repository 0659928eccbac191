/**
 * The purchase from product pages to the confirmation with the simulated provider, against the
 * built server and the local stack: coupons, sign-in from checkout, a new address, the test
 * cards, PayPal, the keyboard alone, and the order 'Pagado' with the total shown at every step.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect as baseExpect, test, type Page, expectConsoleError } from './fixtures';

// The checkout hydrates and talks to the local stack; on a busy 2-core machine that takes a while.
const expect = baseExpect.configure({ timeout: 15_000 });
import { AuthPage, createConfirmedUser, SHOPPER } from './pages/auth';
import { addFromProductPage, CheckoutPage, mailbox, mxn, orderInDb, seedCart } from './pages/checkout';

const BUNDLE = { id: 'pk-bundle-surging-sparks', name: 'Surging Sparks', price: 599 };
const BLISTER = { id: 'pk-blister-journey-together', price: 159 };

async function axe(page: Page) {
  const results = await new AxeBuilder({ page }).include('main').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
}

/** Signs a fresh user in at /auth?next=/checkout/summary and waits to be back. */
async function signInForCheckout(page: Page, user: { email: string; password: string }) {
  const auth = new AuthPage(page);
  await expect(page).toHaveURL(/\/auth\?next=%2Fcheckout%2Fsummary|\/auth\?next=\/checkout\/summary/);
  await auth.login(user.email, user.password);
  await page.waitForURL((url) => url.pathname === '/checkout/summary');
}

/** Goes from the summary to the payment step with a new address; returns the order id. */
async function toPayment(page: Page, checkout: CheckoutPage): Promise<string> {
  await checkout.continueButton.click();
  const orderId = await checkout.orderIdFromUrl();
  await expect(checkout.progress).toContainText('Paso 2 de 4');
  // México: the postal code comes first.
  await expect(page.getByLabel('Código Postal')).toBeFocused();
  await axe(page);
  // Saving with missing fields shows the address rules' messages.
  await page.getByRole('button', { name: 'Guardar dirección' }).click();
  await expect(page.getByText('Calle requerida')).toBeVisible();
  await expect(page.getByText('Código Postal requerido')).toBeVisible();
  await expect(page.getByText('Número exterior requerido')).toBeVisible();
  await checkout.fillAddress();
  await expect(page.getByText('Predeterminada')).toBeVisible();
  await page.getByRole('button', { name: 'Usar esta dirección' }).click();
  await expect(page.getByRole('heading', { name: 'Confirmar tu pago' })).toBeVisible();
  return orderId;
}

test.describe('checkout', () => {
  test('a shopper fills the cart, applies each coupon, signs in from checkout, adds an address, pays with 4242 and sees the same total everywhere', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const user = await createConfirmedUser('compra');
    await addFromProductPage(page, BUNDLE.id, 2);
    const toast = await addFromProductPage(page, BLISTER.id);
    await toast.getByRole('link', { name: 'Ver carrito' }).click();
    await page.waitForURL('**/checkout/summary');

    const checkout = new CheckoutPage(page);
    await expect(checkout.progress).toContainText('Paso 1 de 4');
    await expect(checkout.row(BUNDLE.id)).toContainText(mxn(BUNDLE.price * 2));
    const subtotal = BUNDLE.price * 2 + BLISTER.price;
    await expect(page.locator('[data-amount="subtotal"]')).toHaveText(mxn(subtotal));
    await expect(page.locator('[data-amount="shipping"]')).toHaveText(mxn(99));
    await expect(page.getByText(`Te faltan ${mxn(2999 - subtotal)} para obtener envío gratis.`)).toBeVisible();
    await expect(page.getByText('Los impuestos, si aplican, se calcularán más adelante.')).toBeVisible();
    await axe(page);

    await checkout.applyCoupon('envíogratis');
    await expect(checkout.couponMessage).toHaveText('⚠️ Cupón no válido.');
    await checkout.applyCoupon(' enviogratis ');
    await expect(checkout.couponMessage).toHaveText('🚚 Envío gratis aplicado.');
    await expect(page.locator('[data-amount="shipping"]')).toHaveText('Gratis');
    await page.getByRole('button', { name: 'Quitar cupón' }).click();
    await expect(checkout.couponMessage).toHaveText('');
    await checkout.applyCoupon('mekacat10');
    await expect(checkout.couponMessage).toHaveText('🎉 Cupón aplicado: 10% de descuento.');
    const discount = Math.round(subtotal * 10) / 100;
    const total = subtotal - discount + 99;
    await expect(checkout.total).toHaveText(mxn(total));

    // Anonymous: the alert and a sign-in link that comes back here with the cart intact.
    await checkout.continueButton.click();
    const alert = page.getByRole('alert').filter({ hasText: 'Debes iniciar sesión para finalizar tu compra.' });
    await expect(alert).toBeVisible();
    await alert.getByRole('link', { name: 'Iniciar sesión' }).click();
    await signInForCheckout(page, user);
    await expect(checkout.total).toHaveText(mxn(total));
    await expect(checkout.couponMessage).toHaveText('🎉 Cupón aplicado: 10% de descuento.');

    const orderId = await toPayment(page, checkout);
    await expect(checkout.progress).toContainText('Paso 3 de 4');
    await expect(page.getByText('Modo de prueba: no se realizará ningún cargo real.', { exact: false })).toBeVisible();
    await expect(page.locator('[data-amount="summary-total"]')).toHaveText(mxn(total));
    await page.getByText('Resumen del pedido').click();
    await expect(page.locator('.order-summary [data-amount="total"]')).toHaveText(mxn(total));
    await expect(page.locator('.order-summary [data-amount="shipping"]')).toHaveText(mxn(99));
    await axe(page);
    // From 1024 px the order stands in a column beside the payment step.
    const aside = page.getByRole('complementary', { name: 'Tu pedido' });
    await expect(aside).toBeVisible();
    await expect(aside.locator('[data-amount]')).toHaveCount(0);
    await expect(aside).toContainText(mxn(total));
    const stepBox = (await page.locator('.checkout-main').boundingBox())!;
    const asideBox = (await aside.boundingBox())!;
    expect(asideBox.x).toBeGreaterThanOrEqual(stepBox.x + stepBox.width);
    expect(asideBox.y).toBeLessThan(stepBox.y + stepBox.height);

    const payButton = page.getByRole('button', { name: `Pagar ${mxn(total)}` });
    await expect(payButton).toBeVisible();
    await checkout.payWithCard('4242 4242 4242 4242', { save: true });
    await expect(page.getByRole('heading', { name: 'Gracias por tu compra' })).toBeVisible();
    await expect(checkout.progress).toContainText('Paso 4 de 4');
    await expect(page.getByText('Te enviaremos un correo electrónico con los detalles de tu compra.')).toBeVisible();
    await expect(page.locator('.confirm-grid [data-amount="total"]')).toHaveText(mxn(total));
    await expect(page.locator('[data-order-status]')).toHaveText('Pagado');
    await expect(page.getByText('Av. Reforma 222')).toBeVisible();
    await axe(page);

    const row = await orderInDb(orderId);
    expect(row.status).toBe('Pagado');
    expect(row.paid_at).not.toBeNull();
    expect(Number(row.total)).toBe(total);
    expect(row.shipping_address_id).not.toBeNull();
    await expect(page.getByRole('link', { name: 'Carrito', exact: true })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('cart'))).toBe('[]');
    // The coupon went with the paid order: the next cart starts without MEKACAT10.
    expect(await page.evaluate(() => localStorage.getItem('checkout-coupon') ?? '')).toBe('');
    await expect.poll(async () => (await mailbox(user.email)).filter((m) => m.subject.startsWith('Confirmación de tu pedido')).length).toBe(1);

    // Reopening the order shows the confirmation.
    await page.goto(`/checkout/${orderId}`);
    await expect(page.getByRole('heading', { name: 'Gracias por tu compra' })).toBeVisible();
  });

  test('a declined card shows the message and leaves the order Pendiente; insufficient funds too', async ({ page }) => {
    expectConsoleError(page, /status of 40\d.*\/api\/payments\/simulated\/confirm/); // declined cards on purpose
    test.setTimeout(60_000);
    const user = await createConfirmedUser('rechazo');
    await seedCart(page, [{ id: 'pk-threepack-surging-sparks', name: 'Three pack', price: 296, quantity: 1, stock: 42, image: '' }]);
    await page.goto('/auth?next=/checkout/summary');
    await signInForCheckout(page, user);
    const checkout = new CheckoutPage(page);
    const orderId = await toPayment(page, checkout);
    await checkout.payWithCard('4000 0000 0000 0002');
    await expect(page.getByRole('alert').filter({ hasText: 'Tu tarjeta fue rechazada.' })).toBeVisible();
    await checkout.payWithCard('4000 0000 0000 9995');
    await expect(page.getByRole('alert').filter({ hasText: 'Tu tarjeta no tiene fondos suficientes.' })).toBeVisible();
    await checkout.payWithCard('4242 4242 4242 4241');
    await expect(page.getByRole('alert').filter({ hasText: 'El número de tarjeta no es válido.' })).toBeVisible();
    expect((await orderInDb(orderId)).status).toBe('Pendiente');
    // The reloaded order opens at payment while unpaid.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Confirmar tu pago' })).toBeVisible();
  });

  test('the authentication card asks to confirm, then pays', async ({ page }) => {
    test.setTimeout(60_000);
    const user = await createConfirmedUser('3ds');
    await seedCart(page, [{ id: 'pk-blister-surging-sparks', name: 'Blister', price: 199, quantity: 2, stock: 38, image: '' }]);
    await page.goto('/auth?next=/checkout/summary');
    await signInForCheckout(page, user);
    const checkout = new CheckoutPage(page);
    const orderId = await toPayment(page, checkout);
    await checkout.payWithCard('4000 0027 6000 3184');
    const dialog = page.getByRole('dialog', { name: 'Confirma tu pago' });
    await expect(dialog).toBeVisible();
    expect((await orderInDb(orderId)).status).toBe('Pendiente');
    await axe(page);
    await dialog.getByRole('button', { name: 'Confirmar pago' }).click();
    await expect(page.getByRole('heading', { name: 'Gracias por tu compra' })).toBeVisible();
    expect((await orderInDb(orderId)).status).toBe('Pagado');
  });

  test('simulated PayPal pays the stored total', async ({ page }) => {
    test.setTimeout(60_000);
    const user = await createConfirmedUser('paypal');
    await seedCart(page, [{ id: 'pk-bundle-stellar-crown', name: 'Bundle', price: 599, quantity: 1, stock: 18, image: '' }]);
    await page.goto('/auth?next=/checkout/summary');
    await signInForCheckout(page, user);
    const checkout = new CheckoutPage(page);
    const orderId = await toPayment(page, checkout);
    await page.getByRole('tab', { name: 'Google / Apple Pay' }).click();
    await expect(page.getByText('Google Pay o Apple Pay no están disponibles en este dispositivo.')).toBeVisible();
    await page.getByRole('tab', { name: 'PayPal' }).click();
    await page.getByRole('button', { name: 'Pagar con PayPal' }).click();
    const window = page.getByRole('dialog', { name: 'PayPal (simulado)' });
    await expect(window).toContainText(mxn(599 + 99));
    await window.getByRole('button', { name: 'Aprobar pago' }).click();
    await expect(page.getByRole('heading', { name: 'Gracias por tu compra' })).toBeVisible();
    const row = await orderInDb(orderId);
    expect(row.status).toBe('Pagado');
    expect(Number(row.total)).toBe(599 + 99);
  });

  test('the demo shopper pays to a saved address (default preselected) and the order shows up Pagado', async ({ page }) => {
    test.setTimeout(60_000);
    await seedCart(page, [{ id: 'op-starter-op-01-st-01-straw-hat-crew', name: 'Starter', price: 349, quantity: 1, stock: 37, image: '' }]);
    await page.goto('/auth?next=/checkout/summary');
    await signInForCheckout(page, SHOPPER);
    const checkout = new CheckoutPage(page);
    await checkout.continueButton.click();
    const orderId = await checkout.orderIdFromUrl();
    const radios = page.getByRole('radio');
    await expect(radios).toHaveCount(2);
    const chosen = page.locator('.address-option', { has: page.getByRole('radio', { checked: true }) });
    await expect(chosen).toContainText('Predeterminada');
    await page.getByRole('button', { name: 'Usar esta dirección' }).click();
    await expect(page.getByRole('heading', { name: 'Confirmar tu pago' })).toBeVisible();
    // The Envío step is completed, so it is clickable; coming back keeps the same order.
    await checkout.progress.getByRole('button', { name: /Envío/ }).click();
    await expect(page.getByRole('button', { name: 'Usar esta dirección' })).toBeVisible();
    await page.getByRole('button', { name: 'Usar esta dirección' }).click();
    await page.getByLabel('Número de tarjeta').fill('4242424242424242');
    await page.getByLabel('Vencimiento (MM/AA)').fill('08/33');
    await page.getByLabel('CVC').fill('123');
    // A double click must never pay twice.
    await page.getByRole('button', { name: /^Pagar \$/ }).dblclick();
    await expect(page.getByRole('heading', { name: 'Gracias por tu compra' })).toBeVisible();
    const number = (await page.locator('[data-order-number]').textContent())!;
    await expect.poll(async () => (await mailbox(SHOPPER.email)).filter((m) => m.subject === `Confirmación de tu pedido ${number}`).length).toBe(1);
    const row = await orderInDb(orderId);
    expect(row).toMatchObject({ status: 'Pagado' });
    expect(Number(row.total)).toBe(349 + 99);
    expect(row.shipping_address_id).toBe('a1d2e3f4-0001-4a00-8000-000000000001');
  });

  test('the whole purchase with the keyboard alone', async ({ page }) => {
    test.setTimeout(90_000);
    const user = await createConfirmedUser('teclado');
    await seedCart(page, [{ id: 'pk-threepack-destined-rivals', name: 'Three pack', price: 349, quantity: 1, stock: 42, image: '' }]);
    await page.goto('/auth?next=/checkout/summary');
    await signInForCheckout(page, user);
    const checkout = new CheckoutPage(page);
    await expect(checkout.continueButton).toBeEnabled();

    /** Presses Tab until the element has focus (at most 60 times). */
    async function tabTo(locator: ReturnType<Page['locator']>) {
      for (let i = 0; i < 60; i += 1) {
        if (await locator.evaluate((el) => el === document.activeElement)) return;
        await page.keyboard.press('Tab');
      }
      throw new Error('no se alcanzó el elemento con Tab');
    }

    await tabTo(checkout.couponInput);
    await page.keyboard.type('ENVIOGRATIS');
    await page.keyboard.press('Enter');
    await expect(checkout.couponMessage).toHaveText('🚚 Envío gratis aplicado.');
    await tabTo(checkout.continueButton);
    await page.keyboard.press('Enter');
    await checkout.orderIdFromUrl();
    // México: postal code (one the catalogue does not know, so every field is typed), country,
    // estado, municipio, colonia, city, street, exterior and interior number, references, phone.
    await expect(page.getByLabel('Código Postal')).toBeFocused();
    for (const [typed, tabs] of [
      ['99997', 2],
      ['Jalisco', 1],
      ['Guadalajara', 1],
      ['Centro', 1],
      ['Guadalajara', 1],
      ['Calle Luna', 1],
      ['5', 3],
      ['3312345678', 0],
    ] as const) {
      await page.keyboard.type(typed);
      for (let i = 0; i < tabs; i += 1) await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    const use = page.getByRole('button', { name: 'Usar esta dirección' });
    await expect(use).toBeVisible();
    await tabTo(use);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Confirmar tu pago' })).toBeVisible();
    await tabTo(page.getByLabel('Número de tarjeta'));
    await page.keyboard.type('4242424242424242');
    await page.keyboard.press('Tab');
    await page.keyboard.type('01/40');
    await page.keyboard.press('Tab');
    await page.keyboard.type('321');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Gracias por tu compra' })).toBeVisible();
    await expect(page.locator('.confirm-grid [data-amount="total"]')).toHaveText(mxn(349));
  });
});
