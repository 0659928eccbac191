/**
 * The back office's refunds: 'Cancelar y reembolsar' offers only the ways that fit how the order
 * was paid (a card order to the balance here; an OXXO order never to a card, by bank transfer with
 * its reference or to the balance), asks whether a shipped order's units came back, keeps the
 * admin's choices when the server refuses, and 'Reembolsos por revisar' in the summary shows the
 * refunds the shop stopped retrying with whose money it is. axe on the open dialog.
 */
import AxeBuilder from '@axe-core/playwright';
import { test, expect as baseExpect, expectConsoleError, request as playwrightRequest, type Locator, type Page } from './fixtures';
import { ADMIN, accessToken, serviceRest, signInAs } from './pages/auth.ts';
import { BackOffice, orderNumber, shopperWithPaidOrder } from './pages/back-office.ts';
import { mailbox, mxn, shopperWithOrder } from './pages/checkout.ts';

// Screens wait on the local stack, which answers slowly while other suites share the 2 cores.
const expect = baseExpect.configure({ timeout: 15_000 });

test.describe.configure({ timeout: 150_000 });

type OrderRow = { status: string; total: number; user_id: string; payment_method: string | null; refund_ref: string | null };

async function orderRow(orderId: string): Promise<OrderRow> {
  const { body } = await serviceRest('GET', `orders?id=eq.${orderId}&select=status,total,user_id,payment_method,refund_ref`);
  return (body as OrderRow[])[0]!;
}

async function stockOf(productId: string): Promise<number> {
  return ((await serviceRest('GET', `products?id=eq.${productId}&select=stock`)).body as Array<{ stock: number }>)[0]!.stock;
}

/** Every axe violation inside the open dialog. */
async function dialogViolations(page: Page): Promise<string[]> {
  const axe = await new AxeBuilder({ page }).include('dialog[open]').analyze();
  return axe.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Every button of the dialog and the given choices are at least 44 px tall. */
async function expectTouchTargets(dialog: Locator, choices: string[]): Promise<void> {
  const targets = [...(await dialog.getByRole('button').all()), ...choices.map((text) => dialog.getByText(text, { exact: true }))];
  for (const target of targets) {
    const box = await target.boundingBox();
    expect(box?.height ?? 0, (await target.textContent()) ?? '').toBeGreaterThanOrEqual(44);
  }
}

/** A fresh shopper whose order was paid in cash at OXXO (the simulated store counter). */
async function shopperWithOxxoPaidOrder(baseURL: string, productId?: string) {
  const shopper = await shopperWithOrder(productId);
  const api = await playwrightRequest.newContext({ baseURL });
  try {
    const headers = { Authorization: `Bearer ${shopper.token}` };
    const voucher = await api.post('/api/create-payment-intent', { headers, data: { orderId: shopper.orderId, method: 'oxxo' } });
    expect(voucher.ok(), await voucher.text()).toBeTruthy();
    const paid = await api.post('/api/payments/simulated/oxxo/pay', { headers, data: { orderId: shopper.orderId } });
    expect(paid.ok(), await paid.text()).toBeTruthy();
  } finally {
    await api.dispose();
  }
  expect(await orderRow(shopper.orderId)).toMatchObject({ status: 'Pagado', payment_method: 'oxxo' });
  return shopper;
}

/** The admin ships an order through the shop's endpoint. */
async function ship(page: Page, token: string, orderId: string): Promise<void> {
  const shipped = await page.request.post(`/api/admin/orders/${orderId}/status`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { status: 'Enviado', carrier: 'DHL', trackingNumber: `JD${orderId.slice(-8)}` },
  });
  expect(shipped.ok(), await shipped.text()).toBeTruthy();
}

function refundDialog(page: Page, orderId: string): Locator {
  return page.getByRole('dialog', { name: `¿Cancelar y reembolsar el pedido ${orderNumber(orderId)}?` });
}

