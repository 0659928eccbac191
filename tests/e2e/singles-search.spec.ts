/**
 * Finding single cards on a phone: the header search by collector number typed any way, and the
 * singles filters of a listing (Condición, Idioma, Solo graduadas) with the filters in the address.
 * What a card offers is read from the local stack, so the page is checked against the data.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from './fixtures';
import { STACK_URL, stackKeys } from './pages/auth';
import { EXPLORE_PAGE, resultsLabel } from '~/domain/explore';

// The One Piece chase card of the demo (scripts/seed/cards.ts FIXED_OFFERS): an LP English copy, a sold-out MP and a PSA 10.
const LUFFY = { id: 'op-single-op-05-monkey-d-luffy-op05-119', name: 'Monkey.D.Luffy (OP05-119)' };
const LISTING = '/franchise/one-piece/product-types/op-single-card/products';

test.use({ viewport: { width: 375, height: 812 } });

interface OfferRow {
  product_id: string;
  condition: string | null;
  language: string;
  stock: number;
  grading_company: string | null;
}

/** The One Piece singles' names and their offers in stock, from the stack. */
async function onePieceSingles(request: APIRequestContext): Promise<{ names: Map<string, string>; offers: OfferRow[] }> {
  const { anonKey } = await stackKeys();
  const headers = { apikey: anonKey, Authorization: `Bearer ${anonKey}` };
  const products = await request.get(`${STACK_URL}/rest/v1/products?select=id,name&product_type_id=eq.op-single-card`, { headers });
  expect(products.ok()).toBe(true);
  const offers = await request.get(`${STACK_URL}/rest/v1/card_offers?select=product_id,condition,language,stock,grading_company&stock=gt.0`, { headers });
  expect(offers.ok()).toBe(true);
  const names = new Map(((await products.json()) as Array<{ id: string; name: string }>).map((p) => [p.id, p.name]));
  return { names, offers: ((await offers.json()) as OfferRow[]).filter((offer) => names.has(offer.product_id)) };
}

/** Names of the products with an offer in stock that passes `keep`. */
function namesWith(data: { names: Map<string, string>; offers: OfferRow[] }, keep: (offer: OfferRow) => boolean): Set<string> {
  return new Set(data.offers.filter(keep).map((offer) => data.names.get(offer.product_id)!));
}

/** The listing's grid and the names of the cards it shows (hidden cards leave the accessibility tree). */
function grid(page: Page) {
  const list = page.getByRole('list', { name: 'Productos de Carta individual' });
  return { list, shownNames: () => list.getByRole('heading', { level: 2 }).allTextContents() };
}

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}

test.describe('the header search finds a single by its collector number', () => {
  test("'OP05-119' typed at once shows the Luffy OP05-119 first, and 'op05 119' finds it too", async ({ page }) => {
    await page.goto('/', { waitUntil: 'commit' });
    const box = page.getByRole('banner').getByRole('combobox', { name: 'Buscar productos' });
    const options = page.getByRole('listbox', { name: 'Productos sugeridos' }).getByRole('option');
    // Typed right away, before the search has hydrated.
    await box.pressSequentially('OP05-119');
    await expect(box).toHaveValue('OP05-119');
    await expect(options.first()).toHaveText(LUFFY.name, { timeout: 15_000 });

    await box.fill('op05 119');
    await expect(options.first()).toHaveText(LUFFY.name);
    await box.fill('op05119');
    await expect(options.first()).toHaveText(LUFFY.name);

    // The dropdown behaves as for any product: a click clears the box and opens the product.
    await options.first().click();
    await page.waitForURL(`**/product/${LUFFY.id}`);
    await expect(page.getByRole('heading', { level: 1, name: LUFFY.name })).toBeVisible();
  });
});

