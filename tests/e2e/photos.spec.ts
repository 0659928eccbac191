/**
 * Photos on a 375 px phone at a pixel ratio of 2: a single's page downloads its photo as an AVIF
 * (or WebP) copy about as wide as its place, at most 120 KB, never the 1,500 × 2,100 original;
 * the page's HTML offers the copies (a <picture> with AVIF and WebP sources, the JPEG srcset,
 * width and height) and preloads the AVIF at high priority. The slab's back photo, tapped, opens
 * full size (the original, 1,500 px wide). The copies come with a year of immutable caching.
 * The demo's photos come from scripts/seed/photos.ts and supabase/local/seed/demo_photos.sql.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';
import { PHONE } from './pages/phone.ts';

test.use({ viewport: PHONE, deviceScaleFactor: 2, hasTouch: true, isMobile: true });

// A single with a PSA 10 slab among its offers (the demo's Luffy; its slab has a front and a back photo).
const LUFFY = { id: 'op-single-op-05-monkey-d-luffy-op05-119', name: 'Monkey.D.Luffy (OP05-119)' };
const COPY = /\/media\/products\/demo-foto-\d\.1500x2100\.(\d+)w\.(avif|webp|jpg)$/;
const ORIGINAL = /demo-foto-\d\.1500x2100\.jpg$/;

test('a product with a photo downloads one right-sized AVIF or WebP copy of at most 120 KB, never the original', async ({ page }) => {
  const photos: Array<{ url: string; type: string; bytes: number }> = [];
  page.on('response', async (response) => {
    if (!/demo-foto-/.test(response.url()) || response.status() !== 200) return;
    photos.push({ url: new URL(response.url()).pathname, type: response.headers()['content-type'] ?? '', bytes: (await response.body()).byteLength });
  });
  await page.goto(`/product/${LUFFY.id}`);

  const preload = page.locator('link[rel="preload"][as="image"]');
  await expect(preload).toHaveAttribute('type', 'image/avif');
  await expect(preload).toHaveAttribute('fetchpriority', 'high');
  await expect(preload).toHaveAttribute('imagesrcset', /demo-foto-\d\.1500x2100\.240w\.avif 240w, .*960w\.avif 960w$/);

  const main = page.getByRole('button', { name: /^Ver imagen 1 de \d+ en pantalla completa$/ }).getByRole('img');
  await expect(main).toHaveAttribute('fetchpriority', 'high');
  await expect(main).not.toHaveAttribute('loading', 'lazy');
  // Drawn inside its 600 × 600 box with the photo's proportions, so its place is kept before it loads.
  await expect(main).toHaveAttribute('width', '429');
  await expect(main).toHaveAttribute('height', '600');
  await expect(main).toHaveAttribute('srcset', /240w\.jpg 240w, .*480w\.jpg 480w, .*960w\.jpg 960w$/);
  await expect(main).toHaveAttribute(
    'sizes',
    '(min-width: 900px) calc(min(598px, 50vw - 42px) * 0.714), (min-width: 768px) calc(calc(100vw - 50px) * 0.714), calc(calc(100vw - 34px) * 0.714)',
  );
  const sources = page.locator('.gallery-main picture source');
  await expect(sources).toHaveCount(2);
  await expect(sources.nth(0)).toHaveAttribute('type', 'image/avif');
  await expect(sources.nth(1)).toHaveAttribute('type', 'image/webp');
  await expect.poll(() => main.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  // The browser chose a modern copy about as wide as the place at 2×: ((375 - 34) px · 1500/2100) · 2 ≈ 487 px, so the 960 px copy.
  const chosen = await main.evaluate((img: HTMLImageElement) => img.currentSrc);
  const [, width, format] = COPY.exec(new URL(chosen).pathname) ?? [];
  expect(['avif', 'webp']).toContain(format);
  expect(Number(width)).toBeGreaterThanOrEqual(480);
  expect(Number(width)).toBeLessThanOrEqual(960);

  await expect.poll(() => photos.some((p) => p.url === new URL(chosen).pathname)).toBe(true);
  const downloaded = photos.find((p) => p.url === new URL(chosen).pathname)!;
  expect(downloaded.type).toBe(`image/${format}`);
  expect(downloaded.bytes).toBeGreaterThan(1000);
  expect(downloaded.bytes).toBeLessThanOrEqual(120 * 1024);
  expect(photos.filter((p) => ORIGINAL.test(p.url))).toEqual([]);
  for (const photo of photos) expect(photo.url).toMatch(COPY);

  // Copies never change: a year, immutable.
  const copy = await page.request.get(chosen);
  expect(copy.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
});

test("the slab's back photo opens full size on tap", async ({ page, context }) => {
  await page.goto(`/product/${LUFFY.id}`);
  const slabs = page.getByRole('group', { name: 'Cartas graduadas' });
  const back = slabs.getByRole('img', { name: /PSA 10, foto 2 de 2/ });
  await expect(back).toBeVisible();
  // The thumbnail itself is a small copy, with its place's sizes.
  await expect(back).toHaveAttribute('sizes', 'calc(72px * 0.714)');
  // The thumbnail is the link's content, so the link is named by its photo.
  const link = slabs.getByRole('link', { name: /PSA 10, foto 2 de 2/ });
  const href = await link.getAttribute('href');
  expect(href).toMatch(/^\/media\/products\/demo-foto-\d\.1500x2100\.jpg$/);

  // The photo opens as an image document, for which the browser asks the favicon the shop does not serve.
  await context.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
  const opened = context.waitForEvent('page');
  await back.tap();
  const photo = await opened;
  await photo.waitForLoadState();
  expect(new URL(photo.url()).pathname).toBe(href);
  const full = photo.locator('img');
  await expect.poll(() => full.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1500);
  expect(await full.evaluate((img: HTMLImageElement) => img.naturalHeight)).toBe(2100);

  const axe = await new AxeBuilder({ page }).include('.product-page').analyze();
  expect(axe.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});

test.describe('on a 412 px phone at 1.75× (the phone Lighthouse emulates)', () => {
  // A phone's screen is as wide as its viewport (the desktop preset's 1,920 px screen is not).
  test.use({ viewport: { width: 412, height: 823 }, screen: { width: 412, height: 823 }, deviceScaleFactor: 1.75 });

  test('the main photo drawn 270 px wide (472 device pixels) comes as the 480 px copy, neither preloaded nor fetched wider', async ({ page }) => {
    const photos: string[] = [];
    page.on('request', (request) => {
      if (/demo-foto-/.test(request.url())) photos.push(new URL(request.url()).pathname);
    });
    await page.goto(`/product/${LUFFY.id}`);
    const main = page.getByRole('button', { name: /^Ver imagen 1 de \d+ en pantalla completa$/ }).getByRole('img');
    await expect.poll(() => main.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    const drawn = await main.evaluate((img: HTMLImageElement) => (img.getBoundingClientRect().height * img.naturalWidth) / img.naturalHeight);
    expect(drawn * 1.75).toBeLessThanOrEqual(480);
    const chosen = new URL(await main.evaluate((img: HTMLImageElement) => img.currentSrc)).pathname;
    expect(COPY.exec(chosen)?.[1]).toBe('480');
    // One copy of the main photo: the preload asked for the same one the page drew.
    const mainPhoto = chosen.replace(/\.\d+w\.\w+$/, '');
    expect(photos.filter((url) => url.startsWith(mainPhoto) && /\.(480|960|1600)w\./.test(url))).toEqual([chosen]);
  });
});
