import AxeBuilder from '@axe-core/playwright';
import { test, expect as baseExpect, type Page } from './fixtures';
import { AuthPage, createConfirmedUser, signInAs } from './pages/auth.ts';
import { AccountPage } from './pages/account.ts';
import { holdScripts, PHONE } from './pages/phone.ts';
import { Shell } from './pages/shell.ts';

// Screens wait on the local stack, which answers slowly while other suites share the 2 cores.
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 90_000 });
test.use({ viewport: PHONE });

const PRODUCT = { path: '/product/pk-boosterbox-journey-together', name: 'Caja de sobres Journey Together (36 sobres)' };
// A listing whose cards carry hearts, and one of its cards.
const LISTING = '/franchise/pokemon/expansions/journey-together/products';
const CARD = { path: '/product/pk-etb-journey-together', name: 'Elite Trainer Box Journey Together' };
// A single card and one of its offers (supabase/seed.sql, scripts/seed/cards.ts FIXED_OFFERS).
const LUFFY = { path: '/product/op-single-op-05-monkey-d-luffy-op05-119', name: 'Monkey.D.Luffy (OP05-119)' };
const LUFFY_NM_JP = { label: 'NM · Japonés · Parallel', price: '$3,799.00' };

/** A card's heart, found by the name that says what a tap does. */
function cardHeart(page: Page, name: string, saved: boolean) {
  return page.getByRole('main').getByRole('button', { name: saved ? `Quitar ${name} de favoritos` : `Guardar ${name} en favoritos`, exact: true });
}

test('signed out on a slow phone, the heart asks to sign in and the product is in Favoritos afterwards, to add to the cart and remove', async ({ page }) => {
  const user = await createConfirmedUser('favoritos');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(PRODUCT.path, { waitUntil: 'commit' });
  // Tapped as soon as it is there: held until the page's hearts script runs, then replayed.
  await page.getByRole('button', { name: 'Agregar a favoritos', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/auth' && url.searchParams.get('next') === PRODUCT.path);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });

  await new AuthPage(page).login(user.email, user.password);
  await page.waitForURL((url) => url.pathname === PRODUCT.path);
  await expect(page.getByRole('button', { name: 'Quitar de favoritos', exact: true })).toHaveAttribute('aria-pressed', 'true');

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
    const heart = phone.getByRole('button', { name: 'Agregar a favoritos', exact: true });
    await heart.click();
    await expect(phone.getByRole('button', { name: 'Quitar de favoritos', exact: true })).toHaveAttribute('aria-pressed', 'true');
  } finally {
    await other.close();
  }

  await expect(account.panel.getByTestId('favorite')).toHaveCount(1);
  await expect(account.panel.getByTestId('favorite')).toContainText(PRODUCT.name);
});

test("signed in on a slow phone, a card's heart tapped before any script ran saves the product and the header counts it; another device shows it saved and follows a removal live", async ({
  page,
  browser,
}) => {
  const user = await createConfirmedUser('corazones');
  await signInAs(page, user.email, user.password);
  const shell = new Shell(page);
  await expect(shell.wishlist).toHaveAccessibleName('Favoritos');

  // The page's scripts arrive only after the tap, on a CPU four times slower.
  const release = await holdScripts(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(LISTING, { waitUntil: 'commit' });
  await cardHeart(page, CARD.name, false).click();
  release();
  await expect(cardHeart(page, CARD.name, true)).toHaveAttribute('aria-pressed', 'true');
  await expect(shell.wishlist).toHaveAccessibleName('Favoritos (1)');
  await expect(shell.header.getByTestId('favorites-count')).toHaveText('1');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  // Every other card of the listing is still an empty heart.
  await expect(page.getByRole('main').getByRole('button', { name: /^Quitar .* de favoritos$/ })).toHaveCount(1);

  const other = await browser.newContext({ viewport: PHONE });
  try {
    const phone = await other.newPage();
    await signInAs(phone, user.email, user.password);
    await phone.goto(LISTING);
    // Read from the account: this browser never saw the heart tapped.
    await expect(cardHeart(phone, CARD.name, true)).toHaveAttribute('aria-pressed', 'true');
    const otherShell = new Shell(phone);
    await expect(otherShell.wishlist).toHaveAccessibleName('Favoritos (1)');
    await expect(otherShell.header.getByTestId('favorites-count')).toHaveText('1');

    // Removed there: the first phone's heart and count follow live, without a reload.
    await cardHeart(phone, CARD.name, true).click();
    await expect(cardHeart(phone, CARD.name, false)).toHaveAttribute('aria-pressed', 'false');
    await expect(otherShell.header.getByTestId('favorites-count')).toBeHidden();
  } finally {
    await other.close();
  }
  await expect(cardHeart(page, CARD.name, false)).toHaveAttribute('aria-pressed', 'false');
  await expect(shell.wishlist).toHaveAccessibleName('Favoritos');
  await expect(shell.header.getByTestId('favorites-count')).toBeHidden();
});

test("an offer's heart saves that copy of a single, and Favoritos shows it with its label, price and stock", async ({ page }) => {
  const user = await createConfirmedUser('corazon-oferta');
  await signInAs(page, user.email, user.password);
  await page.goto(LUFFY.path);
  const offerName = `${LUFFY.name} (${LUFFY_NM_JP.label})`;
  await cardHeart(page, offerName, false).click();
  await expect(cardHeart(page, offerName, true)).toHaveAttribute('aria-pressed', 'true');
  // The offer, not the whole card.
  await expect(page.getByRole('button', { name: 'Agregar a favoritos', exact: true })).toHaveAttribute('aria-pressed', 'false');
  const shell = new Shell(page);
  await expect(shell.wishlist).toHaveAccessibleName('Favoritos (1)');

  // Saved: a fresh page shows the heart filled before the shopper touches anything.
  await page.reload();
  await expect(cardHeart(page, offerName, true)).toHaveAttribute('aria-pressed', 'true');

  await shell.wishlist.click();
  await page.waitForURL((url) => url.pathname === '/account');
  const account = new AccountPage(page);
  const favorite = account.panel.getByTestId('favorite');
  await expect(favorite).toHaveCount(1);
  await expect(favorite.getByRole('link', { name: LUFFY.name })).toHaveAttribute('href', LUFFY.path);
  await expect(favorite).toContainText(LUFFY_NM_JP.label);
  await expect(favorite).toContainText(LUFFY_NM_JP.price);
  await expect(favorite).toContainText(/Disponibles: \d+/);
  await expect(favorite.getByRole('button', { name: `Quitar ${offerName} de favoritos` })).toBeVisible();
});

test("signed out, a card's heart asks to sign in and the product is saved once the shopper has; axe finds nothing serious on the listing", async ({ page }) => {
  const user = await createConfirmedUser('corazon-sin-sesion');
  await page.goto(LISTING);
  const axe = await new AxeBuilder({ page }).include('main').include('header').analyze();
  const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);

  await cardHeart(page, CARD.name, false).click();
  await page.waitForURL((url) => url.pathname === '/auth' && url.searchParams.get('next') === LISTING);
  await expect(page.getByText('Inicia sesión para guardar tus favoritos.')).toBeVisible();
  await new AuthPage(page).login(user.email, user.password);
  await page.waitForURL((url) => url.pathname === LISTING);
  await expect(cardHeart(page, CARD.name, true)).toHaveAttribute('aria-pressed', 'true');
  await expect(new Shell(page).wishlist).toHaveAccessibleName('Favoritos (1)');
});
