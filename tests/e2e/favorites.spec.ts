import { test, expect as baseExpect } from './fixtures';
import { AuthPage, createConfirmedUser, signInAs } from './pages/auth.ts';
import { AccountPage } from './pages/account.ts';
import { PHONE } from './pages/phone.ts';
import { Shell } from './pages/shell.ts';

// Screens wait on the local stack, which answers slowly while other suites share the 2 cores.
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 90_000 });
test.use({ viewport: PHONE });

const PRODUCT = { path: '/product/pk-boosterbox-journey-together', name: 'Caja de sobres Journey Together (36 sobres)' };

test('signed out on a slow phone, the heart asks to sign in and the product is in Favoritos afterwards, to add to the cart and remove', async ({ page }) => {
  const user = await createConfirmedUser('favoritos');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(PRODUCT.path, { waitUntil: 'commit' });
  // Tapped as soon as it is there: the island hydrates on this tap and replays it.
  await page.getByRole('button', { name: 'Agregar a favoritos' }).click();
  await page.waitForURL((url) => url.pathname === '/auth' && url.searchParams.get('next') === PRODUCT.path);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });

  await new AuthPage(page).login(user.email, user.password);
  await page.waitForURL((url) => url.pathname === PRODUCT.path);

  // The header's heart opens the Favoritos tab.
  await new Shell(page).wishlist.click();
  await page.waitForURL((url) => url.pathname === '/account');
  const account = new AccountPage(page);
  await expect(account.tabs.getByRole('tab', { name: 'Favoritos' })).toHaveAttribute('aria-selected', 'true');
  const favorite = account.panel.getByTestId('favorite');
  await expect(favorite).toHaveCount(1);
  await expect(favorite.getByRole('link', { name: PRODUCT.name })).toHaveAttribute('href', PRODUCT.path);
  await expect(favorite).toContainText(/\$[\d,]+\.\d{2}/);

  await favorite.getByRole('button', { name: 'Agregar al carrito' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Agregado al carrito' })).toBeVisible();

  await favorite.getByRole('button', { name: `Quitar ${PRODUCT.name} de favoritos` }).click();
  await expect(account.panel).toContainText('Aún no tienes favoritos. Toca el corazón en un producto para guardarlo aquí.');
  await page.reload();
  await expect(account.panel).toContainText('Aún no tienes favoritos. Toca el corazón en un producto para guardarlo aquí.');
  // What was added from Favoritos is in the cart.
  await page.goto('/checkout/summary');
  await expect(page.getByRole('main').getByText(PRODUCT.name)).toBeVisible();
});

test('a heart on one device shows in Favoritos on another, live', async ({ page, browser }) => {
  const user = await createConfirmedUser('favoritos-dos');
  await signInAs(page, user.email, user.password);
  const account = new AccountPage(page);
  await account.openTab('Favoritos');
  await expect(account.panel).toContainText('Aún no tienes favoritos.');

  const other = await browser.newContext({ viewport: PHONE });
  try {
    const phone = await other.newPage();
    await signInAs(phone, user.email, user.password);
    await phone.goto(PRODUCT.path);
    const heart = phone.getByRole('button', { name: 'Agregar a favoritos' });
    await heart.click();
    await expect(phone.getByRole('button', { name: 'En favoritos' })).toHaveAttribute('aria-pressed', 'true');
  } finally {
    await other.close();
  }

  await expect(account.panel.getByTestId('favorite')).toHaveCount(1);
  await expect(account.panel.getByTestId('favorite')).toContainText(PRODUCT.name);
});
