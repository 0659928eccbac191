import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './fixtures';

const PAGES = [
  { path: '/faq', title: 'Preguntas frecuentes', heading: '¿Cuánto cuesta el envío?' },
  { path: '/envios', title: 'Envíos', heading: 'Costo de envío' },
  { path: '/devoluciones', title: 'Devoluciones', heading: 'Plazo y condiciones' },
  { path: '/pagos', title: 'Formas de pago', heading: 'Tarjeta de crédito o débito' },
  { path: '/privacidad', title: 'Aviso de privacidad', heading: 'Derechos ARCO y revocación del consentimiento' },
  { path: '/terminos', title: 'Términos y condiciones', heading: '3. Pedidos' },
  { path: '/contacto', title: 'Contacto', heading: 'Horario de atención' },
  { path: '/guia-de-condiciones', title: 'Guía de condiciones', heading: '¿Qué es una carta graduada?' },
] as const;

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe('help pages', () => {
  test('every page answers 200 with its title, headings, breadcrumb and its own head tags', async ({ page, baseURL }) => {
    const titles = new Set<string>();
    const descriptions = new Set<string>();
    for (const help of PAGES) {
      const response = await page.goto(help.path);
      expect(response?.status(), help.path).toBe(200);
      const main = page.getByRole('main');
      await expect(main.getByRole('heading', { level: 1, name: help.title, exact: true })).toBeVisible();
      await expect(main.getByRole('heading', { name: help.heading, exact: true })).toBeVisible();

      const crumbs = page.getByRole('navigation', { name: 'Ruta de navegación' });
      await expect(crumbs.getByRole('link', { name: 'Inicio' })).toHaveAttribute('href', '/');
      await expect(crumbs.locator('[aria-current="page"]')).toHaveText(help.title);

      const menu = page.getByRole('navigation', { name: 'Centro de ayuda' });
      await expect(menu.getByRole('link')).toHaveCount(PAGES.length);
      await expect(menu.getByRole('link', { name: help.title, exact: true })).toHaveAttribute('aria-current', 'page');

      await expect(page).toHaveTitle(`${help.title} | Cartas Mx`);
      const description = (await page.locator('meta[name="description"]').getAttribute('content')) ?? '';
      expect(description.length).toBeGreaterThan(50);
      titles.add(await page.title());
      descriptions.add(description);
      // The build writes folder-style pages, so canonical URLs may end in '/'.
      const canonical = new RegExp(`^${baseURL}${help.path}/?$`);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', canonical);
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', `${help.title} | Cartas Mx`);
      await expect(page.locator('meta[property="og:description"]')).toHaveAttribute('content', description);
      await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', canonical);

      const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent()) ?? '{}');
      expect(ld['@type']).toBe('BreadcrumbList');
      expect(ld.itemListElement.map((i: { name: string }) => i.name)).toEqual(['Inicio', help.title]);
      expect(ld.itemListElement[1].item).toBe(await page.locator('link[rel="canonical"]').getAttribute('href'));
    }
    expect(titles.size).toBe(PAGES.length);
    expect(descriptions.size).toBe(PAGES.length);
  });

  test('the shipping page states the shop’s shipping rule and coupon', async ({ page }) => {
    await page.goto('/envios');
    const main = page.getByRole('main');
    await expect(main.getByText('Envío gratis en compras desde $2,999.00.')).toBeVisible();
    const table = main.getByRole('table');
    await expect(table.getByRole('row', { name: /Menos de \$2,999\.00\s+\$99\.00/ })).toBeVisible();
    await expect(table.getByRole('row', { name: /Desde \$2,999\.00\s+Gratis/ })).toBeVisible();
    await expect(main.getByText('ENVIOGRATIS')).toBeVisible();
  });

  test('the pages carry the shop’s rules: payments, 30-minute reservation, returns, privacy law, contact', async ({ page }) => {
    await page.goto('/pagos');
    const pagos = page.getByRole('main');
    for (const method of ['Stripe', 'Google Pay', 'Apple Pay', 'PayPal']) await expect(pagos).toContainText(method);
    await expect(pagos).toContainText('30 minutos');

    await page.goto('/devoluciones');
    const devoluciones = page.getByRole('main');
    await expect(devoluciones).toContainText('30 días naturales');
    await expect(devoluciones).toContainText('sellado');
    await expect(devoluciones).toContainText('Profeco');

    await page.goto('/privacidad');
    await expect(page.getByRole('main')).toContainText('Ley Federal de Protección de Datos Personales en Posesión de los Particulares (LFPDPPP)');

    await page.goto('/contacto');
    const mail = page.getByRole('main').getByRole('link', { name: /^contacto@/ });
    await expect(mail).toHaveAttribute('href', /^mailto:contacto@[\w.-]+\.\w+$/);
    await expect(page.getByRole('main')).toContainText('Lunes a viernes');
  });

  test('the condition guide names the five conditions and the three graders, and how to check a certificate', async ({ page }) => {
    await page.goto('/guia-de-condiciones');
    const main = page.getByRole('main');
    for (const condition of ['Casi nueva (NM)', 'Poco jugada (LP)', 'Jugada (MP)', 'Muy jugada (HP)', 'Dañada (DMG)']) {
      await expect(main.getByRole('heading', { level: 3, name: condition, exact: true })).toBeVisible();
    }
    for (const grader of ['PSA', 'BGS', 'CGC']) await expect(main).toContainText(grader);
    await expect(main).toContainText('del 1 al 10');
    await expect(main.getByRole('heading', { name: 'Verifica el certificado', exact: true })).toBeVisible();
    await expect(main).toContainText('esa carta exacta');
  });

  test('footer help links open the pages, and links between help pages work', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Devoluciones', exact: true }).click();
    await expect(page).toHaveURL(/\/devoluciones$/);
    await page.getByRole('navigation', { name: 'Centro de ayuda' }).getByRole('link', { name: 'Envíos' }).click();
    await expect(page).toHaveURL(/\/envios$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Envíos' })).toBeVisible();
    await page.getByRole('navigation', { name: 'Ruta de navegación' }).getByRole('link', { name: 'Inicio' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  for (const path of ['/faq', '/envios']) {
    test(`${path} has no serious or critical accessibility violations`, async ({ page }) => {
      // axe takes a while on a busy 2-core CI machine.
      test.setTimeout(60_000);
      await page.goto(path);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }

  test('fits a phone screen without sideways scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    for (const path of ['/envios', '/contacto']) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });
});

test.describe('robots.txt and sitemap', () => {
  test('robots.txt lets crawlers in, keeps private routes out and names the sitemap', async ({ request, baseURL }) => {
    const response = await request.get('/robots.txt');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('text/plain');
    const lines = (await response.text()).split('\n');
    expect(lines).toContain('User-agent: *');
    expect(lines).toContain('Allow: /');
    for (const path of ['/account', '/checkout', '/admin', '/api']) expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).toContain(`Sitemap: ${baseURL}/sitemap-index.xml`);

    const sitemap = await request.get('/sitemap-index.xml');
    expect(sitemap.status()).toBe(200);
    const index = await sitemap.text();
    const first = /<loc>([^<]+)<\/loc>/.exec(index)?.[1];
    expect(first).toBeTruthy();
    const pages = await request.get(new URL(first!).pathname);
    expect(pages.status()).toBe(200);
    const urls = await pages.text();
    for (const help of PAGES) expect(urls).toMatch(new RegExp(`<loc>${baseURL}${help.path}/?</loc>`));
  });
});
