/**
 * Paying the Mexican way with the simulated provider: cash at OXXO (the voucher, the order pending
 * and its units reserved, the voucher e-mail with its simulated store payment, the order paid live
 * in the Orders tab; another voucher that expires gives its units back) and a card in 6 meses sin
 * intereses (the plans after the card is entered, the plan stored and shown). Axe on the new screens.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect as baseExpect, test, type Page } from './fixtures';
import { AccountPage } from './pages/account';
import { createConfirmedUser, serviceRest, stackKeys, STACK_URL } from './pages/auth';
import { CheckoutPage, mailbox, mxn, seedCart, signInFrom } from './pages/checkout';

const expect = baseExpect.configure({ timeout: 15_000 });

// Products no other end-to-end test buys, so their stock is this file's alone.
const OXXO_PRODUCT = 'pk-binder-journey-together';
const EXPIRY_PRODUCT = 'op-starter-op-04-st-10-the-three-captains';
const MSI_PRODUCT = 'pk-battledeck-twilight-masquerade-ogerpon-ex';

async function axe(page: Page) {
  const results = await new AxeBuilder({ page }).include('main').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
}

async function stock(id: string): Promise<number> {
  const { body } = await serviceRest('GET', `products?id=eq.${id}&select=stock`);
  return Number((body as Array<{ stock: number }>)[0]!.stock);
}

async function orderRow(id: string) {
  const { body } = await serviceRest('GET', `orders?id=eq.${id}&select=status,total,expires_at,payment_method,installments,oxxo_voucher`);
  return (
    body as Array<{
      status: string;
      total: number;
      expires_at: string | null;
      payment_method: string | null;
      installments: number | null;
      oxxo_voucher: { reference: string; hostedVoucherUrl: string } | null;
    }>
  )[0]!;
}

/** A fresh shopper with one product in the cart, signed in, at the payment step; returns the order id. */
async function toPayment(page: Page, prefix: string, product: string): Promise<{ orderId: string; user: { email: string; password: string } }> {
  const user = await createConfirmedUser(prefix);
  await seedCart(page, [{ id: product, name: product, price: 1, quantity: 1, stock: 10, image: '' }]);
  await page.goto('/auth?next=/checkout/summary');
  await signInFrom(page, user.email, user.password);
  await page.waitForURL((url) => url.pathname === '/checkout/summary');
  const checkout = new CheckoutPage(page);
  await expect(checkout.progress).toContainText('Paso 1 de 4');
  await checkout.continueButton.click();
  const orderId = await checkout.orderIdFromUrl();
  await checkout.fillAddress();
  await page.getByRole('button', { name: 'Usar esta dirección' }).click();
  await expect(page.getByRole('heading', { name: 'Confirmar tu pago' })).toBeVisible();
  return { orderId, user };
}

/** Asks for the OXXO voucher on the payment step and returns the voucher panel. */
async function getVoucher(page: Page) {
  await page.getByRole('tab', { name: 'Efectivo en OXXO' }).click();
  await page.getByRole('button', { name: 'Generar ficha de pago OXXO' }).click();
  const voucher = page.getByTestId('oxxo-voucher');
  await expect(voucher.getByRole('heading', { name: 'Tu ficha de pago OXXO' })).toBeVisible();
  return voucher;
}

