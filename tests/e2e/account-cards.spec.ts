import { test, expect as baseExpect, type APIRequestContext, expectConsoleError } from './fixtures';
import { STACK_URL, accessToken, createConfirmedUser, serviceRest, signInAs, stackKeys } from './pages/auth.ts';
import { AccountPage } from './pages/account.ts';

// Screens wait on the local stack, which answers slowly while other suites share the 2 cores.
const expect = baseExpect.configure({ timeout: 10_000 });

test.describe.configure({ timeout: 90_000 });

/** Pays a one-line order with a simulated test card and keeps the card. */
async function payAndSaveCard(request: APIRequestContext, token: string, productId: string, cardNumber: string) {
  const { anonKey } = await stackKeys();
  const auth = { apikey: anonKey, Authorization: `Bearer ${token}` };
  const order = await request.post(`${STACK_URL}/rest/v1/rpc/create_order`, {
    headers: auth,
    data: { items: [{ product_id: productId, quantity: 1 }] },
  });
  expect(order.ok(), await order.text()).toBeTruthy();
  const orderId = (await order.json()) as string;
  // Paying needs a shipping address on the order, as the shipping step sets it.
  const user = await request.get(`${STACK_URL}/auth/v1/user`, { headers: auth });
  const { id: userId } = (await user.json()) as { id: string };
  const address = await request.post(`${STACK_URL}/rest/v1/addresses`, {
    headers: { ...auth, Prefer: 'return=representation' },
    data: {
      user_id: userId,
      street: 'Av. Juárez',
      exterior_number: '10',
      neighborhood: 'Guadalajara Centro',
      municipality: 'Guadalajara',
      city: 'Guadalajara',
      state: 'Jalisco',
      zip: '44100',
      country: 'México',
      phone: '3312345678',
    },
  });
  expect(address.ok(), await address.text()).toBeTruthy();
  const [{ id: addressId }] = (await address.json()) as Array<{ id: string }>;
  const pointed = await request.patch(`${STACK_URL}/rest/v1/orders?id=eq.${orderId}`, { headers: auth, data: { shipping_address_id: addressId } });
  expect(pointed.ok(), await pointed.text()).toBeTruthy();
  const intent = await request.post('/api/create-payment-intent', { headers: { Authorization: auth.Authorization }, data: { orderId } });
  expect(intent.ok(), await intent.text()).toBeTruthy();
  const { clientSecret } = (await intent.json()) as { clientSecret: string };
  const paid = await request.post('/api/payments/simulated/confirm', {
    headers: { Authorization: auth.Authorization },
    data: { clientSecret, card: { number: cardNumber, expMonth: 12, expYear: 2034, cvc: '123' }, save: true },
  });
  expect(paid.ok(), await paid.text()).toBeTruthy();
  expect(((await paid.json()) as { status: string }).status).toBe('succeeded');
}

test('tarjetas guardadas (proveedor simulado): lista, predeterminada única y eliminar', async ({ page, request }) => {
  const user = await createConfirmedUser('tarjetas');
  const token = await accessToken(user.email, user.password);
  const products = await serviceRest('GET', 'products?select=id&available=eq.true&stock=gte.20&product_type_id=not.like.*single-card&order=price.asc&limit=2');
  const [first, second] = products.body as { id: string }[];
  await payAndSaveCard(request, token, first!.id, '4242424242424242');
  await payAndSaveCard(request, token, second!.id, '5555555555554444');

  await signInAs(page, user.email, user.password);
  const account = new AccountPage(page);
  const cards = account.panel.getByTestId('saved-card');
  await expect(cards).toHaveCount(2, { timeout: 15_000 });
  const visa = cards.filter({ hasText: '4242' });
  const mastercard = cards.filter({ hasText: '4444' });
  await expect(visa).toContainText('Visa •••• 4242');
  await expect(visa).toContainText('Vence 12/2034');
  await expect(visa).toHaveAttribute('data-default', 'true');
  await expect(mastercard).toHaveAttribute('data-default', 'false');

  await mastercard.getByRole('button', { name: /predeterminada/ }).click();
  await expect(account.panel.getByText('Predeterminado actualizado ✅')).toBeVisible();
  await expect(mastercard).toHaveAttribute('data-default', 'true');
  await expect(visa).toHaveAttribute('data-default', 'false');
  await expect(account.panel.locator('[data-testid="saved-card"][data-default="true"]')).toHaveCount(1);
  // The status note clears itself after 1.8 s.
  await expect(account.panel.getByText('Predeterminado actualizado ✅')).toHaveCount(0, { timeout: 4000 });

  // The choice was stored by the provider, not just drawn.
  await page.reload();
  await expect(cards.filter({ hasText: '4444' })).toHaveAttribute('data-default', 'true', { timeout: 15_000 });

  await cards
    .filter({ hasText: '4242' })
    .getByRole('button', { name: /Eliminar/ })
    .click();
  await expect(account.panel.getByText('Método eliminado ✅')).toBeVisible();
  await expect(cards).toHaveCount(1);
  await cards
    .first()
    .getByRole('button', { name: /Eliminar/ })
    .click();
  await expect(account.panel.getByText('No tienes tarjetas guardadas.')).toBeVisible();
});

test('fallos de las tarjetas muestran sus mensajes (respuestas de error simuladas en la red)', async ({ page, request }) => {
  const user = await createConfirmedUser('tarjetasfallo');
  const token = await accessToken(user.email, user.password);
  const products = await serviceRest('GET', 'products?select=id&available=eq.true&stock=gte.20&product_type_id=not.like.*single-card&order=price.desc&limit=1');
  await payAndSaveCard(request, token, (products.body as { id: string }[])[0]!.id, '4242424242424242');
  await signInAs(page, user.email, user.password);
  const account = new AccountPage(page);
  const cards = account.panel.getByTestId('saved-card');
  await expect(cards).toHaveCount(1, { timeout: 15_000 });

  expectConsoleError(page, /Failed to load resource|net::ERR_/); // the failure is the point of this step
  await page.route('**/api/stripe/payment-methods/*/detach', (route) => route.fulfill({ status: 502, body: '{}' }));
  await cards
    .first()
    .getByRole('button', { name: /Eliminar/ })
    .click();
  await expect(account.panel.getByText('No se pudo eliminar el método ❌')).toBeVisible();
  await expect(cards).toHaveCount(1);
});
