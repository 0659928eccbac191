/**
 * The back office's 'Copiar dirección' on an order's detail: clicking it puts the order's address
 * copy on the clipboard as one block, in the order a courier reads it (who receives and the phone;
 * calle y número, interior; colonia; CP, municipio y ciudad; estado y país; referencias), the same
 * lines addressLines writes and the detail shows.
 */
import { addressLines } from '~/domain/address-copy.ts';
import { test, expect, request as playwrightRequest } from './fixtures';
import { ADMIN, serviceRest, signInAs } from './pages/auth.ts';
import { BackOffice } from './pages/back-office.ts';
import { shopperWithOrder } from './pages/checkout.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test("'Copiar dirección' copies the order's address as one block, in the courier's order", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const shopper = await shopperWithOrder();
  const [order] = (await serviceRest('GET', `orders?id=eq.${shopper.orderId}&select=shipping_address_id,user_id`)).body as Array<{
    shipping_address_id: string;
    user_id: string;
  }>;
  // Every part a label carries: interior number and references too.
  const patched = await serviceRest('PATCH', `addresses?id=eq.${order!.shipping_address_id}`, {
    street: 'Av. Insurgentes Sur',
    exterior_number: '1000',
    interior_number: '4B',
    neighborhood: 'Del Valle Centro',
    municipality: 'Benito Juárez',
    city: 'Ciudad de México',
    state: 'Ciudad de México',
    zip: '03100',
    delivery_references: 'Entre Parroquia y Matías Romero, portón negro',
    phone: '5512345678',
  });
  expect(patched.status).toBeLessThan(300);
  // Paid through the shop's endpoints, which copy the address onto the order.
  const api = await playwrightRequest.newContext({ baseURL });
  try {
    const headers = { Authorization: `Bearer ${shopper.token}` };
    const intent = await api.post('/api/create-payment-intent', { headers, data: { orderId: shopper.orderId } });
    expect(intent.ok(), await intent.text()).toBeTruthy();
    const { clientSecret } = (await intent.json()) as { clientSecret: string };
    const paid = await api.post('/api/payments/simulated/confirm', {
      headers,
      data: { clientSecret, card: { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' }, save: false },
    });
    expect(paid.ok(), await paid.text()).toBeTruthy();
  } finally {
    await api.dispose();
  }
  const [stored] = (await serviceRest('GET', `orders?id=eq.${shopper.orderId}&select=shipping_address`)).body as Array<{
    shipping_address: Record<string, string | null>;
  }>;
  const [profile] = (await serviceRest('GET', `profiles?id=eq.${order!.user_id}&select=name,lastname`)).body as Array<{ name: string; lastname: string }>;
  const expected = addressLines(stored!.shipping_address, { name: `${profile!.name} ${profile!.lastname}` });
  expect(expected).toEqual([
    'Prueba Cuenta · Tel. 55 1234 5678',
    'Av. Insurgentes Sur 1000, Int. 4B',
    'Col. Del Valle Centro',
    'C.P. 03100, Benito Juárez, Ciudad de México',
    'Ciudad de México, México',
    'Referencias: Entre Parroquia y Matías Romero, portón negro',
  ]);

  await signInAs(page, ADMIN.email, ADMIN.password);
  const detail = await new BackOffice(page).openOrder(shopper.orderId);
  const shown = detail.getByTestId('admin-order-address');
  for (const line of expected) await expect(shown).toContainText(line);
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await detail.getByRole('button', { name: 'Copiar dirección' }).click();
  await expect(detail.getByRole('status').filter({ hasText: 'Dirección copiada' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(expected.join('\n'));
});
