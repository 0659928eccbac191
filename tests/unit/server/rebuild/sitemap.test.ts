import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { updateSitemap } from '~/server/rebuild/sitemap.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A served client folder. */
function fakeClient(): string {
  const client = fs.mkdtempSync(path.join(os.tmpdir(), 'sitemap-'));
  dirs.push(client);
  return client;
}

describe('sitemap after an incremental build', () => {
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);

  it('adds new pages and drops removed ones, in files of at most 50,000 URLs under the index', () => {
    const client = fakeClient();
    fs.writeFileSync(
      path.join(client, 'sitemap-index.xml'),
      '<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://tienda.mx/sitemap-0.xml</loc></sitemap></sitemapindex>',
    );
    fs.writeFileSync(
      path.join(client, 'sitemap-0.xml'),
      '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://tienda.mx/</loc></url><url><loc>https://tienda.mx/product/viejo/</loc></url><url><loc>https://tienda.mx/faq/</loc></url></urlset>',
    );
    const added = Array.from({ length: 50_000 }, (_, i) => `/product/nuevo-${String(i).padStart(5, '0')}`);
    // A JSON feed is not a page: it never goes into the sitemap.
    updateSitemap(client, [...added, '/search/6162.json'], ['/product/viejo']);

    const index = locs(fs.readFileSync(path.join(client, 'sitemap-index.xml'), 'utf8'));
    expect(index).toEqual(['https://tienda.mx/sitemap-0.xml', 'https://tienda.mx/sitemap-1.xml']);
    const first = locs(fs.readFileSync(path.join(client, 'sitemap-0.xml'), 'utf8'));
    const second = locs(fs.readFileSync(path.join(client, 'sitemap-1.xml'), 'utf8'));
    expect(first).toHaveLength(50_000);
    expect(first.length + second.length).toBe(50_002);
    const all = [...first, ...second];
    expect(all).toContain('https://tienda.mx/');
    expect(all).toContain('https://tienda.mx/faq/');
    expect(all).toContain('https://tienda.mx/product/nuevo-49999/');
    expect(all).not.toContain('https://tienda.mx/product/viejo/');
    expect(all.some((url) => url!.includes('.json'))).toBe(false);

    // Removing them again shrinks it back to one file, and the second one goes.
    updateSitemap(client, [], added);
    expect(locs(fs.readFileSync(path.join(client, 'sitemap-index.xml'), 'utf8'))).toEqual(['https://tienda.mx/sitemap-0.xml']);
    expect(fs.existsSync(path.join(client, 'sitemap-1.xml'))).toBe(false);
  });
});
