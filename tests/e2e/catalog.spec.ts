import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page, expectConsoleError } from './fixtures';
import { resultsLabel, type ExploreData } from '~/domain/explore';
import { FOOTER_CATALOG_LINKS } from './pages/shell';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}

// The build's own compact catalogue: expected counts come from the same snapshot as the pages.
async function catalog(request: APIRequestContext): Promise<ExploreData> {
  const response = await request.get('/explore/catalog.json');
  expect(response.status()).toBe(200);
  return (await response.json()) as ExploreData;
}

test.describe('home', () => {
  test('hero, promo tiles and product sliders, with the hero linking to the Journey Together box', async ({ page }) => {
    await page.goto('/');
    const hero = page.getByRole('region', { name: 'Destacados' });
    await expect(hero.getByRole('heading', { level: 1 })).toBeVisible();
    // Swiper takes over the hero once it is on screen.
    await expect(page.locator('[data-carousel="hero"]')).toHaveAttribute('data-enhanced', 'true');
    await hero.getByRole('button', { name: 'Ir a la diapositiva 3' }).click();
    await expect(hero.getByRole('link', { name: 'Comprar Journey Together' })).toBeVisible();
    await expect(hero.getByRole('link', { name: 'Comprar Journey Together' })).toHaveAttribute('href', '/product/pk-boosterbox-journey-together');
    const images = hero.locator('img');
    await expect(images.first()).toHaveAttribute('loading', 'eager');
    await expect(images.first()).toHaveAttribute('fetchpriority', 'high');
    await expect(images.nth(1)).toHaveAttribute('loading', 'lazy');

    await expect(page.getByRole('region', { name: 'Promociones' }).getByRole('link')).toHaveCount(3);
    for (const title of ['Ofertas Especiales', 'Destined Rivals', 'Journey Together']) {
      const slider = page.getByRole('region', { name: title, exact: true });
      await expect(slider.getByRole('heading', { name: title, level: 2 })).toBeVisible();
      await expect(slider.getByRole('article').first()).toBeVisible();
    }
    await expect(page.locator('[data-carousel="hero"]')).toHaveAttribute('data-autoplay', 'on');
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('no autoplay for visitors who ask for reduced motion', async ({ browser }) => {
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.locator('[data-carousel="hero"]')).toHaveAttribute('data-autoplay', 'off');
    await context.close();
  });

  test('slider cards are plain links and work without JavaScript', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/');
    const slider = page.getByRole('region', { name: 'Destined Rivals', exact: true });
    const first = slider.getByRole('article').first().getByRole('link');
    await expect(first).toBeVisible();
    await expect(first).toHaveAttribute('href', /^\/product\//);
    await context.close();
  });
});

test.describe('pickers', () => {
  test('franchise picker: Selecciona una franquicia, linked from explore', async ({ page }) => {
    await page.goto('/explore');
    await page.getByRole('link', { name: 'Selecciona una franquicia' }).click();
    await expect(page).toHaveURL(/\/franquicias$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Selecciona una franquicia' })).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: /^One Piece/ })).toHaveAttribute('href', '/franchise/one-piece/product-types');
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('product-type picker shows only types with products, linking to their listings', async ({ page, request }) => {
    const data = await catalog(request);
    const used = new Set(data.products.filter((p) => p.franchiseId === 'pokemon').map((p) => p.typeId));
    const pokemonTypes = data.types.filter((t) => t.franchiseId === 'pokemon');
    const expected = pokemonTypes.filter((t) => used.has(t.id));
    await page.goto('/franchise/pokemon/product-types');
    const cards = page.getByRole('list', { name: 'Tipos de producto' }).getByRole('link');
    await expect(cards).toHaveCount(expected.length);
    const first = expected[0]!;
    await expect(page.getByRole('link', { name: new RegExp(`^${first.name}`) }).first()).toHaveAttribute(
      'href',
      `/franchise/pokemon/product-types/${first.id}/products`,
    );
    for (const unused of pokemonTypes.filter((t) => !used.has(t.id))) {
      await expect(page.locator(`a[href="/franchise/pokemon/product-types/${unused.id}/products"]`)).toHaveCount(0);
    }
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('expansion picker: debounced search, results count and empty text', async ({ page, request }) => {
    const data = await catalog(request);
    const all = data.expansions.filter((e) => e.franchiseId === 'pokemon').length;
    await page.clock.install();
    await page.goto('/franchise/pokemon/expansions');
    await expect(page.getByRole('heading', { level: 1, name: 'Selecciona una expansión' })).toBeVisible();
    await expect(page.getByText(`Resultados: ${all}`)).toBeVisible();
    // Wait for the island to take over, then stop the clock to watch the debounce.
    await expect(page.locator('astro-island').filter({ has: page.getByPlaceholder('Buscar expansión...') })).not.toHaveAttribute('ssr');
    await page.clock.pauseAt(Date.now() + 1000);
    const search = page.getByPlaceholder('Buscar expansión...');
    await search.fill('RIVALS');
    await page.clock.runFor(200);
    await expect(page.getByText(`Resultados: ${all}`)).toBeVisible();
    await page.clock.runFor(60);
    await expect(page.getByText('Resultados: 1')).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'Destined Rivals' })).toHaveAttribute(
      'href',
      '/franchise/pokemon/expansions/destined-rivals/products',
    );
    await page.clock.resume();
    await search.fill('zzzz');
    await expect(page.getByText('No hay expansiones que coincidan con tu búsqueda.')).toBeVisible();
    await expect(page.getByText('Resultados: 0')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('expansion picker: 12 skeleton cards while loading, error with Reintentar', async ({ page }) => {
    let fail = true;
    expectConsoleError(page, /Failed to load resource|net::ERR_/); // the failure is the point of this step
    // The answer waits until the skeleton has been seen (a fixed delay could pass unseen on a busy machine).
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/rest/v1/expansions*', async (route) => {
      await released;
      if (fail) await route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"caído"}' });
      else await route.continue();
    });
    await page.goto('/franchise/one-piece/expansions');
    await expect(page.getByTestId('expansion-skeleton')).toHaveCount(12);
    release();
    await expect(page.getByText('No se pudieron cargar las expansiones. Intenta de nuevo.')).toBeVisible();
    fail = false;
    await page.getByRole('button', { name: 'Reintentar' }).click();
    await expect(page.getByText('Resultados: 5')).toBeVisible();
    await expect(page.getByText('No se pudieron cargar las expansiones. Intenta de nuevo.')).toBeHidden();
  });
});

test.describe('listings', () => {
  test('expansion listing: heading with the count, cards with sold-out overlay', async ({ page, request }) => {
    const data = await catalog(request);
    const products = data.products.filter((p) => p.franchiseId === 'pokemon' && p.expansionId === 'destined-rivals');
    await page.goto('/franchise/pokemon/expansions/destined-rivals/products');
    await expect(page.getByRole('heading', { level: 1, name: `Resultados (${products.length}) – POKÉMON` })).toBeVisible();
    await expect(page.getByRole('article')).toHaveCount(Math.min(products.length, 48));
    const soldOut = products.find((p) => p.stock === 0);
    expect(soldOut, 'the demo data has a sold-out Destined Rivals product').toBeTruthy();
    const card = page.getByRole('article').filter({ hasText: soldOut!.name });
    await expect(card.getByText('Agotado', { exact: true }).first()).toBeVisible();
    await expect(card.getByRole('button', { name: `Agregar ${soldOut!.name} al carrito` })).toBeDisabled();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('pseudo-types preorder and sale list the matching products', async ({ page, request }) => {
    const data = await catalog(request);
    const pokemon = data.products.filter((p) => p.franchiseId === 'pokemon');
    await page.goto('/franchise/pokemon/product-types/preorder/products');
    await expect(page.getByRole('heading', { level: 1, name: `Resultados (${pokemon.filter((p) => p.preorder).length}) – POKÉMON` })).toBeVisible();
    await expect(page.getByRole('article').first().getByText('Preventa', { exact: true })).toBeVisible();
    await page.goto('/franchise/pokemon/product-types/sale/products');
    await expect(page.getByRole('heading', { level: 1, name: `Resultados (${pokemon.filter((p) => p.sale).length}) – POKÉMON` })).toBeVisible();
    await expect(
      page
        .getByRole('article')
        .first()
        .getByText(/^-\d+%$/),
    ).toBeVisible();
  });

  test('a view without products says so', async ({ page }) => {
    // A Pokémon product type inside Riftbound never has products, whatever the data.
    await page.goto('/explore?franquicia=riftbound&tipo=elite-trainer-box');
    await expect(page.getByText('0 resultados')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText('No se encontraron productos.')).toBeVisible();
  });

  test('every fixed footer link answers 200 with a heading', async ({ request, page }) => {
    for (const [, href] of FOOTER_CATALOG_LINKS) {
      const response = await request.get(href);
      expect(response.status(), href).toBe(200);
    }
    for (const [, href] of FOOTER_CATALOG_LINKS) {
      await page.goto(href);
      await expect(page.getByRole('heading', { level: 1 }), href).toBeVisible();
    }
  });

  test('adding from a card shows the toast and grows the cart', async ({ page, request }) => {
    const data = await catalog(request);
    const product = data.products.find((p) => p.franchiseId === 'pokemon' && p.expansionId === 'journey-together' && p.stock !== 0)!;
    await page.goto('/franchise/pokemon/expansions/journey-together/products');
    await page.getByRole('button', { name: `Agregar ${product.name} al carrito` }).click();
    await expect(page.locator('.toast').getByText('Agregado al carrito')).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Carrito, 1 artículo' })).toBeVisible();
  });
});

test.describe('explore', () => {
  test('filters and sorting live in the query string and survive a reload', async ({ page, request }) => {
    test.slow();
    const data = await catalog(request);
    await page.goto('/explore');
    await expect(page.getByRole('heading', { level: 1, name: 'Explorar el catálogo' })).toBeVisible();
    // The island's own count (a live region), not the one of the prebuilt first results: the
    // catalogue has loaded and the filters below are the island's.
    await expect(page.getByRole('status').filter({ hasText: new RegExp(`^${resultsLabel(data.products.length)}$`) })).toBeVisible({ timeout: 15_000 });

    await page.getByLabel('Franquicia').selectOption('one-piece');
    await expect(page).toHaveURL(/\?franquicia=one-piece$/);
    await page.getByLabel('Solo disponibles').check();
    await page.getByLabel('Ordenar por').selectOption('precio-asc');
    await expect(page).toHaveURL(/franquicia=one-piece&disponible=1&orden=precio-asc/);
    const expected = data.products.filter((p) => p.franchiseId === 'one-piece' && p.stock !== 0);
    await expect(page.getByText(resultsLabel(expected.length))).toBeVisible();
    // The count is the same before and after the order changes: the order's own answer is in once
    // the results are no longer busy (the answer to 'Solo disponibles' alone has the same count).
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);

    const prices = async () =>
      (await page.getByRole('list', { name: 'Productos' }).locator('.price-now').allTextContents()).map((t) => Number(t.replace(/[^0-9.]/g, '')));
    const sorted = await prices();
    expect(sorted).toEqual([...sorted].sort((a, b) => a - b));

    await page.reload();
    await expect(page.getByLabel('Franquicia')).toHaveValue('one-piece');
    await expect(page.getByLabel('Solo disponibles')).toBeChecked();
    await expect(page.getByText(resultsLabel(expected.length))).toBeVisible();

    await page.getByLabel('En oferta').check();
    await expect(page).toHaveURL(/oferta=1/);
    const sale = expected.filter((p) => p.sale).length;
    await expect(page.getByText(resultsLabel(sale))).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('lists every franchise, expansion and type as links', async ({ page, request }) => {
    const data = await catalog(request);
    await page.goto('/explore');
    const index = page.getByRole('region', { name: 'Todo el catálogo' });
    const hrefs = new Set(await index.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href'))));
    for (const franchise of data.franchises) expect(hrefs).toContain(`/franchise/${franchise.id}/product-types`);
    for (const expansion of data.expansions) expect(hrefs).toContain(`/franchise/${expansion.franchiseId}/expansions/${expansion.id}/products`);
    for (const type of data.types) expect(hrefs).toContain(`/franchise/${type.franchiseId}/product-types/${type.id}/products`);
  });
});
