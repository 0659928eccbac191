import AxeBuilder from '@axe-core/playwright';
import { expect as baseExpect, test, type APIRequestContext, type Locator, type Page, type Request, expectConsoleError } from './fixtures';
import { resultsLabel, type ExploreData } from '~/domain/explore';
import { PHONE } from './pages/phone';

// Each test's first results wait for the island, then for the index it downloads on first use,
// from a server that may be busy with another spec's rebuild: in one whole run the index alone
// took 3.2 s and the results showed 0.15 s after the 5 s default.
const expect = baseExpect.configure({ timeout: 15_000 });

/** The local stack the e2e web server started (playwright.config.ts passes the same port). */
const STACK_URL = `http://127.0.0.1:${process.env.E2E_SUPABASE_PORT || '54329'}`;

// Demo products (supabase/seed.sql).
const PIKACHU = [
  'Lata Pikachu ex',
  'Pikachu & Zekrom GX – Carta individual (Unión de Aliados)',
  'Pikachu & Zekrom GX PSA 10 (Unión de Aliados)',
  'Pikachu ex – Carta individual (Chispas Fulgurantes)',
];
const HERO = { id: 'pk-boosterbox-journey-together', name: 'Caja de sobres Journey Together (36 sobres)' };

/** Clicks the page well away from the header and its dropdown. */
async function clickOutside(page: Page): Promise<void> {
  const viewport = page.viewportSize()!;
  await page.mouse.click(20, viewport.height - 20);
}

/** The header search box and its dropdown, found by role. */
function search(page: Page) {
  const box = page.getByRole('banner').getByRole('combobox', { name: 'Buscar productos' });
  const listbox = page.getByRole('listbox', { name: 'Productos sugeridos' });
  return { box, listbox, options: listbox.getByRole('option') };
}