test.describe('pagar a la mexicana', () => {
  test('OXXO: the voucher, the order pending and reserved, the e-mail’s simulated payment, the order paid live in the Orders tab', async ({
    page,
    context,
  }) => {
    test.setTimeout(120_000);
    const before = await stock(OXXO_PRODUCT);
    const { orderId, user } = await toPayment(page, 'oxxo', OXXO_PRODUCT);
    await page.getByRole('tab', { name: 'Efectivo en OXXO' }).click();
    await expect(page.getByRole('tab', { name: 'Efectivo en OXXO' })).toHaveAttribute('aria-selected', 'true');
    await axe(page);

    const voucher = await getVoucher(page);
    const order = await orderRow(orderId);
    await expect(voucher.getByTestId('oxxo-amount')).toHaveText(mxn(Number(order.total)));
    await expect(voucher.getByTestId('oxxo-reference')).toHaveText(/^\d{4} \d{4} \d{4} \d{4} \d{2}$/);
    await expect(voucher.getByText(/^Paga en cualquier tienda OXXO antes del \d{1,2} de [a-z]+ de \d{4} a las \d{2}:\d{2}\.$/)).toBeVisible();
    await expect(voucher.getByRole('link', { name: /Ver e imprimir la ficha de pago/ })).toHaveAttribute('href', order.oxxo_voucher!.hostedVoucherUrl);
    await expect(voucher.getByRole('button', { name: 'Simular pago en OXXO' })).toBeVisible();
    await axe(page);

    // Pending, paid by OXXO, its units reserved for the voucher's three days rather than 30 minutes.
    expect(order).toMatchObject({ status: 'Pendiente', payment_method: 'oxxo' });
    expect(Date.parse(order.expires_at!) - Date.now()).toBeGreaterThan(2 * 24 * 3600 * 1000);
    expect(await stock(OXXO_PRODUCT)).toBe(before - 1);
    // The sweeper leaves it alone.
    expect((await serviceRest('POST', 'rpc/release_expired_orders', {})).status).toBe(200);
    expect((await orderRow(orderId)).status).toBe('Pendiente');

    // Reloaded, the order opens on its voucher.
    await page.reload();
    await expect(page.getByTestId('oxxo-reference')).toHaveText(/^\d{4} /);

    // The Orders tab: 'Pago pendiente en OXXO' with the way back to the voucher.
    const account = new AccountPage(page);
    await account.goto();
    await account.openTab('Pedidos');
    const row = page.locator(`tr[data-order-id="${orderId}"]`);
    await expect(row.getByTestId('oxxo-pending')).toContainText('Pago pendiente en OXXO');
    await expect(row.getByRole('link', { name: 'Ver ficha de pago' })).toHaveAttribute('href', `/checkout/${orderId}`);
    await axe(page);

    // The voucher e-mail links to the simulated store counter, which pays it as Stripe's webhook would.
    let mail: { subject: string; text: string } | undefined;
    await expect
      .poll(async () => {
        mail = (await mailbox(user.email)).find((m) => m.subject.startsWith('Ficha de pago OXXO'));
        return mail?.text ?? '';
      })
      .toContain(`Referencia: ${order.oxxo_voucher!.reference.replace(/(\d{4})(?=\d)/g, '$1 ')}`);
    const link = /(http\S+\/api\/payments\/simulated\/oxxo\/\S+)/.exec(mail!.text)![1]!;
    const counter = await context.newPage();
    await counter.goto(link);
    await counter.getByRole('button', { name: 'Simular pago en OXXO' }).click();
    await expect(counter.getByRole('status')).toContainText('está pagado');
    await counter.close();

    // The Orders tab follows the order live.
    await expect(row.locator('.badge')).toHaveText('Pagado');
    await expect(row.getByTestId('oxxo-pending')).toHaveCount(0);
    expect(await stock(OXXO_PRODUCT)).toBe(before - 1);
  });

  test('OXXO: an unpaid voucher keeps the units reserved until it expires, then the order is cancelled and they return', async ({ page, baseURL }) => {
    test.setTimeout(90_000);
    const before = await stock(EXPIRY_PRODUCT);
    const { orderId, user } = await toPayment(page, 'oxxovence', EXPIRY_PRODUCT);
    await getVoucher(page);
    expect(await stock(EXPIRY_PRODUCT)).toBe(before - 1);
    // The simulated voucher expires now, as Stripe reports it (payment_failed).
    const { anonKey } = await stackKeys();
    const login = await fetch(`${STACK_URL}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    const token = ((await login.json()) as { access_token: string }).access_token;
    const expired = await fetch(`${baseURL}/api/payments/simulated/oxxo/expire`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orderId }),
    });
    expect(await expired.json()).toMatchObject({ status: 'Cancelado', released: true });
    expect(await stock(EXPIRY_PRODUCT)).toBe(before);
    await page.reload();
    await expect(page.getByRole('alert')).toContainText('Este pedido se canceló: su ficha de pago de OXXO venció sin pago.');
    expect((await orderRow(orderId)).status).toBe('Cancelado');
  });

  test('a card in 6 meses sin intereses: the plans after the card, the plan stored and shown', async ({ page }) => {
    test.setTimeout(120_000);
    const { orderId, user } = await toPayment(page, 'msi', MSI_PRODUCT);
    const order = await orderRow(orderId);
    const cents = Math.round(Number(order.total) * 100);
    expect(cents).toBeGreaterThanOrEqual(30_000);
    const main = page.getByRole('main');
    // A card whose issuer offers no plans: no choice, no error.
    await main.getByLabel('Número de tarjeta').fill('4242 4242 4242 4242');
    await page.waitForTimeout(1000);
    await expect(main.getByTestId('installments')).toHaveCount(0);
    // Stripe's Mexican installment card: 3 to 24 months, 'Pago de contado' chosen by default.
    await main.getByLabel('Número de tarjeta').fill('4000 0048 4000 8001');
    const plans = main.getByRole('group', { name: 'Meses sin intereses' });
    await expect(plans.getByRole('radio')).toHaveCount(7);
    await expect(plans.getByRole('radio', { name: 'Pago de contado' })).toBeChecked();
    const label = `6 meses sin intereses de ${mxn(Math.round(cents / 6) / 100)}`;
    await plans.getByRole('radio', { name: label }).check();
    await axe(page);
    await main.getByLabel('Vencimiento (MM/AA)').fill('12/34');
    await main.getByLabel('CVC').fill('123');
    await main.getByRole('button', { name: /^Pagar \$/ }).click();
    await expect(page.getByRole('heading', { name: 'Gracias por tu compra' })).toBeVisible();
    await expect(page.locator('[data-payment-method]')).toHaveText(label);
    await axe(page);
    expect(await orderRow(orderId)).toMatchObject({ status: 'Pagado', payment_method: 'card', installments: 6 });

    const account = new AccountPage(page);
    await account.goto();
    await account.openTab('Pedidos');
    await expect(page.locator(`tr[data-order-id="${orderId}"]`).getByTestId('order-installments')).toHaveText(label);
    await expect
      .poll(async () => (await mailbox(user.email)).find((m) => m.subject.startsWith('Confirmación'))?.text ?? '')
      .toContain(`Forma de pago: ${label}`);
  });
});