test('una orden pagada con tarjeta se abona al saldo a favor desde el diálogo y queda Reembolsado', async ({ page, baseURL }) => {
  // A product no other end-to-end test buys, so its stock moves only with this order.
  const productId = 'pk-code-destined-rivals';
  const shopper = await shopperWithPaidOrder(baseURL!, productId);
  const number = orderNumber(shopper.orderId);
  const paid = await orderRow(shopper.orderId);
  const before = await stockOf(productId);
  await signInAs(page, ADMIN.email, ADMIN.password);
  const detail = await new BackOffice(page).openOrder(shopper.orderId);

  await detail.getByRole('button', { name: 'Cancelar y reembolsar' }).click();
  const dialog = refundDialog(page, shopper.orderId);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('refund-amount')).toHaveText(mxn(paid.total));
  await expect(dialog.getByTestId('refund-method')).toHaveText('Tarjeta');
  // A card: back to the card (the default) or to the balance; no bank transfer.
  await expect(dialog.getByRole('radio')).toHaveCount(2);
  await expect(dialog.getByRole('radio', { name: 'Reembolsar a la tarjeta' })).toBeChecked();
  await expect(dialog.getByRole('radio', { name: 'Abonar al saldo a favor' })).not.toBeChecked();
  await expect(dialog.getByRole('radio', { name: 'Registrar transferencia bancaria' })).toHaveCount(0);
  // A paid order never left the shop: its units go back on sale, nothing to ask.
  await expect(dialog.getByRole('checkbox')).toHaveCount(0);
  await expect(dialog).toContainText('Los productos del pedido volverán a estar a la venta.');
  await expect(dialog).not.toContainText('simulad');
  expect(await dialogViolations(page)).toEqual([]);
  await expectTouchTargets(dialog, ['Reembolsar a la tarjeta', 'Abonar al saldo a favor']);

  await dialog.getByRole('radio', { name: 'Abonar al saldo a favor' }).check();
  await dialog.getByRole('button', { name: 'Sí, cancelar y reembolsar' }).click();
  await expect(dialog).toBeHidden();
  await expect(detail.getByTestId('admin-order-status')).toHaveText('Reembolsado');
  await expect(detail.getByRole('status').filter({ hasText: 'Pedido reembolsado al saldo a favor del cliente.' })).toBeVisible();
  await expect(detail.getByRole('heading', { level: 1, name: `Pedido ${number}` })).toBeFocused();
  await expect(detail.getByTestId('admin-order-history')).toContainText('Pagado → Reembolsado');
  await expect(detail.getByTestId('admin-order-history')).toContainText('Reembolsado a saldo a favor');
  await expect(detail.getByRole('button', { name: 'Cancelar y reembolsar' })).toHaveCount(0);

  expect(await orderRow(shopper.orderId)).toMatchObject({ status: 'Reembolsado', refund_ref: `saldo-${shopper.orderId}` });
  const balance = await serviceRest('GET', `store_credit_accounts?user_id=eq.${paid.user_id}&select=balance`);
  expect(balance.body).toEqual([{ balance: Math.round(paid.total * 100) }]);
  expect(await stockOf(productId)).toBe(before + 1);
  await expect
    .poll(async () => (await mailbox(shopper.email)).find((m) => m.subject === `Tu pedido ${number} fue reembolsado`)?.text ?? '', { timeout: 20_000 })
    .toContain('a tu saldo a favor');
});