test.describe('header search', () => {
  test('shows matching products with image and name for a partial lower-case name', async ({ page }) => {
    await page.goto('/');
    const { box, listbox, options } = search(page);
    await expect(box).toHaveAttribute('placeholder', 'Buscar productos...');
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    await box.click();
    await box.pressSequentially('pikach');

    await expect(listbox).toBeVisible();
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    await expect(box).toHaveAttribute('aria-controls', (await listbox.getAttribute('id'))!);
    // Names starting with the query come before names that merely contain it.
    await expect(options).toHaveText([PIKACHU[1]!, PIKACHU[2]!, PIKACHU[3]!, PIKACHU[0]!]);
    for (const option of await options.all()) {
      const img = option.locator('img');
      // A generated SVG, or a single's photo as its JPEG copy (its <picture> offers AVIF and WebP first).
      await expect(img).toHaveAttribute('src', /\/storage\/v1\/object\/public\/products\/.+\.(?:svg|\d+w\.jpg)$/);
      await expect(img).toHaveJSProperty('complete', true);
      expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
    }
    await expect(page.getByRole('status').filter({ hasText: '4 productos encontrados.' })).toBeAttached();
  });

  test('ignores case and accents, and says so when nothing matches', async ({ page }) => {
    await page.goto('/');
    const { box, options, listbox } = search(page);
    await box.fill('UNION DE ALIADOS');
    await expect(options).toHaveText([PIKACHU[1]!, PIKACHU[2]!]);
    await box.fill('xyzzy');
    await expect(listbox).toBeHidden();
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    // Shown in the dropdown and announced through the status region.
    await expect(page.getByRole('paragraph').filter({ hasText: 'No encontramos productos con ese nombre.' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'No encontramos productos con ese nombre.' })).toBeAttached();
  });

  test('arrow keys move through the options and Enter opens the product and clears the search', async ({ page }) => {
    await page.goto('/');
    const { box, options } = search(page);
    await box.fill('caja de sobres journey');
    await expect(options).toHaveCount(1);
    await box.fill('journey together');
    // Every Journey Together product matches, by its name or its expansion; the dropdown shows the first 8.
    await expect(options).toHaveCount(8);
    const count = 8;

    await box.press('ArrowDown');
    await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');
    await expect(box).toHaveAttribute('aria-activedescendant', (await options.nth(0).getAttribute('id'))!);
    await box.press('ArrowDown');
    await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
    await expect(options.nth(0)).toHaveAttribute('aria-selected', 'false');
    await box.press('ArrowUp');
    await box.press('ArrowUp');
    // Up from the first option wraps to the last.
    await expect(options.nth(count - 1)).toHaveAttribute('aria-selected', 'true');
    await box.press('ArrowDown');
    await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');

    // 'Blíster de 3 sobres Journey Together' would be first alphabetically; find the hero instead.
    const names = await options.allTextContents();
    const target = names.indexOf(HERO.name);
    expect(target).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < target; i++) await box.press('ArrowDown');
    await expect(options.nth(target)).toHaveAttribute('aria-selected', 'true');
    await box.press('Enter');

    await expect(page).toHaveURL(new RegExp(`/product/${HERO.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: HERO.name })).toBeVisible();
    await expect(search(page).box).toHaveValue('');
    await page.goBack();
    await expect(search(page).box).toHaveValue('');
    await expect(search(page).listbox).toBeHidden();
  });

  test('a click on a product opens it', async ({ page }) => {
    await page.goto('/faq');
    const { box, options } = search(page);
    await box.fill('lata pikachu');
    await options.filter({ hasText: 'Lata Pikachu ex' }).click();
    await expect(page).toHaveURL(/\/product\/pk-tin-[\w-]*pikachu-ex$/);
    await expect(page.getByRole('heading', { level: 1, name: /Lata Pikachu ex/ })).toBeVisible();
  });

  test('Escape clears the search', async ({ page }) => {
    await page.goto('/');
    const { box, listbox } = search(page);
    await box.fill('sobre');
    await expect(listbox).toBeVisible();
    await box.press('Escape');
    await expect(box).toHaveValue('');
    await expect(listbox).toBeHidden();
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    await expect(box).toBeFocused();
  });

  test('a click outside clears the search', async ({ page }) => {
    await page.goto('/envios');
    const { box, listbox } = search(page);
    await box.fill('sobre');
    await expect(listbox).toBeVisible();
    await clickOutside(page);
    await expect(box).toHaveValue('');
    await expect(listbox).toBeHidden();
    await expect(box).toHaveAttribute('aria-expanded', 'false');
  });

  test('the dropdown is at most 300 px tall and scrolls to the highlighted option', async ({ page }) => {
    await page.goto('/');
    const { box, listbox, options } = search(page);
    await box.fill('sobre');
    await expect(options).toHaveCount(8);
    expect(await listbox.evaluate((el) => getComputedStyle(el).maxHeight)).toBe('300px');
    const size = await listbox.evaluate((el) => ({ client: el.clientHeight, scroll: el.scrollHeight, top: el.scrollTop }));
    expect(size.client).toBeLessThanOrEqual(300);
    expect(size.scroll).toBeGreaterThan(size.client);
    expect(size.top).toBe(0);
    // Up from nothing highlights the last option, which must scroll into view.
    await box.press('ArrowUp');
    await expect(options.last()).toHaveAttribute('aria-selected', 'true');
    await expect.poll(() => listbox.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    await expect(options.last()).toBeInViewport();
  });

  test('downloads the index once, on first use, and never calls the backend while typing', async ({ page }) => {
    const indexRequests: Request[] = [];
    const backendRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/search-index.json')) indexRequests.push(request);
      if (request.url().startsWith(STACK_URL) && !request.url().includes('/storage/')) backendRequests.push(request.url());
    });
    const liveStock = page.waitForResponse((response) => response.url().includes('/rest/v1/products?select=id,stock,available'));
    await page.goto('/');
    await liveStock;
    await page.waitForLoadState('networkidle');
    expect(indexRequests).toHaveLength(0);
    // Loading the page asks once for the live stock of the products it shows and, since it shows
    // preorder cards, once for their open campaigns; typing asks nothing.
    await expect.poll(() => backendRequests.length).toBe(2);
    expect(backendRequests.filter((url) => url.includes('/rest/v1/products?select=id,stock,available'))).toHaveLength(1);
    expect(backendRequests.filter((url) => url.endsWith('/rest/v1/rpc/preorder_open_stock'))).toHaveLength(1);
    backendRequests.length = 0;

    const { box, options } = search(page);
    await box.click();
    await box.pressSequentially('journey tog', { delay: 20 });
    await expect(options.first()).toBeVisible();
    await box.press('Escape');
    await box.pressSequentially('elite', { delay: 20 });
    await expect(options.first()).toContainText('Elite Trainer Box');
    expect(indexRequests).toHaveLength(1);
    expect(backendRequests).toEqual([]);

    const response = await indexRequests[0]!.response();
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toContain('application/json');
  });

  test('tells the shopper when the index cannot be loaded, and tries again on the next search', async ({ page }) => {
    let fail = true;
    expectConsoleError(page, /Failed to load resource|net::ERR_/); // the failure is the point of this step
    await page.route('**/search-index.json', (route) => (fail ? route.fulfill({ status: 503, body: '' }) : route.continue()));
    await page.goto('/contacto');
    const { box, options } = search(page);
    await box.fill('sobre');
    await expect(page.getByText('No pudimos cargar la búsqueda. Intenta de nuevo.')).toBeVisible();
    fail = false;
    await clickOutside(page);
    await expect(box).toHaveValue('');
    await box.fill('sobre');
    await expect(options.first()).toBeVisible();
  });

  test('the open dropdown has no serious accessibility violations', async ({ page }) => {
    // axe takes a while on a busy 2-core CI machine.
    test.setTimeout(60_000);
    await page.goto('/');
    const { box, options } = search(page);
    await box.fill('journey');
    // The index may still be downloading; arrow keys act on the options once they are shown.
    await expect(options.first()).toBeVisible();
    await box.press('ArrowDown');
    await expect(options.first()).toHaveAttribute('aria-selected', 'true');
    const results = await new AxeBuilder({ page }).include('header').analyze();
    const grave = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(grave).toEqual([]);
  });
});

/** The explore catalogue the build wrote, to count what a query should find. */
async function catalog(request: APIRequestContext): Promise<ExploreData> {
  const response = await request.get('/explore/catalog.json');
  expect(response.ok()).toBe(true);
  return (await response.json()) as ExploreData;
}

/** The 'Ver todos los resultados (n)' link of the dropdown and its n. */
async function seeAll(page: Page): Promise<{ link: Locator; total: number }> {
  const link = page.getByRole('banner').getByRole('link', { name: /^Ver todos los resultados \(\d+\)$/ });
  await expect(link).toBeVisible({ timeout: 15_000 });
  return { link, total: Number((await link.textContent())!.replace(/\D/g, '')) };
}

/** The names of the products /explore shows, once it shows `total` results. */
async function exploreNames(page: Page, total: number): Promise<string[]> {
  await expect(page.getByText(resultsLabel(total), { exact: true })).toBeVisible({ timeout: 15_000 });
  return page.getByRole('list', { name: 'Productos' }).getByRole('listitem').getByRole('heading', { level: 3 }).allTextContents();
}

test.describe('header search on a 375 px phone', () => {
  test.use({ viewport: PHONE });

  test('a misspelt name typed as the page loads finds the products, and Enter opens every match on /explore', async ({ page }) => {
    await page.goto('/', { waitUntil: 'commit' });
    const { box, options } = search(page);
    // Typed right away, before the search has hydrated.
    await box.pressSequentially('pikahcu');
    await expect(box).toHaveValue('pikahcu');
    const { total } = await seeAll(page);
    const found = await options.allTextContents();
    expect(found).toEqual(expect.arrayContaining(PIKACHU));
    expect(total).toBe(found.length);

    // The same products, in the same order, as the name spelt right.
    await box.fill('pikachu');
    await expect(options).toHaveText(found);
    await box.fill('pikahcu');
    await expect(options).toHaveText(found);

    // Nothing highlighted: Enter opens /explore with every match, which finds them the same way.
    await expect(box).not.toHaveAttribute('aria-activedescendant');
    await box.press('Enter');
    await page.waitForURL((url) => url.pathname === '/explore' && url.searchParams.get('q') === 'pikahcu');
    expect(new Set(await exploreNames(page, total))).toEqual(new Set(found));
    await expect(page.getByLabel('Buscar', { exact: true })).toHaveValue('pikahcu');
  });

  test("'etb' typed and sent before the search hydrates opens /explore with what 'Elite Trainer Box' finds", async ({ page, request }) => {
    const data = await catalog(request);
    const etbs = data.products.filter((product) => product.typeId === 'elite-trainer-box').map((product) => product.name);
    expect(etbs.length).toBeGreaterThan(1);
    await page.goto('/', { waitUntil: 'commit' });
    const { box } = search(page);
    await box.pressSequentially('etb');
    await box.press('Enter');
    await page.waitForURL((url) => url.pathname === '/explore' && url.searchParams.get('q') === 'etb');
    expect(new Set(await exploreNames(page, etbs.length))).toEqual(new Set(etbs));
  });

  test("'one piece' and 'op05' find the franchise's and the expansion's products, and 'Ver todos los resultados (n)' opens all n", async ({
    page,
    request,
  }) => {
    test.slow();
    const data = await catalog(request);
    const cases = [
      { query: 'one piece', expected: data.products.filter((product) => product.franchiseId === 'one-piece') },
      { query: 'op05', expected: data.products.filter((product) => product.expansionId === 'op-05') },
    ];
    for (const { query, expected } of cases) {
      expect(expected.length, query).toBeGreaterThan(1);
      await page.goto('/faq', { waitUntil: 'commit' });
      const { box, options } = search(page);
      // Typed right away, before the search has hydrated.
      await box.pressSequentially(query);
      const { link, total } = await seeAll(page);
      expect(total, query).toBe(expected.length);
      await expect(options, query).toHaveCount(Math.min(total, 8));
      for (const name of await options.allTextContents())
        expect(
          expected.map((product) => product.name),
          query,
        ).toContain(name);
      if (query === 'op05') {
        // The open dropdown with its link to every match has no serious accessibility violations.
        const results = await new AxeBuilder({ page }).include('header').analyze();
        expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
      }

      await link.click();
      await page.waitForURL((url) => url.pathname === '/explore' && url.searchParams.get('q') === query);
      await expect(page.getByText(resultsLabel(total), { exact: true })).toBeVisible({ timeout: 15_000 });
    }
  });

  test('an option highlighted with the arrow keys still opens that product on Enter', async ({ page }) => {
    await page.goto('/', { waitUntil: 'commit' });
    const { box, options } = search(page);
    await box.pressSequentially('lata pikachu');
    await expect(options).toHaveText([PIKACHU[0]!], { timeout: 15_000 });
    await box.press('ArrowDown');
    await expect(options.first()).toHaveAttribute('aria-selected', 'true');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/product\/pk-tin-[\w-]*pikachu-ex$/);
    await expect(page.getByRole('heading', { level: 1, name: PIKACHU[0] })).toBeVisible();
  });
});
