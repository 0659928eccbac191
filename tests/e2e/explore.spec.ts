/**
 * /explore as a shopper sees it: the results as the listings' cards in their grid, 24 at a time
 * with 'Ver más', and on a phone the filters in a sheet opened by 'Filtros'. The page's HTML has
 * the results of its address (the server searches), so an address shared, opened on a slow phone
 * or without JavaScript shows them; old addresses keep working.
 */
import AxeBuilder from '@axe-core/playwright';
import { LOCAL_JWT_SECRET } from 'local-supabase/config';
import { apiKeys } from 'local-supabase/jwt';
import { expect, test, type APIRequestContext, type Page } from './fixtures';
import { applyFilters, EMPTY_FILTERS, EXPLORE_PAGE, resultsLabel, type ExploreData } from '~/domain/explore';
import { PHONE, expectFitsPhone, holdScripts } from './pages/phone';

async function catalog(request: APIRequestContext): Promise<ExploreData> {
  const response = await request.get('/explore/catalog.json');
  expect(response.ok()).toBe(true);
  return (await response.json()) as ExploreData;
}

/** The count of results, a polite live region that announces each change of the filters. */
function liveCount(page: Page, count: number) {
  return page.getByRole('status').filter({ hasText: new RegExp(`^${resultsLabel(count)}$`) });
}

const backendUrl = process.env.E2E_SUPABASE_URL || `http://127.0.0.1:${process.env.E2E_SUPABASE_PORT || '54329'}`;

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}