test('un pedido pagado en OXXO no ofrece reembolso a tarjeta; la transferencia pide su referencia y los errores del servidor se ven en el diálogo', async ({
  page,
  baseURL,
}) => {
  // A product no other end-to-end test buys, so its stock moves only with this order.
  const productId = 'pk-buildbattle-twilight-masquerade';
  const [shopper, other] = await Promise.all([shopperWithOxxoPaidOrder(baseURL!, productId), shopperWithOxxoPaidOrder(baseURL!)]);
  const token = await accessToken(ADMIN.email, ADMIN.password);
  await ship(page, token, shopper.orderId);
  await ship(page, token, other.orderId);
  const shippedStock = await stockOf(productId);
  await signInAs(page, ADMIN.email, ADMIN.password);
  const office = new BackOffice(page);
  const detail = await office.openOrder(shopper.orderId);
  await expect(detail.getByTestId('admin-order-status')).toHaveText('Enviado');

  await detail.getByRole('button', { name: 'Cancelar y reembolsar' }).click();
  const dialog = refundDialog(page, shopper.orderId);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('refund-method')).toHaveText('Efectivo en OXXO');
  await expect(dialog.getByTestId('refund-amount')).toHaveText(mxn((await orderRow(shopper.orderId)).total));
  // Cash at OXXO: to the balance (the default) or a bank transfer, never a card.
  await expect(dialog.getByRole('radio')).toHaveCount(2);
  await expect(dialog.getByRole('radio', { name: 'Abonar al saldo a favor' })).toBeChecked();
  await expect(dialog.getByRole('radio', { name: 'Registrar transferencia bancaria' })).not.toBeChecked();
  await expect(dialog.getByRole('radio', { name: /tarjeta|PayPal/i })).toHaveCount(0);
  await expect(dialog).not.toContainText('Tarjeta');
  // A shipped order: the admin says whether its units came back.
  const restock = dialog.getByRole('checkbox', { name: 'Los productos regresaron al inventario' });
  await expect(restock).not.toBeChecked();

  await dialog.getByRole('radio', { name: 'Registrar transferencia bancaria' }).check();
  const reference = dialog.getByRole('textbox', { name: 'Referencia de la transferencia' });
  await expect(reference).toBeVisible();
  expect(await dialogViolations(page)).toEqual([]);
  await expectTouchTargets(dialog, ['Abonar al saldo a favor', 'Registrar transferencia bancaria', 'Los productos regresaron al inventario']);

  // No reference, or too short: the dialog says what is missing and sends nothing.
  await dialog.getByRole('button', { name: 'Sí, cancelar y reembolsar' }).click();
  await expect(dialog.getByText('Escribe la referencia de la transferencia (de 4 a 100 caracteres).')).toBeVisible();
  await expect(reference).toHaveAttribute('aria-invalid', 'true');
  await expect(reference).toBeFocused();
  await reference.fill('abc');
  await dialog.getByRole('button', { name: 'Sí, cancelar y reembolsar' }).click();
  await expect(dialog.getByText('Escribe la referencia de la transferencia (de 4 a 100 caracteres).')).toBeVisible();
  expect((await orderRow(shopper.orderId)).status).toBe('Enviado');

  await reference.fill('SPEI 0042');
  await restock.check();
  await dialog.getByRole('button', { name: 'Sí, cancelar y reembolsar' }).click();
  await expect(dialog).toBeHidden();
  await expect(detail.getByTestId('admin-order-status')).toHaveText('Reembolsado');
  await expect(detail.getByRole('status').filter({ hasText: 'Transferencia registrada y pedido reembolsado.' })).toBeVisible();
  await expect(detail.getByTestId('admin-order-history')).toContainText('Enviado → Reembolsado');
  await expect(detail.getByTestId('admin-order-history')).toContainText('Reembolsado por transferencia bancaria (SPEI 0042)');
  expect(await orderRow(shopper.orderId)).toMatchObject({ status: 'Reembolsado', refund_ref: 'transferencia:SPEI 0042' });
  // The admin marked the units returned: they are on sale again.
  expect(await stockOf(productId)).toBe(shippedStock + 1);

  // Another admin refunds the second order while this dialog is open: the server's refusal appears
  // in the dialog, in Spanish, and the admin's choices stay as they were.
  expectConsoleError(page, /status of 409/);
  const otherDetail = await office.openOrder(other.orderId);
  await otherDetail.getByRole('button', { name: 'Cancelar y reembolsar' }).click();
  const otherDialog = refundDialog(page, other.orderId);
  await otherDialog.getByRole('radio', { name: 'Registrar transferencia bancaria' }).check();
  await otherDialog.getByRole('textbox', { name: 'Referencia de la transferencia' }).fill('SPEI 0099');
  await otherDialog.getByRole('checkbox', { name: 'Los productos regresaron al inventario' }).check();
  const elsewhere = await page.request.post(`/api/admin/orders/${other.orderId}/refund`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { way: 'store_credit' },
  });
  expect(elsewhere.ok(), await elsewhere.text()).toBeTruthy();
  await otherDialog.getByRole('button', { name: 'Sí, cancelar y reembolsar' }).click();
  await expect(otherDialog.getByRole('alert')).toHaveText('Este pedido ya se reembolsó.');
  await expect(otherDialog.getByRole('radio', { name: 'Registrar transferencia bancaria' })).toBeChecked();
  await expect(otherDialog.getByRole('textbox', { name: 'Referencia de la transferencia' })).toHaveValue('SPEI 0099');
  await expect(otherDialog.getByRole('checkbox', { name: 'Los productos regresaron al inventario' })).toBeChecked();
  await otherDialog.getByRole('button', { name: 'No, volver' }).click();
  await expect(otherDialog).toBeHidden();
  // Closing shows the order as it is now.
  await expect(otherDetail.getByTestId('admin-order-status')).toHaveText('Reembolsado');
  expect((await orderRow(other.orderId)).refund_ref).toBe(`saldo-${other.orderId}`);
});

