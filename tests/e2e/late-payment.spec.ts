/**
 * A payment that completes after its order was cancelled (here: the shopper's other tab cancels
 * it while the card's confirmation step is open) is refunded, and the shopper is told so.
 */
import { expect as baseExpect, test, expectConsoleError } from './fixtures';
import { AuthPage, stackKeys, STACK_URL } from './pages/auth';
import { orderInDb, shopperWithOrder } from './pages/checkout';

const expect = baseExpect.configure({ timeout: 15_000 });

test('a card confirmed after the order was cancelled in another tab is refunded, and the shopper reads why', async ({ page }) => {
  test.setTimeout(90_000);
  // The confirmation of a cancelled order is refused (409) on purpose.
  expectConsoleError(page, /status of 409.*\/api\/payments\/simulated\//);
  const user = await shopperWithOrder();
  const auth = new AuthPage(page);
  await auth.goto(`/checkout/${user.orderId}`);
  await auth.login(user.email, user.password);
  await page.waitForURL((url) => url.pathname === `/checkout/${user.orderId}`);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Confirmar tu pago' })).toBeVisible();
  await main.getByLabel('Número de tarjeta').fill('4000 0027 6000 3184');
  await main.getByLabel('Vencimiento (MM/AA)').fill('12/34');
  await main.getByLabel('CVC').fill('123');
  await main.getByRole('button', { name: /^Pagar \$/ }).click();
  const step = main.getByRole('dialog', { name: 'Confirma tu pago' });
  await expect(step).toBeVisible();

  // Meanwhile, the other tab cancels the order (its unit goes back on sale), as the bank's
  // confirmation is on its way. Not before: the shop's sweeper (every minute, and the sweeps other
  // specs ask for) cancels the open payments of cancelled orders, and a sweep between the
  // cancellation and the confirmation closed this payment before it was confirmed (a fresh clone's
  // run, 2026-12-04): the money path under test was then never taken.
  const { anonKey } = await stackKeys();
  const cancelled: number[] = [];
  await page.route(
    '**/api/payments/simulated/authenticate',
    async (route) => {
      const response = await fetch(`${STACK_URL}/rest/v1/rpc/cancel_order`, {
        method: 'POST',
        headers: { apikey: anonKey, authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ order_id: user.orderId }),
      });
      cancelled.push(response.status);
      await route.continue();
    },
    { times: 1 },
  );

  await step.getByRole('button', { name: 'Confirmar pago' }).click();
  await expect(main.getByText('Tu pedido expiró antes de completar el pago; te reembolsamos el cargo.')).toBeVisible();
  expect(cancelled).toEqual([200]);
  expect((await orderInDb(user.orderId)).status).toBe('Reembolsado');

  // Opening the order again shows it refunded, not paid.
  await page.reload();
  await expect(main.getByRole('heading', { name: 'Pedido reembolsado' })).toBeVisible();
  await expect(main.getByText('Tu pedido expiró antes de completar el pago; te reembolsamos el cargo.')).toBeVisible();
});