test.describe('the One Piece singles listing filters its cards', () => {
  test('Condición LP and Idioma Inglés leave only cards with such a copy in stock, in the address and on the next page', async ({ page, request }) => {
    const data = await onePieceSingles(request);
    const lpEnglish = namesWith(data, (offer) => offer.condition === 'LP' && offer.language === 'en');
    expect(lpEnglish).toContain(LUFFY.name);

    await page.goto(LISTING, { waitUntil: 'commit' });
    const { list, shownNames } = grid(page);
    // Chosen at once; the page's script applies a choice made before it ran.
    await page.getByRole('combobox', { name: 'Condición', exact: true }).selectOption({ label: 'Poco jugada (LP)' });
    await page.getByRole('combobox', { name: 'Idioma', exact: true }).selectOption({ label: 'Inglés' });
    await expect(page).toHaveURL(/[?&]condicion=LP/);
    await expect(page).toHaveURL(/[?&]idioma=en/);
    await expect(page.getByRole('status').filter({ hasText: /^Mostrando \d+ de 48 productos de esta página\.$/ })).toBeVisible();

    const firstPage = await shownNames();
    expect(firstPage.length).toBeGreaterThan(0);
    expect(firstPage.length).toBeLessThan(48);
    for (const name of firstPage) expect(lpEnglish, name).toContain(name);
    const expectedHere = (await list.locator('h2').allTextContents()).filter((name) => lpEnglish.has(name));
    expect(firstPage.sort()).toEqual(expectedHere.sort());

    // The filters follow to page 2, where the Luffy OP05-119 is.
    await page.getByRole('link', { name: 'Página 2' }).click();
    await expect(page).toHaveURL(/\/products\/2\?condicion=LP&idioma=en$/);
    await expect(page.getByRole('combobox', { name: 'Condición', exact: true })).toHaveValue('LP');
    await expect(list.getByRole('heading', { level: 2, name: LUFFY.name })).toBeVisible();
    for (const name of await shownNames()) expect(lpEnglish, name).toContain(name);

    // The whole listing, every page, on /explore with the same filters.
    await expect(page.getByRole('link', { name: /^Filtrar las \d+ cartas en Explorar$/ })).toHaveAttribute(
      'href',
      '/explore?franquicia=one-piece&tipo=op-single-card&condicion=LP&idioma=en',
    );

    expect(await seriousViolations(page)).toEqual([]);
  });

  test("'Solo graduadas' leaves only cards with a slab, and the shared link opens the same cards", async ({ page, request }) => {
    const data = await onePieceSingles(request);
    const slabs = namesWith(data, (offer) => offer.grading_company !== null);

    await page.goto(`${LISTING}/2`);
    const { list, shownNames } = grid(page);
    const before = (await shownNames()).length;
    await page.getByRole('checkbox', { name: 'Solo graduadas' }).check();
    await expect(page).toHaveURL(/\/products\/2\?graduadas=1$/);
    await expect(list.getByRole('heading', { level: 2, name: LUFFY.name })).toBeVisible();
    const graded = await shownNames();
    expect(graded.length).toBeLessThan(before);
    for (const name of graded) expect(slabs, name).toContain(name);
    expect(await seriousViolations(page)).toEqual([]);

    // A shared link shows the same filtered cards in a new page.
    const shared = await page.context().newPage();
    await shared.goto(page.url());
    await expect(shared.getByRole('checkbox', { name: 'Solo graduadas' })).toBeChecked();
    await expect.poll(() => grid(shared).shownNames()).toEqual(graded);

    // 'Limpiar filtros' shows every card again.
    await page.getByRole('button', { name: 'Limpiar filtros' }).click();
    await expect(page).toHaveURL(/\/products\/2$/);
    await expect.poll(async () => (await shownNames()).length).toBe(before);
  });
});

test.describe('/explore finds and filters singles', () => {
  test('a collector number finds the single first, and Condición LP with Idioma Inglés keeps only such cards, in the address', async ({ page, request }) => {
    const data = await onePieceSingles(request);
    const lpEnglish = namesWith(data, (offer) => offer.condition === 'LP' && offer.language === 'en');
    const results = page.getByRole('list', { name: 'Productos' });

    await page.goto('/explore?q=op05%20119');
    await expect(results.getByRole('heading', { level: 3 }).first()).toHaveText(LUFFY.name, { timeout: 15_000 });
    // A single is bought as one of its copies: its card leads to its page to choose one.
    await expect(results.getByRole('link', { name: `Elegir condición e idioma de ${LUFFY.name}` })).toHaveAttribute('href', `/product/${LUFFY.id}`);

    await page.goto('/explore?franquicia=one-piece&tipo=op-single-card');
    await expect(page.getByText(resultsLabel(data.names.size), { exact: true })).toBeVisible({ timeout: 15_000 });
    // On a phone the filters are in a sheet opened by 'Filtros (n)'.
    await page.getByRole('button', { name: 'Filtros (2)' }).click();
    // Each value says how many cards choosing it gives ('Poco jugada (LP) (12)').
    const condition = page.getByRole('combobox', { name: 'Condición', exact: true });
    await expect(condition.getByRole('option', { name: /^Poco jugada \(LP\) \(\d+\)$/ })).toBeAttached();
    await condition.selectOption('LP');
    await page.getByRole('combobox', { name: 'Idioma', exact: true }).selectOption('en');
    await expect(page).toHaveURL(/\?franquicia=one-piece&tipo=op-single-card&condicion=LP&idioma=en$/);
    await expect(page.getByText(resultsLabel(lpEnglish.size), { exact: true })).toBeVisible();
    // The first results are shown at once, 'Ver más' adds the rest.
    const shown = await results.getByRole('heading', { level: 3 }).allTextContents();
    expect(shown).toHaveLength(Math.min(EXPLORE_PAGE, lpEnglish.size));
    for (const name of shown) expect(lpEnglish, name).toContain(name);

    await page.getByRole('checkbox', { name: 'Solo graduadas' }).check();
    await expect(page).toHaveURL(/graduadas=1/);
    const englishSlabs = new Set(data.offers.filter((o) => o.grading_company !== null && o.language === 'en').map((o) => data.names.get(o.product_id)!));
    // A slab has a grade, not a condition: LP and 'Solo graduadas' together match no copy.
    await expect(page.getByText('0 resultados', { exact: true })).toBeVisible();
    await page.getByRole('combobox', { name: 'Condición', exact: true }).selectOption({ label: 'Todas' });
    await expect(page.getByText(resultsLabel(englishSlabs.size), { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Ver resultados' }).click();
    await expect(page.getByRole('button', { name: 'Filtros (4)' })).toBeFocused();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