test.describe('on a 375 px phone', () => {
  test.use({ viewport: PHONE });

  test("cards two per row, 'Ver más' adds 24, and the 'Filtros' sheet filters into the address", async ({ page, request }, testInfo) => {
    test.slow();
    const data = await catalog(request);
    expect(data.products.length).toBeGreaterThan(2 * EXPLORE_PAGE);
    await page.goto('/explore');
    await expect(liveCount(page, data.products.length)).toBeVisible({ timeout: 15_000 });

    // The same cards as the listings, two per row.
    const grid = page.getByRole('list', { name: 'Productos' });
    const cards = grid.getByRole('listitem');
    await expect(cards).toHaveCount(EXPLORE_PAGE);
    await expect(cards.first().getByRole('heading', { level: 3 })).toBeVisible();
    const [first, second] = [await cards.nth(0).boundingBox(), await cards.nth(1).boundingBox()];
    expect(first && second).toBeTruthy();
    expect(Math.abs(first!.y - second!.y)).toBeLessThan(2);
    expect(second!.x).toBeGreaterThan(first!.x + first!.width - 1);
    // 24 cards in 12 rows, not a list of 24 rows (the old list alone was over 20,000 px tall); the
    // index of every franchise, expansion and type follows the results.
    const more = page.getByRole('link', { name: 'Ver más' });
    expect(await more.evaluate((button) => button.getBoundingClientRect().bottom + window.scrollY)).toBeLessThan(6000);
    await expectFitsPhone(page, testInfo, '/explore');

    // 'Ver más' shows 24 more and moves focus to the first new card.
    await more.click();
    await expect(cards).toHaveCount(2 * EXPLORE_PAGE);
    await expect(cards.nth(EXPLORE_PAGE).getByRole('link').first()).toBeFocused();

    // The filters are in a sheet.
    await expect(page.getByRole('combobox', { name: 'Franquicia' })).toBeHidden();
    const toggle = page.getByRole('button', { name: 'Filtros', exact: true });
    await toggle.click();
    const sheet = page.getByRole('dialog', { name: 'Filtros' });
    await expect(sheet).toBeVisible();
    await sheet.getByRole('combobox', { name: 'Franquicia' }).selectOption('one-piece');
    await expect(page).toHaveURL(/\?franquicia=one-piece$/);
    await sheet.getByRole('button', { name: 'Ver resultados' }).click();
    await expect(sheet).toBeHidden();
    const onePiece = data.products.filter((p) => p.franchiseId === 'one-piece');
    await expect(page.getByText(resultsLabel(onePiece.length), { exact: true })).toBeVisible();
    await expect(cards).toHaveCount(Math.min(EXPLORE_PAGE, onePiece.length));
    const names = new Set(onePiece.map((p) => p.name));
    for (const name of await grid.getByRole('heading', { level: 3 }).allTextContents()) expect(names, name).toContain(name);
    const filtered = page.getByRole('button', { name: 'Filtros (1)' });
    await expect(filtered).toBeFocused();

    // Escape closes the sheet and focus goes back to its button.
    await filtered.click();
    await expect(sheet).toBeVisible();
    await expect(sheet.getByRole('combobox', { name: 'Franquicia' })).toHaveValue('one-piece');
    await page.keyboard.press('Escape');
    await expect(sheet).toBeHidden();
    await expect(filtered).toBeFocused();

    // A reload keeps the filter from the address.
    await page.reload();
    await expect(page.getByText(resultsLabel(onePiece.length), { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('button', { name: 'Filtros (1)' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('three filters chosen on a phone make an address that opens the same results in a new page', async ({ page, context, request }) => {
    const data = await catalog(request);
    await page.goto('/explore');
    await expect(liveCount(page, data.products.length)).toBeVisible({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Filtros', exact: true }).click();
    const sheet = page.getByRole('dialog', { name: 'Filtros' });
    await sheet.getByRole('combobox', { name: 'Franquicia' }).selectOption('pokemon');
    await sheet.getByRole('checkbox', { name: 'Solo disponibles' }).check();
    await sheet.getByRole('combobox', { name: 'Ordenar por' }).selectOption('precio-asc');
    await expect(page).toHaveURL(/\?franquicia=pokemon&disponible=1&orden=precio-asc$/);
    await sheet.getByRole('button', { name: 'Ver resultados' }).click();

    const expected = applyFilters(data.products, { ...EMPTY_FILTERS, franchise: 'pokemon', inStock: true, sort: 'precio-asc' });
    expect(expected.length).toBeGreaterThan(0);
    const firstNames = expected.slice(0, EXPLORE_PAGE).map((product) => product.name);
    const names = (p: Page) => p.getByRole('list', { name: 'Productos' }).getByRole('heading', { level: 3 });
    await expect(liveCount(page, expected.length)).toBeVisible();
    await expect(names(page)).toHaveText(firstNames);

    // The address shared: a new page shows the same count, the same cards in the same order, and the three filters.
    const shared = await context.newPage();
    await shared.goto(page.url());
    await expect(liveCount(shared, expected.length)).toBeVisible({ timeout: 15_000 });
    await expect(names(shared)).toHaveText(firstNames);
    await expect(shared.getByRole('button', { name: 'Filtros (2)' })).toBeVisible();
    await shared.close();
  });

  test("filter changes rewrite the address without asking for the tab's icon again", async ({ page, request }) => {
    const data = await catalog(request);
    await page.goto('/explore');
    await expect(liveCount(page, data.products.length)).toBeVisible({ timeout: 15_000 });
    // Chrome asks for the icon again at every change of address (history.replaceState): one it
    // may keep costs no request and no work on the page's main thread.
    const icon = new URL((await page.locator('link[rel="icon"]').getAttribute('href'))!, page.url()).href;
    const answer = await request.get(icon);
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toBe('image/png');
    expect(answer.headers()['cache-control']).toMatch(/max-age=31536000.*immutable/);
    // Chromium's own record of the page's network: whether an answer came from its cache.
    const network = await page.context().newCDPSession(page);
    await network.send('Network.enable');
    const cached = new Set<string>();
    network.on('Network.requestServedFromCache', ({ requestId }) => cached.add(requestId));
    const asked: string[] = [];
    network.on('Network.responseReceived', ({ requestId, response }) => {
      if (response.url === icon && !response.fromDiskCache && !cached.has(requestId)) asked.push(`${response.status} ${response.url}`);
    });
    await page.getByRole('button', { name: 'Filtros', exact: true }).click();
    const sheet = page.getByRole('dialog', { name: 'Filtros' });
    await sheet.getByRole('combobox', { name: 'Franquicia' }).selectOption('pokemon');
    await expect(page).toHaveURL(/\?franquicia=pokemon$/);
    await sheet.getByRole('checkbox', { name: 'Solo disponibles' }).check();
    await expect(page).toHaveURL(/\?franquicia=pokemon&disponible=1$/);
    await sheet.getByRole('combobox', { name: 'Ordenar por' }).selectOption('precio-asc');
    await expect(page).toHaveURL(/\?franquicia=pokemon&disponible=1&orden=precio-asc$/);
    const expected = applyFilters(data.products, { ...EMPTY_FILTERS, franchise: 'pokemon', inStock: true, sort: 'precio-asc' });
    await expect(liveCount(page, expected.length)).toBeVisible();
    // An icon asked for again would have come before each change's results.
    expect(asked).toEqual([]);
  });

  test('a change asks for its results before it rewrites the address, and a slow answer dims the cards once it has taken a moment', async ({
    page,
    request,
  }) => {
    const data = await catalog(request);
    // What the page does, in order: each request for results and each rewrite of the address.
    await page.addInitScript(() => {
      const steps: string[] = [];
      (window as unknown as { __steps: string[] }).__steps = steps;
      const fetchBefore = window.fetch.bind(window);
      window.fetch = (input, init) => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        if (url.includes('/explore/resultados')) steps.push(`fetch ${new URL(url, location.href).search}`);
        return fetchBefore(input, init);
      };
      const replaceBefore = history.replaceState.bind(history);
      history.replaceState = (state, unused, url) => {
        steps.push(`address ${new URL(String(url), location.href).search}`);
        replaceBefore(state, unused, url);
      };
    });
    // The answer to one address comes late, as on a slow network.
    await page.route('**/explore/resultados?franquicia=one-piece', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.goto('/explore');
    await expect(liveCount(page, data.products.length)).toBeVisible({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Filtros', exact: true }).click();
    const franchise = page.getByRole('dialog', { name: 'Filtros' }).getByRole('combobox', { name: 'Franquicia' });
    await franchise.selectOption('pokemon');
    await expect(liveCount(page, applyFilters(data.products, { ...EMPTY_FILTERS, franchise: 'pokemon' }).length)).toBeVisible();
    const steps = await page.evaluate(() => (window as unknown as { __steps: string[] }).__steps);
    expect(steps.slice(0, 2)).toEqual(['fetch ?franquicia=pokemon', 'address ?franquicia=pokemon']);

    // The slow answer: the results are busy at once, and dimmed once it has taken a moment.
    const results = page.locator('.explore-results');
    await franchise.selectOption('one-piece');
    await expect(results).toHaveAttribute('aria-busy', 'true');
    await expect.poll(() => results.evaluate((element) => getComputedStyle(element).opacity)).toBe('0.6');
    await expect(liveCount(page, applyFilters(data.products, { ...EMPTY_FILTERS, franchise: 'one-piece' }).length)).toBeVisible();
    await expect(results).not.toHaveAttribute('aria-busy', 'true');
    expect(await results.evaluate((element) => getComputedStyle(element).opacity)).toBe('1');
  });

  test("a first change that only sorts replaces the cards and leaves the filters' options as the page had them", async ({ page, request }) => {
    const data = await catalog(request);
    await page.goto('/explore');
    await expect(liveCount(page, data.products.length)).toBeVisible({ timeout: 15_000 });
    // Setup: the page's script has started (it marks the form), so the change below is its first.
    await expect(page.locator('form.explore-js')).toHaveCount(1);
    await page.getByRole('button', { name: 'Filtros', exact: true }).click();
    const sheet = page.getByRole('dialog', { name: 'Filtros' });
    const franchise = sheet.getByRole('combobox', { name: 'Franquicia' });
    // An option node of the page's HTML, marked: a select whose options are written again loses it.
    await franchise.evaluate((select: HTMLSelectElement) => Object.assign(select.options[1]!, { keptFromPage: true }));
    await sheet.getByRole('combobox', { name: 'Ordenar por' }).selectOption('precio-asc');
    await expect(page).toHaveURL(/\?orden=precio-asc$/);

    const expected = applyFilters(data.products, { ...EMPTY_FILTERS, sort: 'precio-asc' });
    await expect(page.getByRole('list', { name: 'Productos' }).getByRole('heading', { level: 3 })).toHaveText(
      expected.slice(0, EXPLORE_PAGE).map((product) => product.name),
    );
    await expect(liveCount(page, expected.length)).toBeVisible();
    expect(
      await franchise.evaluate((select: HTMLSelectElement) => (select.options[1] as HTMLOptionElement & { keptFromPage?: boolean }).keptFromPage === true),
    ).toBe(true);
  });

  test('an address with filters has its results in the HTML: before any script, and old links keep working', async ({ browser, request }) => {
    const data = await catalog(request);
    // No JavaScript at all: what a slow phone shows before the page's script, and what a crawler reads.
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    const names = page.getByRole('list', { name: 'Productos' }).getByRole('heading', { level: 3 });

    await page.goto('/explore');
    await expect(names).toHaveText(
      applyFilters(data.products, EMPTY_FILTERS)
        .slice(0, EXPLORE_PAGE)
        .map((product) => product.name),
    );
    await expect(liveCount(page, data.products.length)).toBeVisible();

    // An address made before the filters counted their values ('disponible=true', the old flag) still reads.
    const old = { ...EMPTY_FILTERS, franchise: 'one-piece', inStock: true, sort: 'precio-asc' as const };
    const expected = applyFilters(data.products, old);
    expect(expected.length).toBeGreaterThan(0);
    await page.goto('/explore?franquicia=one-piece&disponible=true&orden=precio-asc');
    await expect(liveCount(page, expected.length)).toBeVisible();
    await expect(names).toHaveText(expected.slice(0, EXPLORE_PAGE).map((product) => product.name));

    // The filters are a form: choosing one and sending it ('Ver resultados') filters without JavaScript.
    await page.getByRole('button', { name: 'Filtros (2)' }).click();
    await expect(page.getByRole('combobox', { name: 'Franquicia' })).toHaveValue('one-piece');
    await page.getByRole('combobox', { name: 'Franquicia' }).selectOption('pokemon');
    await page.getByRole('button', { name: 'Ver resultados' }).click();
    await page.waitForURL((url) => url.searchParams.get('franquicia') === 'pokemon');
    await expect(liveCount(page, applyFilters(data.products, { ...old, franchise: 'pokemon' }).length)).toBeVisible();
    await context.close();
  });

  test('words typed on a slow phone as the page loads find what the header search finds, counted per filter value', async ({ page, request }) => {
    const data = await catalog(request);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    try {
      await page.goto('/explore', { waitUntil: 'commit' });
      // Typed as soon as the box is there, before the page's script has run.
      await page.getByLabel('Buscar', { exact: true }).pressSequentially('pikahcu');
      const expected = applyFilters(data.products, { ...EMPTY_FILTERS, q: 'pikahcu' });
      expect(expected.length).toBeGreaterThan(0);
      await expect(page).toHaveURL(/\?q=pikahcu$/, { timeout: 15_000 });
      await expect(liveCount(page, expected.length)).toBeVisible({ timeout: 15_000 });
      await expect(page.getByRole('list', { name: 'Productos' }).getByRole('heading', { level: 3 })).toHaveText(
        expected.slice(0, EXPLORE_PAGE).map((product) => product.name),
      );
      // Each franchise says how many of these results it has.
      await page.getByRole('button', { name: 'Filtros', exact: true }).click();
      const franchise = page.getByRole('combobox', { name: 'Franquicia' });
      for (const option of data.franchises) {
        const count = expected.filter((product) => product.franchiseId === option.id).length;
        if (count > 0) await expect(franchise.getByRole('option', { name: `${option.name} (${count})` })).toBeAttached();
        else await expect(franchise.getByRole('option', { name: new RegExp(`^${option.name} \\(`) })).toHaveCount(0);
      }
    } finally {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    }
  });

  test("the page's scripts are asked for once the first card's image is on the screen, and 'Agregar' tapped twice before they ran adds one", async ({
    page,
  }) => {
    // The scripts are answered only after the taps, as on a slow network, so the taps surely land
    // before any script ran.
    const release = await holdScripts(page);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    try {
      await page.goto('/explore', { waitUntil: 'commit' });
      const add = page
        .getByRole('list', { name: 'Productos' })
        .getByRole('button', { name: /^Agregar .+ al carrito$/ })
        .and(page.locator(':enabled'))
        .first();
      await add.click();
      await add.click();
      expect(await page.evaluate(() => document.documentElement.dataset.cardAdd ?? 'none')).toBe('none');
      release();

      const cart = page.getByRole('banner').getByRole('link', { name: /^Carrito/ });
      await expect(cart).toHaveAccessibleName('Carrito, 1 artículo', { timeout: 15_000 });
      await expect(page.getByText('Agregado al carrito')).toBeVisible();

      // Every script of the page was asked for after the first card's image was on the screen,
      // as the browser reports its paint (Element Timing).
      const timing = await page.evaluate(async () => {
        const painted = await new Promise<number | null>((resolve) => {
          new PerformanceObserver((list, observer) => {
            const entry = list.getEntries()[0] as (PerformanceEntry & { renderTime: number }) | undefined;
            observer.disconnect();
            resolve(entry ? entry.renderTime : null);
          }).observe({ type: 'element', buffered: true });
          setTimeout(() => resolve(null), 5000);
        });
        const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        const scripts = entries.filter((entry) => /^\/_astro\/.+\.js$/.test(new URL(entry.name).pathname));
        return { painted, scripts: scripts.map((entry) => ({ url: entry.name, start: entry.startTime })) };
      });
      expect(timing.painted).toBeGreaterThan(0);
      expect(timing.scripts.length).toBeGreaterThanOrEqual(3);
      for (const script of timing.scripts) expect(script.start, script.url).toBeGreaterThanOrEqual(timing.painted!);
    } finally {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    }
  });

  test('nothing on the page jumps as it loads', async ({ page, request }) => {
    await page.addInitScript(() => {
      const w = window as unknown as { __shifts: number };
      w.__shifts = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
          if (!entry.hadRecentInput) w.__shifts += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const data = await catalog(request);
    await page.goto('/explore');
    await expect(liveCount(page, data.products.length)).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('list', { name: 'Productos' }).getByRole('listitem').first()).toBeVisible();
    // Two frames, so a shift of the results' first paint is reported.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await page.evaluate(() => (window as unknown as { __shifts: number }).__shifts)).toBeLessThan(0.05);
  });

  test("headings go down one level at a time: the page's h1, the results' h2, the cards' h3", async ({ page, request }) => {
    const data = await catalog(request);
    await page.goto('/explore');
    await expect(liveCount(page, data.products.length)).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('list', { name: 'Productos' }).getByRole('heading', { level: 3 }).first()).toBeVisible();
    const order = await new AxeBuilder({ page }).withRules(['heading-order']).analyze();
    expect(order.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});

test.describe('on a 1280 px laptop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the filters sit in a sidebar next to the cards, without a button', async ({ page, request }) => {
    const data = await catalog(request);
    await page.goto('/explore');
    await expect(liveCount(page, data.products.length)).toBeVisible({ timeout: 15_000 });
    const franchise = page.getByRole('combobox', { name: 'Franquicia' });
    await expect(franchise).toBeVisible();
    await expect(page.getByRole('button', { name: /^Filtros/ })).toBeHidden();
    const filters = await franchise.boundingBox();
    const grid = await page.getByRole('list', { name: 'Productos' }).boundingBox();
    expect(filters!.x + filters!.width).toBeLessThan(grid!.x);
    await franchise.selectOption('pokemon');
    await expect(page).toHaveURL(/\?franquicia=pokemon$/);
    await expect(page.getByText(resultsLabel(data.products.filter((p) => p.franchiseId === 'pokemon').length), { exact: true })).toBeVisible();

    // A type of Pokémon, then another franchise: the type goes, as it has no products there.
    const type = page.getByRole('combobox', { name: 'Tipo de producto' });
    await type.selectOption({ index: 1 });
    const typeId = await type.inputValue();
    expect(data.types.find((t) => t.id === typeId)?.franchiseId).toBe('pokemon');
    await expect(page).toHaveURL(new RegExp(`\\?franquicia=pokemon&tipo=${typeId}$`));
    await franchise.selectOption('one-piece');
    await expect(page).toHaveURL(/\?franquicia=one-piece$/);
    await expect(type).toHaveValue('');
    await expect(liveCount(page, data.products.filter((p) => p.franchiseId === 'one-piece').length)).toBeVisible();
  });
});

test.describe('the server search', () => {
  test("a product sold out in the database leaves 'Solo disponibles' within seconds, without a rebuild of its page", async ({ request }) => {
    const data = await catalog(request);
    // A sealed product in stock whose name no other product's contains, so the words find only it;
    // a Riftbound one, because tests running meanwhile count Pokémon's and One Piece's products in stock.
    const product = data.products.find(
      (p) =>
        p.franchiseId === 'riftbound' &&
        p.offers === undefined &&
        (p.stock ?? 0) > 0 &&
        data.products.filter((other) => other.name.toLowerCase().includes(p.name.toLowerCase())).length === 1,
    );
    expect(product).toBeDefined();
    const { serviceRoleKey } = await apiKeys(process.env.SUPABASE_JWT_SECRET || LOCAL_JWT_SECRET);
    const headers = { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}`, 'Content-Type': 'application/json' };
    const address = `/explore/resultados?q=${encodeURIComponent(product!.name)}&disponible=1`;
    const found = async () => (await (await request.get(address)).text()).includes(`href="/product/${product!.id}"`);
    expect(await found()).toBe(true);
    const sold = await request.patch(`${backendUrl}/rest/v1/products?id=eq.${encodeURIComponent(product!.id)}`, { headers, data: { stock: 0 } });
    expect(sold.ok()).toBe(true);
    try {
      const started = Date.now();
      await expect.poll(found, { timeout: 15_000, intervals: [250] }).toBe(false);
      // The server reads changed stock every 2 s and its answers change with it: well within 15.
      expect(Date.now() - started).toBeLessThan(15_000);
      // Still found without the filter, shown as sold out.
      const all = await (await request.get(`/explore/resultados?q=${encodeURIComponent(product!.name)}`)).text();
      expect(all).toContain(`href="/product/${product!.id}"`);
      expect(all).toContain('Agotado');
    } finally {
      await request.patch(`${backendUrl}/rest/v1/products?id=eq.${encodeURIComponent(product!.id)}`, { headers, data: { stock: product!.stock } });
    }
    await expect.poll(found, { timeout: 15_000, intervals: [250] }).toBe(true);
  });

  test('an address asked for again is the answer the server made and kept; the page asks for its first image from the head', async ({ request }) => {
    // Filters no other test asks for (answers are kept by their filters, so a parameter the page
    // ignores would not do): the first request makes the answer, the second is handed the kept one.
    const address = `/explore/resultados?franquicia=pokemon&orden=nombre&precio_max=${9_000_000 + (Date.now() % 1_000_000)}`;
    const first = await request.get(address);
    expect(first.headers()['x-explore-answer']).toBe('miss');
    const second = await request.get(address);
    expect(second.headers()['x-explore-answer']).toBe('hit');
    expect(second.headers()['cache-control']).toBe(first.headers()['cache-control']);
    expect(await second.text()).toBe(await first.text());
    // The answer made now says how long its search and its whole render took, for the browser's
    // Resource Timing; the one handed out again ran neither and says none (not the first one's times again).
    const timing = first.headers()['server-timing']?.match(/^search;dur=(\d+\.\d), render;dur=(\d+\.\d)$/);
    expect(timing).toBeTruthy();
    expect(Number(timing![2])).toBeGreaterThanOrEqual(Number(timing![1]));
    expect(second.headers()['server-timing']).toBeUndefined();

    const html = await (await request.get('/explore?orden=precio-desc')).text();
    const preload = html.match(/<link[^>]*rel="preload"[^>]*as="image"[^>]*>/)?.[0];
    const firstCard = html.match(/<img[^>]*fetchpriority="high"[^>]*>/)?.[0];
    expect(preload).toBeDefined();
    expect(firstCard).toBeDefined();
    // The same file the card shows: its src, or for a photo with copies the card's first (AVIF) source.
    const preloadSet = preload!.match(/imagesrcset="([^"]+)"/)?.[1];
    if (preloadSet) {
      const card = html.slice(0, html.indexOf(firstCard!));
      expect(card.slice(card.lastIndexOf('<picture')).match(/<source[^>]*srcset="([^"]+)"/)?.[1]).toBe(preloadSet);
    } else {
      expect(preload!.match(/href="([^"]+)"/)?.[1]).toBe(firstCard!.match(/src="([^"]+)"/)?.[1]);
    }
    // The other cards above the fold make way for it: asked for at once, at low priority.
    const others = [...html.matchAll(/<img[^>]*loading="eager"[^>]*>/g)].map((match) => match[0]).filter((img) => img !== firstCard);
    expect(others.length).toBeGreaterThan(0);
    for (const img of others) expect(img).toContain('fetchpriority="low"');
  });

  test('is in the sitemap, though rendered on request', async ({ request }) => {
    const index = await (await request.get('/sitemap-index.xml')).text();
    const parts = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
    expect(parts.length).toBeGreaterThan(0);
    const urls = (await Promise.all(parts.map(async (part) => (await request.get(part)).text()))).join('');
    expect(urls).toMatch(/<loc>[^<]*\/explore<\/loc>/);
  });

  test('bad addresses get the whole catalogue, never an error', async ({ request }) => {
    for (const query of [
      '?pagina=-1',
      '?pagina=99999',
      '?precio_min=abc&precio_max=1e99',
      '?orden=%3Cscript%3E',
      `?q=${'x'.repeat(500)}`,
      '?condicion=ZZ&idioma=%00',
    ]) {
      const page = await request.get(`/explore${query}`);
      expect(page.status(), query).toBe(200);
      const part = await request.get(`/explore/resultados${query}`);
      expect(part.status(), query).toBe(200);
      expect(await part.text(), query).toMatch(/\d+ resultados?/);
    }
  });
});
