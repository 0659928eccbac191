import { gzipSync } from 'node:zlib';
import { expect, openWithScripts, test, type Page } from './fixtures';

// What a shopper's phone downloads as JavaScript before touching the page: every script file
// plus the inline scripts (JSON-LD and other data blocks are never run, so they do not count),
// gzipped as the server sends them. `npm run bench` reports the same figures.
const PHONE = { width: 390, height: 844 };

async function javaScriptBeforeInteraction(page: Page, path: string): Promise<{ gzip: number; files: string[] }> {
  const { response, scripts } = await openWithScripts(page, path);
  expect(response?.status()).toBe(200);
  const inline = await page.locator('script:not([src])').evaluateAll((nodes) =>
    nodes
      .filter((n) => ['', 'module', 'text/javascript'].includes(n.getAttribute('type') ?? ''))
      .map((n) => n.textContent ?? '')
      .join('\n'),
  );
  const files = scripts.map(({ url, body }) => ({ url, size: gzipSync(body).length }));
  const gzip = files.reduce((sum, file) => sum + file.size, 0) + (inline ? gzipSync(inline).length : 0);
  return { gzip, files: files.map((file) => `${file.url} ${file.size} B`) };
}

test.describe('JavaScript a phone loads before the shopper touches the page', () => {
  test.use({ viewport: PHONE });

  test('a product page loads at most 12 KB gzip, and the buy box still works', async ({ page }) => {
    const { gzip, files } = await javaScriptBeforeInteraction(page, '/product/pk-boosterbox-journey-together');
    expect(files.length).toBeGreaterThan(0);
    expect(gzip, files.join('\n')).toBeLessThanOrEqual(12 * 1024);
    // Few files, each a round trip on a phone's network: the header's and the page's scripts and
    // what they share, in one file (src/integrations/storefront-chunk.ts). It was 11 files.
    expect(files.length, files.join('\n')).toBeLessThanOrEqual(4);
    await expect(page.getByRole('button', { name: 'Agregar al carrito' })).toBeEnabled();
  });

  test("a single card's page with offers loads at most 12 KB gzip, and its offers can be chosen", async ({ page }) => {
    const { gzip, files } = await javaScriptBeforeInteraction(page, '/product/op-single-op-05-monkey-d-luffy-op05-119');
    expect(files.length).toBeGreaterThan(0);
    expect(gzip, files.join('\n')).toBeLessThanOrEqual(12 * 1024);
    // The header's, the page's and the shared file: whether an offer is on preorder is asked by the
    // live stock's script in the shared file. It was 4 files, that check with a file of its own.
    expect(files.length, files.join('\n')).toBeLessThanOrEqual(3);
    // The first tap wakes the buy box and is replayed once it has hydrated.
    const lp = page.getByRole('radio', { name: /^LP · Inglés · Parallel/ });
    await lp.click();
    await expect(lp).toBeChecked();
    await expect(page.getByText('Precio: $3,849.00')).toBeVisible();
  });

  test('a product page asks for its scripts once its first image has arrived, and its buy box still adds to the cart', async ({ page }) => {
    // The server takes a product page's module scripts out and asks for them after its first image
    // (src/server/late-scripts.ts): on a phone's network they no longer share the connection with it.
    const events: string[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() === 'image') events.push(`image ${new URL(request.url()).pathname}`);
    });
    page.on('request', (request) => {
      if (request.resourceType() === 'script') events.push(`script ${new URL(request.url()).pathname}`);
    });
    const response = await page.goto('/product/op-single-op-05-monkey-d-luffy-op05-119');
    expect(response?.status()).toBe(200);
    const html = await response!.text();
    expect(html).not.toMatch(/<script type="module" src=/);
    const first = page.locator('img[fetchpriority="high"]');
    await expect(first).toHaveJSProperty('complete', true);
    const firstImage = `image ${new URL(await first.evaluate((image: HTMLImageElement) => image.currentSrc)).pathname}`;
    await expect.poll(() => events.filter((event) => event.startsWith('script ')).length).toBeGreaterThanOrEqual(2);
    const firstScript = events.findIndex((event) => event.startsWith('script '));
    expect(events.indexOf(firstImage), events.join('\n')).toBeGreaterThanOrEqual(0);
    expect(events.indexOf(firstImage), events.join('\n')).toBeLessThan(firstScript);
    // The header's script, asked for late, still counts what the buy box adds.
    await page.getByRole('radio', { name: /^LP · Inglés · Parallel/ }).click();
    await page.getByRole('button', { name: 'Agregar al carrito' }).click();
    await expect(page.getByRole('link', { name: 'Carrito, 1 artículo' })).toBeVisible();
  });

  test('/explore loads at most 60 KB gzip, its HTML with the first results under 150 KB, and filters', async ({ page, request }) => {
    const { gzip, files } = await javaScriptBeforeInteraction(page, '/explore');
    expect(files.length).toBeGreaterThan(0);
    expect(gzip, files.join('\n')).toBeLessThanOrEqual(60 * 1024);
    // The header's, the cards' and the page's scripts, the file they share and the filters' code.
    // It was 15 files, found three import levels deep.
    expect(files.length, files.join('\n')).toBeLessThanOrEqual(6);
    expect(gzipSync(await (await request.get('/explore')).body()).length).toBeLessThan(150 * 1024);
    await page.getByRole('button', { name: 'Filtros', exact: true }).click();
    await page.getByRole('combobox', { name: 'Franquicia' }).selectOption('pokemon');
    await expect(page).toHaveURL(/\?franquicia=pokemon$/);
  });

  test('the home page loads at most 50 KB gzip, and shows its main heading', async ({ page }) => {
    const { gzip, files } = await javaScriptBeforeInteraction(page, '/');
    expect(files.length).toBeGreaterThan(0);
    expect(gzip, files.join('\n')).toBeLessThanOrEqual(50 * 1024);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });
});
