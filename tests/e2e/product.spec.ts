import { gzipSync } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, expectConsoleError, openWithScripts } from './fixtures';
import { LOCAL_JWT_SECRET } from 'local-supabase/config';
import { apiKeys } from 'local-supabase/jwt';
import { Shell } from './pages/shell';

// Demo products (supabase/seed.sql): three images and 20 % off; sold out; the hero's product.
const GALLERY = { id: 'op-tournament-op-01', name: 'Tournament Pack OP-01 Romance Dawn' };
const SOLD_OUT = { id: 'pk-booster-xy-evolutions', name: 'Sobre Evoluciones' };
const HERO = { id: 'pk-boosterbox-journey-together', name: 'Caja de sobres Journey Together (36 sobres)' };

const backendUrl = process.env.E2E_SUPABASE_URL || `http://127.0.0.1:${process.env.E2E_SUPABASE_PORT || '54329'}`;

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}

test.describe('product page', () => {
  test('shows price, discount, stock, dates, payments and description, with structured data', async ({ page }) => {
    const response = await page.goto(`/product/${GALLERY.id}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: GALLERY.name })).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(GALLERY.name));
    await expect(page.getByText('Precio: $559.00')).toBeVisible();
    await expect(page.getByText('Precio original: $699.00')).toBeVisible();
    await expect(page.getByText('-20%')).toBeVisible();
    await expect(page.getByText(/^Disponibles: \d+/)).toBeVisible();
    await expect(page.getByText('30 de mayo de 2025')).toBeVisible();
    await expect(page.getByText(/puntos con esta compra/)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Formas de pago' })).toBeVisible();
    await expect(page.getByRole('main').getByText('PayPal', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Descripción' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Agregar a favoritos' })).toBeVisible();

    const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
    expect(canonical).toMatch(new RegExp(`/product/${GALLERY.id}/?$`));
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', /\.svg$/);
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
    const [product, breadcrumbs] = ld['@graph'];
    expect(product['@type']).toBe('Product');
    expect(product.offers).toMatchObject({ price: '559.00', priceCurrency: 'MXN', availability: 'https://schema.org/InStock' });
    expect(product.offers.url).toBe(canonical);
    expect(breadcrumbs['@type']).toBe('BreadcrumbList');
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('gallery: thumbnails, full screen with wrap-around keys, focus kept inside, Escape closes', async ({ page }) => {
    await page.goto(`/product/${GALLERY.id}`);
    await page.getByRole('button', { name: 'Mostrar imagen 2 de 3' }).click();
    await expect(page.getByRole('button', { name: 'Mostrar imagen 2 de 3' })).toHaveAttribute('aria-current', 'true');

    await page.getByRole('button', { name: /Ver imagen 2 de 3 en pantalla completa/ }).click();
    const dialog = page.getByRole('dialog', { name: `Galería de ${GALLERY.name}` });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('Imagen 2 de 3')).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(dialog.getByText('Imagen 3 de 3')).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(dialog.getByText('Imagen 1 de 3')).toBeVisible();
    await page.keyboard.press('ArrowLeft');
    await expect(dialog.getByText('Imagen 3 de 3')).toBeVisible();
    await dialog.getByRole('button', { name: 'Imagen siguiente' }).click();
    await expect(dialog.getByText('Imagen 1 de 3')).toBeVisible();

    for (let i = 0; i < 5; i += 1) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: /en pantalla completa/ })).toBeFocused();
  });

  test('a thumbnail tapped just after the gallery woke, while React has work still queued, is the image shown', async ({ page }) => {
    // A busy phone: React's scheduler runs each of its tasks 300 ms late (it takes setImmediate
    // where there is one), so the effects of the gallery's hydration run well after it is live.
    await page.addInitScript(() => {
      (window as unknown as { setImmediate: (run: () => void) => void }).setImmediate = (run) => setTimeout(run, 300);
    });
    await page.goto(`/product/${GALLERY.id}`);
    const third = page.getByRole('button', { name: 'Mostrar imagen 3 de 3' });
    // The finger reaches the thumbnail (the gallery wakes) and taps once React has hydrated it.
    await third.hover();
    await page.waitForFunction(() => {
      const thumb = document.querySelector('.gallery-thumb');
      return thumb !== null && Object.keys(thumb).some((key) => key.startsWith('__reactProps'));
    });
    await third.click();

    await expect(third).toHaveAttribute('aria-current', 'true');
    await expect(page.getByRole('button', { name: 'Ver imagen 3 de 3 en pantalla completa' })).toBeVisible();
    await page.waitForTimeout(1_000);
    await expect(third, 'still the tapped image once the queued work has run').toHaveAttribute('aria-current', 'true');
  });

  test('add to cart: toast with the name and Ver carrito, closes by itself after 2600 ms, header count grows', async ({ page }) => {
    const shell = new Shell(page);
    // A controlled clock: the toast's timer is measured exactly, however busy the machine is.
    await page.clock.install();
    await page.goto(`/product/${GALLERY.id}`);
    await shell.waitForCartCount();
    await expect(shell.cartLink).toHaveAccessibleName('Carrito');

    await page.getByRole('button', { name: 'Aumentar cantidad' }).click();
    await expect(page.getByRole('spinbutton', { name: 'Cantidad' })).toHaveValue('2');
    await page.clock.pauseAt(Date.now() + 1000);
    await page.getByRole('button', { name: 'Agregar al carrito' }).click();

    const toast = page.locator('.toast');
    await expect(toast.getByText('Agregado al carrito')).toBeVisible();
    await expect(toast.getByText(GALLERY.name)).toBeVisible();
    await expect(toast.getByRole('link', { name: 'Ver carrito' })).toHaveAttribute('href', '/checkout/summary');
    await expect(shell.cartLink).toHaveAccessibleName('Carrito, 2 artículos');

    await page.clock.runFor(2500);
    await expect(toast).toBeVisible();
    await page.clock.runFor(150);
    await expect(toast).toBeHidden();
  });

  test('the toast closes by hand', async ({ page }) => {
    await page.goto(`/product/${HERO.id}`);
    await page.getByRole('button', { name: 'Agregar al carrito' }).click();
    const toast = page.locator('.toast');
    await expect(toast.getByText(HERO.name)).toBeVisible();
    await toast.getByRole('button', { name: 'Cerrar notificación' }).click();
    await expect(toast).toBeHidden({ timeout: 1000 });
  });

  test('quantity stays between 1 and the stock', async ({ page }) => {
    await page.goto(`/product/${HERO.id}`);
    const minus = page.getByRole('button', { name: 'Disminuir cantidad' });
    await expect(minus).toBeDisabled();
    const input = page.getByRole('spinbutton', { name: 'Cantidad' });
    await page.getByRole('button', { name: 'Aumentar cantidad' }).click();
    await expect(input).toHaveValue('2');
    await expect(minus).toBeEnabled();
    // Clamped when the shopper commits the number (leaves the field), not on every keystroke.
    await input.fill('9999');
    await input.blur();
    const stockText = await page.getByText(/^Disponibles: \d+/).textContent();
    const stock = Number(/\d+/.exec(stockText ?? '')?.[0]);
    await expect(input).toHaveValue(String(stock));
    await expect(page.getByRole('button', { name: 'Aumentar cantidad' })).toBeDisabled();
    await input.fill('0');
    await input.press('Enter');
    await expect(input).toHaveValue('1');
  });

  test('sold out: Producto agotado and add disabled', async ({ page }) => {
    await page.goto(`/product/${SOLD_OUT.id}`);
    await expect(page.getByText('Producto agotado')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Agregar al carrito' })).toBeDisabled();
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
    expect(ld['@graph'][0].offers.availability).toBe('https://schema.org/OutOfStock');
  });

  test('unknown id: 404 and Producto no encontrado', async ({ page }) => {
    expectConsoleError(page, /status of 404/); // the 404 answer is the point
    const response = await page.goto('/product/no-existe-este-producto');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Producto no encontrado' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    const odd = await page.request.get('/product/%3Cscript%3E');
    expect(odd.status()).toBe(404);
  });

  test('a product added to the database after the build is served on demand', async ({ page, request }) => {
    const { serviceRoleKey } = await apiKeys(process.env.SUPABASE_JWT_SECRET || LOCAL_JWT_SECRET);
    const id = `pk-e2e-nuevo-${Date.now()}`;
    const headers = { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}`, 'Content-Type': 'application/json' };
    const created = await request.post(`${backendUrl}/rest/v1/products`, {
      headers,
      data: {
        id,
        name: 'Producto publicado después del build',
        price: 321.5,
        stock: 3,
        franchise_id: 'pokemon',
        product_type_id: 'booster-pack',
        expansion_id: 'destined-rivals',
      },
    });
    expect(created.status()).toBe(201);
    try {
      const response = await page.goto(`/product/${id}`);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1, name: 'Producto publicado después del build' })).toBeVisible();
      await expect(page.getByText('Precio: $321.50')).toBeVisible();
    } finally {
      await request.delete(`${backendUrl}/rest/v1/products?id=eq.${id}`, { headers });
    }
  });

  test('stays light: HTML under 40 KB and JavaScript before interaction under 60 KB, gzipped', async ({ page }) => {
    const { response, scripts: files } = await openWithScripts(page, `/product/${HERO.id}`);
    const html = await response!.body();
    expect(gzipSync(html).length).toBeLessThan(40 * 1024);
    const scripts = files.map(({ body }) => body);
    const inline = await page.locator('script:not([src])').evaluateAll((nodes) => nodes.map((n) => n.textContent ?? '').join(''));
    const total = scripts.reduce((sum, body) => sum + gzipSync(body).length, 0) + gzipSync(inline).length;
    expect(scripts.length).toBeGreaterThan(0);
    expect(total).toBeLessThan(60 * 1024);
  });
});
