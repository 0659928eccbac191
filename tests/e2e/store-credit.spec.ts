/**
 * Saldo a favor in the account. A shopper's cash was taken at OXXO before the voucher's deadline,
 * but the order's reservation ended before the shop heard of it: the sweeper cancels the order,
 * finds the voucher paid and credits the cash to the shopper's balance. With the account open, the
 * profile shows 'Saldo a favor: $…' and the movement 'Pago en OXXO abonado a tu saldo' with the
 * order number without a reload; after a reload too. Axe on the page with the new section, and at
 * 375 px the section does not scroll sideways.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect as baseExpect, test, type Page } from './fixtures';
import { AccountPage } from './pages/account';
import { serviceRest, signInAs, stackKeys } from './pages/auth';
import { mxn, orderInDb, shopperWithOrder } from './pages/checkout';

// The sweep and the live change wait on the local stack, slow while other suites share the 2 cores.
const expect = baseExpect.configure({ timeout: 15_000 });

// A product no other end-to-end test buys, so its stock is this file's alone.
const PRODUCT = 'pk-blister-temporal-forces';

const HOW_RETURNED = 'Los pagos en efectivo en OXXO no se pueden devolver en efectivo: se abonan a tu saldo a favor o se devuelven por transferencia bancaria.';

/** Resolves once the page's live subscription to the balance's ledger is open on the stack. */
function ledgerFollowed(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      socket.on('framereceived', ({ payload }) => {
        const text = typeof payload === 'string' ? payload : payload.toString('utf8');
        if (text.includes('Subscribed to PostgreSQL') && text.includes('account-store_credit_entries-')) resolve();
      });
    });
  });
}

async function expectNoAxeViolations(page: Page) {
  const section = await new AxeBuilder({ page }).include('[data-testid="store-credit"]').analyze();
  expect(section.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
  const main = await new AxeBuilder({ page }).include('main').analyze();
  const serious = main.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

test('cash paid at OXXO for an order cancelled meanwhile appears live as saldo a favor in the account', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const shopper = await shopperWithOrder(PRODUCT);
  const total = mxn(Number((await orderInDb(shopper.orderId)).total));
  const orderNumber = `#${shopper.orderId.slice(-6).toUpperCase()}`;

  // The OXXO voucher, as the payment step asks the shop's API for it.
  const created = await fetch(`${baseURL}/api/create-payment-intent`, {
    method: 'POST',
    headers: { authorization: `Bearer ${shopper.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ orderId: shopper.orderId, method: 'oxxo' }),
  });
  expect(created.status, await created.clone().text()).toBe(200);
  const { paymentIntentId } = (await created.json()) as { paymentIntentId: string };

  // The account, before any movement: $0.00 and the empty list.
  const followed = ledgerFollowed(page);
  await signInAs(page, shopper.email, shopper.password);
  const account = new AccountPage(page);
  await expect(account.tabs.getByRole('tab', { name: 'Mi perfil' })).toHaveAttribute('aria-selected', 'true');
  const summary = account.panel.getByRole('region', { name: 'Resumen' });
  const movements = account.panel.getByRole('region', { name: 'Movimientos de tu saldo a favor' });
  await expect(summary.getByText('Saldo a favor: $0.00', { exact: true })).toBeVisible();
  await expect(movements.getByText('Aún no tienes movimientos.')).toBeVisible();
  await expect(movements.getByText(HOW_RETURNED)).toBeVisible();
  await followed;

  // The cashier takes the cash before the voucher's deadline (the simulated provider records it as
  // Stripe would), but the shop has not heard of it when the order's reservation ends.
  const paid = await serviceRest('POST', 'rpc/simulated_payments_update', {
    p_id: paymentIntentId,
    p_from: ['requires_action'],
    p_status: 'succeeded',
    p_data: { payment_method_details: { type: 'oxxo' } },
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  const ended = await serviceRest('PATCH', `orders?id=eq.${shopper.orderId}`, { expires_at: new Date(Date.now() - 1000).toISOString() });
  expect(ended.status).toBe(200);

  // The sweeper cancels the order, finds its voucher paid and credits the cash (the server's own
  // sweeper may get there first; the credit is made once either way).
  const { serviceRoleKey } = await stackKeys();
  await expect
    .poll(
      async () => {
        await fetch(`${baseURL}/api/internal/sweep`, { method: 'POST', headers: { authorization: `Bearer ${serviceRoleKey}` } });
        const { body } = await serviceRest('GET', `store_credit_entries?order_id=eq.${shopper.orderId}&select=reason`);
        return body;
      },
      { timeout: 70_000, intervals: [1000, 2000, 5000] },
    )
    .toEqual([{ reason: 'oxxo_payment' }]);
  expect((await orderInDb(shopper.orderId)).status).toBe('Cancelado');

  // Live, without a reload: the balance and the movement with the order number.
  await expect(summary.getByText(`Saldo a favor: ${total}`, { exact: true })).toBeVisible();
  const movement = movements.getByRole('listitem').filter({ hasText: 'Pago en OXXO abonado a tu saldo' });
  await expect(movement).toHaveCount(1);
  await expect(movement).toContainText(`Pedido ${orderNumber}`);
  await expect(movement).toContainText(`+${total}`);
  await expect(movement).toContainText(`Saldo: ${total}`);
  await expect(movement.locator('time')).toHaveText(/^\d{1,2}\/\d{1,2}\/\d{2}$/);
  await expect(movements.getByText('Aún no tienes movimientos.')).toHaveCount(0);
  await expectNoAxeViolations(page);

  // After a reload, the same.
  await page.reload();
  await expect(summary.getByText(`Saldo a favor: ${total}`, { exact: true })).toBeVisible();
  await expect(movements.getByRole('listitem')).toHaveCount(1);
  await expect(movements.getByRole('listitem')).toContainText(`Pedido ${orderNumber}`);

  // At 375 px the section wraps instead of scrolling sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(movement).toBeVisible();
  expect(await movements.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  const box = (await movement.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);
});