test('Reembolsos por revisar: un reembolso detenido muestra Requiere atención manual con el correo de la compradora', async ({ page, baseURL }) => {
  const shopper = await shopperWithPaidOrder(baseURL!);
  const number = orderNumber(shopper.orderId);
  const { total } = await orderRow(shopper.orderId);
  const later = new Date(Date.now() + 60 * 60 * 1000).toISOString();
  // Set up as the shop's refund retries leave them: one stopped after 8 attempts, one still retried later.
  const rows = [
    { payment_ref: `manual-${shopper.orderId}`, status: 'manual', attempts: 8, last_error: 'card_declined' },
    { payment_ref: `retry-${shopper.orderId}`, status: 'failed', attempts: 2, last_error: 'timeout' },
  ];
  const ids: string[] = [];
  for (const row of rows) {
    const created = await serviceRest('POST', 'payment_refunds', {
      order_id: shopper.orderId,
      provider: 'simulated-card',
      amount: total,
      reason: 'shop',
      next_attempt_at: later,
      ...row,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    ids.push((created.body as Array<{ id: string }>)[0]!.id);
  }
  try {
    await signInAs(page, ADMIN.email, ADMIN.password);
    const office = new BackOffice(page);
    await office.goto('/admin');
    const table = office.main.getByRole('region', { name: 'Reembolsos por revisar' });
    const mine = table.getByRole('row').filter({ hasText: shopper.email });
    await expect(mine).toHaveCount(2);
    const manual = mine.filter({ hasText: 'Requiere atención manual' });
    await expect(manual).toContainText('Prueba Cuenta');
    await expect(manual).toContainText(mxn(total));
    await expect(manual).toContainText('Tarjeta');
    await expect(manual.getByRole('cell').filter({ hasText: /^8$/ })).toHaveCount(1);
    const retrying = mine.filter({ hasText: 'Reintentando' });
    await expect(retrying).toContainText('Próximo intento');
    await expect(retrying.getByRole('cell').filter({ hasText: /^2$/ })).toHaveCount(1);
    await expect(office.main).not.toContainText('simulated');
    // Those that need an admin come first.
    const states = await table.getByRole('row').allTextContents();
    const lastManual = states.findLastIndex((text) => text.includes('Requiere atención manual'));
    const firstRetrying = states.findIndex((text) => text.includes('Reintentando'));
    expect(lastManual).toBeLessThan(firstRetrying);

    await manual.getByRole('link', { name: `Pedido ${number}` }).click();
    await expect(office.main.getByRole('heading', { level: 1, name: `Pedido ${number}` })).toBeVisible();
  } finally {
    // Settled, so the other screens of this run do not list them.
    for (const id of ids) await serviceRest('PATCH', `payment_refunds?id=eq.${id}`, { status: 'succeeded' });
  }
});
