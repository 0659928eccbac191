/**
 * The product page's main image comes from the shop's own origin (/media/…), preloaded from the
 * head, so its largest paint needs no connection to the storage origin; /media serves only the
 * public image buckets.
 */
import { expect, test } from './fixtures';

const PRODUCT = 'op-tournament-op-01';

test('the product page loads its main image from /media on the shop’s origin, preloaded with high priority', async ({ page, baseURL }) => {
  await page.goto(`/product/${PRODUCT}`);
  const preload = page.locator('link[rel="preload"][as="image"]');
  await expect(preload).toHaveAttribute('href', new RegExp(`^/media/products/${PRODUCT}`));
  await expect(preload).toHaveAttribute('fetchpriority', 'high');
  const main = page.getByRole('main').locator('img').first();
  await expect(main).toHaveAttribute('src', new RegExp(`^/media/products/${PRODUCT}`));
  await expect.poll(() => main.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const origins = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => e.name.includes(`/media/`))
      .map((e) => new URL(e.name).origin),
  );
  expect(origins.length).toBeGreaterThan(0);
  expect(new Set(origins)).toEqual(new Set([new URL(baseURL!).origin]));
});

test('/media answers catalogue images with a day of caching, and nothing else', async ({ request }) => {
  const image = await request.get(`/media/products/${PRODUCT}-1.svg`);
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toContain('image/svg+xml');
  expect(image.headers()['cache-control']).toContain('max-age=86400');
  expect((await image.body()).length).toBeGreaterThan(100);
  for (const path of ['/media/products/no-existe.svg', '/media/avatars/x.png', '/media/products/..%2F..%2Fetc%2Fpasswd', '/media/products']) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(404);
  }
});
