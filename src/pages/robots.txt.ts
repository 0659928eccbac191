/**
 * /robots.txt: crawl everything public; keep private and transactional routes out. Points at the
 * sitemap index that @astrojs/sitemap writes next to it.
 */
import type { APIRoute } from 'astro';

export const prerender = true;

/** Paths crawlers have no business in: personal pages, checkout, admin and the API. */
export const DISALLOWED = ['/account', '/checkout', '/admin', '/api'] as const;

/** The robots.txt text for a site origin. */
export function robotsTxt(site: URL | string): string {
  const sitemap = new URL('/sitemap-index.xml', site).href;
  return ['User-agent: *', 'Allow: /', ...DISALLOWED.map((path) => `Disallow: ${path}`), '', `Sitemap: ${sitemap}`, ''].join('\n');
}

export const GET: APIRoute = ({ site, url }) => new Response(robotsTxt(site ?? url.origin), { headers: { 'content-type': 'text/plain; charset=utf-8' } });
