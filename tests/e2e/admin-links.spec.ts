/**
 * 'Panel de administración' (a link to /admin): an admin finds it in the account page, beside
 * 'Registrar producto', and in the header's user menu on any page; a shopper finds neither.
 */
import { expect as baseExpect, test, type Page } from './fixtures';
import { AccountPage } from './pages/account';
import { ADMIN, SHOPPER, atPath, signInAs } from './pages/auth';

const expect = baseExpect.configure({ timeout: 15_000 });

/** Opens the header's user menu and waits until it shows who is signed in; returns the header. */
async function openUserMenu(page: Page, email: string) {
  const header = page.getByRole('banner');
  const toggle = header.getByRole('button', { name: 'Menú de usuario' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(header.getByText(email)).toBeVisible();
  await expect(header.getByRole('button', { name: 'Cerrar sesión' })).toBeVisible();
  return header;
}

test('an admin finds Panel de administración in the account page and in the header user menu', async ({ page }) => {
  await signInAs(page, ADMIN.email, ADMIN.password);
  const account = new AccountPage(page);
  await expect(account.sidebar.getByRole('link', { name: 'Registrar producto' })).toHaveAttribute('href', '/admin/add');
  await expect(account.sidebar.getByRole('link', { name: 'Panel de administración' })).toHaveAttribute('href', '/admin');

  // Any page of the catalogue: the header's user menu.
  await page.goto('/franquicias');
  const header = await openUserMenu(page, ADMIN.email);
  const panel = header.getByRole('link', { name: 'Panel de administración' });
  await expect(panel).toHaveAttribute('href', '/admin');
  await panel.click();
  await page.waitForURL(atPath('/admin'));
  await expect(page.getByRole('heading', { level: 1, name: 'Resumen' })).toBeVisible();
});

test('a shopper sees Panel de administración neither in the account page nor in the header user menu', async ({ page }) => {
  await signInAs(page, SHOPPER.email, SHOPPER.password);
  const account = new AccountPage(page);
  await expect(account.sidebar.getByRole('button', { name: 'Cerrar sesión' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Panel de administración' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Registrar producto' })).toHaveCount(0);

  await page.goto('/franquicias');
  await openUserMenu(page, SHOPPER.email);
  await expect(page.getByRole('link', { name: 'Panel de administración' })).toHaveCount(0);

  // Escape closes the menu and leaves the focus on its toggle.
  const toggle = page.getByRole('banner').getByRole('button', { name: 'Menú de usuario' });
  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle).toBeFocused();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Cerrar sesión' })).toBeHidden();
});

test("a visitor's user menu offers Iniciar sesión and no admin link", async ({ page }) => {
  await page.goto('/franquicias');
  const header = page.getByRole('banner');
  await header.getByRole('button', { name: 'Menú de usuario' }).click();
  await expect(header.getByRole('link', { name: 'Iniciar sesión' })).toHaveAttribute('href', '/auth');
  await expect(header.getByRole('link', { name: 'Panel de administración' })).toHaveCount(0);
});
