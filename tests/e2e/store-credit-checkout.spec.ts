/**
 * Saldo a favor and OXXO vouchers at the payment step, with the simulated provider: an order paid
 * half with the balance and half by card (the card asked only for the rest; the ledger records
 * the spend), a whole order paid with the balance at once, and a cart edited while its order
 * waits for an OXXO voucher: the voucher is never cancelled behind the shopper's back. Axe on the
 * new panels; a 6× slower CPU for the clicks that matter.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect as baseExpect, expectConsoleError, test, type Page } from './fixtures';
import { createConfirmedUser, serviceRest } from './pages/auth';
import { CheckoutPage, mxn, seedCart, signInFrom } from './pages/checkout';

const expect = baseExpect.configure({ timeout: 15_000 });

// Products no other end-to-end test buys, so their stock is this file's alone.
const HALF_PRODUCT = 'pk-bundle-shrouded-fable';
const WHOLE_PRODUCT = 'pk-blister-temporal-forces';
const VOUCHER_PRODUCT = 'pk-booster-lost-origin';
const OTHER_PRODUCT = 'pk-booster-silver-tempest';

async function axe(page: Page) {
  const results = await new AxeBuilder({ page }).include('main').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
}

async function slowPhone(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
}

async function orderRow(id: string) {
  const { body } = await serviceRest('GET', `orders?id=eq.${id}&select=status,total,credit_applied,payment_method,payment_provider,oxxo_voucher`);
  return (
    body as Array<{
      status: string;
      total: number;
      credit_applied: number;
      payment_method: string | null;
      payment_provider: string | null;
      oxxo_voucher: unknown;
    }>
  )[0]!;
}

async function ledger(userId: string) {
  const { body } = await serviceRest('GET', `store_credit_entries?user_id=eq.${userId}&select=amount,reason,order_id,balance_after&order=id`);
  return body as Array<{ amount: number; reason: string; order_id: string | null; balance_after: number }>;
}

async function credit(userId: string, cents: number): Promise<void> {
  const { status } = await serviceRest('POST', 'rpc/store_credit_post', { p_user: userId, p_amount: cents, p_reason: 'adjustment', p_note: 'prueba' });
  expect(status).toBe(200);
}

/** A fresh shopper with `product` in the cart, signed in, at the payment step. */
async function toPayment(page: Page, prefix: string, product: string) {
  const user = await createConfirmedUser(prefix);
  await seedCart(page, [{ id: product, name: product, price: 1, quantity: 1, stock: 10, image: '' }]);
  await page.goto('/auth?next=/checkout/summary');
  await signInFrom(page, user.email, user.password);
  await page.waitForURL((url) => url.pathname === '/checkout/summary');
  const checkout = new CheckoutPage(page);
  await checkout.continueButton.click();
  const orderId = await checkout.orderIdFromUrl();
  await checkout.fillAddress();
  await page.getByRole('button', { name: 'Usar esta dirección' }).click();
  await expect(page.getByRole('heading', { name: 'Confirmar tu pago' })).toBeVisible();
  const totalCents = Math.round(Number((await orderRow(orderId)).total) * 100);
  return { user, orderId, totalCents, checkout };
}

