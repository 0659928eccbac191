/**
 * The served sitemap after a rebuild that did not render it: sitemap-index.xml and its parts as
 * @astrojs/sitemap writes them in a full build, brought up to date with the pages an incremental
 * build added or removed, or the pages the other parts of a full build in parts rendered.
 */
import fs from 'node:fs';
import path from 'node:path';
import { replaceFile } from './served-folder.ts';

const SITEMAP_LIMIT = 50_000;
const URLSET_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">';

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const unescapeXml = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/**
 * Brings the served sitemap up to date after an incremental build: URLs of pages that appeared
 * are added, of pages that went away removed, in files of at most 50,000 URLs under
 * sitemap-index.xml, as @astrojs/sitemap writes them in a full build. Pages first, index last.
 */
export function updateSitemap(client: string, added: string[], removed: string[]): void {
  const pages = (paths: string[]) => paths.filter((urlPath) => !/\.[a-z0-9]+$/i.test(urlPath));
  const add = pages(added);
  const drop = pages(removed);
  if (add.length === 0 && drop.length === 0) return;
  const index = path.join(client, 'sitemap-index.xml');
  let indexXml = '';
  try {
    indexXml = fs.readFileSync(index, 'utf8');
  } catch {
    return;
  }
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => unescapeXml(match[1]!));
  const parts = locs(indexXml);
  if (parts.length === 0) return;
  const origin = new URL(parts[0]!).origin;
  const urls = new Set<string>();
  for (const part of parts) {
    try {
      for (const loc of locs(fs.readFileSync(path.join(client, new URL(part).pathname), 'utf8'))) urls.add(loc);
    } catch {
      // A part that is gone has no URLs to keep.
    }
  }
  const toUrl = (urlPath: string) => `${origin}${urlPath === '/' ? '/' : `${urlPath}/`}`;
  for (const urlPath of drop) urls.delete(toUrl(urlPath));
  for (const urlPath of add) urls.add(toUrl(urlPath));
  const sorted = [...urls].sort();
  const count = Math.max(1, Math.ceil(sorted.length / SITEMAP_LIMIT));
  for (let n = 0; n < count; n++) {
    const chunk = sorted.slice(n * SITEMAP_LIMIT, (n + 1) * SITEMAP_LIMIT);
    replaceFile(path.join(client, `sitemap-${n}.xml`), `${URLSET_OPEN}${chunk.map((url) => `<url><loc>${escapeXml(url)}</loc></url>`).join('')}</urlset>`);
  }
  const names = Array.from({ length: count }, (_, n) => `<sitemap><loc>${escapeXml(`${origin}/sitemap-${n}.xml`)}</loc></sitemap>`);
  replaceFile(
    index,
    `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${names.join('')}</sitemapindex>`,
  );
  for (let n = count; fs.existsSync(path.join(client, `sitemap-${n}.xml`)); n++) fs.rmSync(path.join(client, `sitemap-${n}.xml`), { force: true });
}
