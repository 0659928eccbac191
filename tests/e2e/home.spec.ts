import AxeBuilder from '@axe-core/playwright';
import { expect, test, expectConsoleError } from './fixtures';
import { CART_STORAGE_KEY } from '~/stores/cart';
import { FOOTER_CATALOG_LINKS, FOOTER_HELP_LINKS, Shell } from './pages/shell';

test.describe('home page shell', () => {
  test('shows the header, the footer and all their links without console errors', async ({ page }) => {
    const shell = new Shell(page);
    const errors = shell.collectErrors();
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);

    await expect(page).toHaveTitle(/Cartas Mx/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es-MX');
    await expect(shell.header).toBeVisible();
    await expect(shell.footer).toBeVisible();
    await expect(page.getByRole('main')).toHaveAttribute('id', 'contenido');

    await expect(shell.header.getByRole('link', { name: /ir al inicio/ })).toHaveAttribute('href', '/');
    await expect(shell.search).toBeVisible();
    await expect(shell.search).toHaveAccessibleName('Buscar productos');
    await expect(page.getByPlaceholder('Buscar productos...')).toHaveCount(1);
    await expect(shell.cartLink).toHaveAttribute('href', '/checkout/summary');
    await expect(shell.accountLink).toHaveAttribute('href', '/account');
    await expect(shell.wishlist).toBeVisible();

    const nav = page.getByRole('navigation', { name: 'Principal' });
    await shell.expectLink(nav, 'Pokémon', '/franchise/pokemon/product-types');
    await shell.expectLink(nav, 'One Piece', '/franchise/one-piece/product-types');
    await shell.expectLink(nav, 'Riftbound', '/franchise/riftbound/product-types');
    await shell.expectLink(nav, 'Explorar', '/explore');

    for (const [name, href] of [...FOOTER_CATALOG_LINKS, ...FOOTER_HELP_LINKS]) {
      await shell.expectLink(shell.footer, name, href);
    }
    await expect(shell.footer.getByRole('textbox', { name: 'Correo electrónico' })).toHaveAttribute('type', 'email');
    await expect(shell.footer.getByRole('list', { name: 'Formas de pago aceptadas' })).toContainText('PayPal');

    // Let every script load and run before judging the console.
    await shell.waitForCartCount();
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
  });

  test('has the head tags every page needs', async ({ page, request, baseURL }) => {
    await page.goto('/');
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /Pokémon/);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${baseURL}/`);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /Cartas Mx/);
    await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute('content', 'es_MX');
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    // The shop's mark as a PNG under /_astro/, named by its content (src/layouts/BaseLayout.astro).
    expect(icon).toMatch(/^\/_astro\/favicon\.[\w-]+\.png$/);
    const favicon = await request.get(icon!);
    expect(favicon.status()).toBe(200);
    expect(favicon.headers()['content-type']).toBe('image/png');
    expect([...(await favicon.body()).subarray(1, 4)].map((byte) => String.fromCharCode(byte)).join('')).toBe('PNG');
  });

  test('links the home page to the three franchises', async ({ page }) => {
    await page.goto('/');
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1 })).toBeVisible();
    for (const [franchise, id] of [
      ['Pokémon', 'pokemon'],
      ['One Piece', 'one-piece'],
      ['Riftbound', 'riftbound'],
    ]) {
      await expect(main.getByRole('link', { name: new RegExp(`^${franchise}`) })).toHaveAttribute('href', `/franchise/${id}/product-types`);
    }
  });

  test('has no serious or critical accessibility violations', async ({ page }) => {
    await page.goto('/');
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const grave = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(grave).toEqual([]);
  });

  test('the skip link is the first stop and moves focus to the main content', async ({ page }) => {
    const shell = new Shell(page);
    await page.goto('/');
    await page.keyboard.press('Tab');
    await expect(shell.skipLink).toBeFocused();
    await expect(shell.skipLink).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/#contenido$/);
    await expect(page.getByRole('main')).toBeFocused();
    // The next Tab continues inside the main content, not back in the header.
    await page.keyboard.press('Tab');
    const inMain = await page.evaluate(() => document.getElementById('contenido')?.contains(document.activeElement));
    expect(inMain).toBe(true);
  });

  for (const width of [375, 1280]) {
    test(`fits a ${width} px wide screen without sideways scrolling`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expect(new Shell(page).search).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`home-${width}.png`), fullPage: true });
    });
  }

  test('unknown routes get the Spanish 404 page with status 404', async ({ page }) => {
    expectConsoleError(page, /status of 404/); // the 404 answer is the point
    const response = await page.goto('/esta-pagina-no-existe');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Página no encontrada' })).toBeVisible();
    await expect(new Shell(page).header).toBeVisible();
  });
});

test.describe('header cart count', () => {
  const item = (id: string, quantity: number) => ({ id, name: `Producto ${id}`, price: 129.5, quantity, stock: 10, image: '' });

  test('shows the number of units stored in the cart', async ({ page }) => {
    await page.addInitScript(([key, value]) => window.localStorage.setItem(key!, value!), [CART_STORAGE_KEY, JSON.stringify([item('a', 2), item('b', 1)])]);
    const shell = new Shell(page);
    await page.goto('/');
    await expect(shell.header.getByTestId('cart-count')).toHaveText(/^3/);
    await expect(shell.cartLink).toHaveAccessibleName('Carrito, 3 artículos');
  });

  test('shows no badge for an empty cart', async ({ page }) => {
    const shell = new Shell(page);
    await page.goto('/');
    await shell.waitForCartCount();
    await expect(shell.cartLink).toHaveAccessibleName('Carrito');
    await expect(shell.header.getByTestId('cart-count')).toBeHidden();
  });

  test('follows changes made to the cart in another tab', async ({ context }) => {
    const page = await context.newPage();
    const shell = new Shell(page);
    await page.goto('/');
    await shell.waitForCartCount();
    await expect(shell.cartLink).toHaveAccessibleName('Carrito');

    const otherTab = await context.newPage();
    await otherTab.goto('/');
    await otherTab.evaluate(([key, value]) => window.localStorage.setItem(key!, value!), [CART_STORAGE_KEY, JSON.stringify([item('c', 4)])]);
    await expect(shell.cartLink).toHaveAccessibleName('Carrito, 4 artículos');
    await expect(shell.header.getByTestId('cart-count')).toHaveText('4');
  });
});