test.describe('saldo a favor al pagar', () => {
  test('half with the balance, half by card: the card is asked only for the rest', async ({ page }) => {
    test.setTimeout(120_000);
    const { user, orderId, totalCents, checkout } = await toPayment(page, 'mitad', HALF_PRODUCT);
    const half = Math.floor(totalCents / 2);
    await credit(user.id, half);
    const rest = totalCents - half;

    await slowPhone(page);
    await page.getByRole('tab', { name: 'Saldo a favor' }).click();
    const panel = page.getByRole('tabpanel');
    await expect(panel).toContainText(`Tienes ${mxn(half / 100)} de saldo a favor.`);
    await axe(page);
    const use = panel.getByRole('button', { name: `Usar ${mxn(half / 100)} de saldo a favor` });
    // A double tap applies the balance once.
    await use.dblclick();
    await expect(panel).toContainText(`Usaste ${mxn(half / 100)} de tu saldo a favor. Resta por pagar ${mxn(rest / 100)}`);
    await expect(page.getByText(`Saldo a favor aplicado: −${mxn(half / 100)}`)).toBeVisible();
    await axe(page);

    await page.getByRole('tab', { name: 'Tarjeta' }).click();
    await expect(page.getByRole('button', { name: `Pagar ${mxn(rest / 100)}` })).toBeVisible();
    await checkout.payWithCard('4242 4242 4242 4242');
    await expect(page.getByRole('heading', { name: 'Gracias por tu compra' })).toBeVisible({ timeout: 30_000 });

    const row = await orderRow(orderId);
    expect(row).toMatchObject({ status: 'Pagado', payment_method: 'card' });
    expect(Math.round(Number(row.credit_applied) * 100)).toBe(half);
    const entries = await ledger(user.id);
    expect(entries.map((e) => [e.reason, Number(e.amount)])).toEqual([
      ['adjustment', half],
      ['order_payment', -half],
    ]);
    expect(Number(entries.at(-1)!.balance_after)).toBe(0);
  });

  test('a balance that covers the order pays it at once, with no card', async ({ page }) => {
    test.setTimeout(120_000);
    const { user, orderId, totalCents } = await toPayment(page, 'todo', WHOLE_PRODUCT);
    await credit(user.id, totalCents + 10_000);
    await page.getByRole('tab', { name: 'Saldo a favor' }).click();
    await page
      .getByRole('tabpanel')
      .getByRole('button', { name: `Pagar ${mxn(totalCents / 100)} con saldo a favor` })
      .click();
    await expect(page.getByRole('heading', { name: 'Gracias por tu compra' })).toBeVisible({ timeout: 30_000 });
    expect(await orderRow(orderId)).toMatchObject({ status: 'Pagado', payment_method: 'store_credit', payment_provider: 'store_credit' });
    expect(Number((await ledger(user.id)).at(-1)!.balance_after)).toBe(10_000);
  });
});

test.describe('una ficha de OXXO pendiente', () => {
  test('editing the cart never cancels the voucher unasked; keeping it goes back to the voucher, cancelling makes a new order', async ({ page }) => {
    test.setTimeout(150_000);
    const { orderId, checkout } = await toPayment(page, 'ficha', VOUCHER_PRODUCT);
    // The server makes the voucher, but its answer never reaches the phone (the network dropped):
    // the browser still holds the cart and the pending order.
    expectConsoleError(page, /ERR_INTERNET_DISCONNECTED.*\/api\/create-payment-intent/);
    await page.route('**/api/create-payment-intent', async (route) => {
      await route.fetch();
      await route.abort('internetdisconnected');
    });
    await page.getByRole('tab', { name: 'Efectivo en OXXO' }).click();
    await page.getByRole('button', { name: 'Generar ficha de pago OXXO' }).click();
    await expect(
      page
        .getByRole('tabpanel')
        .getByText(/No se pudo|error/i)
        .first(),
    ).toBeVisible();
    await page.unroute('**/api/create-payment-intent');
    await expect.poll(async () => Boolean((await orderRow(orderId)).oxxo_voucher)).toBe(true);

    // The shopper adds another product and continues again.
    await page.evaluate(
      ([a, b]) => {
        const cart = JSON.parse(localStorage.getItem('cart') ?? '[]') as unknown[];
        cart.push({ id: b, name: b, price: 1, quantity: 1, stock: 10, image: '' });
        localStorage.setItem('cart', JSON.stringify(cart));
        return a;
      },
      [VOUCHER_PRODUCT, OTHER_PRODUCT],
    );
    await page.goto('/checkout/summary');
    await checkout.continueButton.click();
    const notice = page.getByRole('alert').filter({ hasText: 'Tienes una ficha de OXXO pendiente para este pedido' });
    await expect(notice).toBeVisible();
    await axe(page);
    expect((await orderRow(orderId)).status).toBe('Pendiente');

    await notice.getByRole('button', { name: 'Conservar la ficha' }).click();
    await page.waitForURL((url) => url.pathname === `/checkout/${orderId}`);
    await expect(page.getByTestId('oxxo-reference')).toHaveText(/^\d{4} /);
    expect((await orderRow(orderId)).status).toBe('Pendiente');

    await page.goto('/checkout/summary');
    await checkout.continueButton.click();
    await notice.getByRole('button', { name: 'Cancelar la ficha y crear un pedido nuevo' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/checkout/') && url.pathname !== `/checkout/${orderId}` && url.pathname !== '/checkout/summary');
    expect((await orderRow(orderId)).status).toBe('Cancelado');
  });
});
