/**
 * Pure helpers behind the <Seo> and <JsonLd> components: absolute URLs for canonical links and
 * link previews, and schema.org breadcrumbs.
 */

/** The canonical URL of a page: the site origin plus the path, without query or fragment. */
export function canonicalUrl(pathname: string, site: URL | string): string {
  const url = new URL(pathname, site);
  url.search = '';
  url.hash = '';
  return url.href;
}

/** An absolute URL for a root-relative or absolute path; undefined for blank input. */
export function absoluteUrl(path: string | null | undefined, site: URL | string): string | undefined {
  const value = (path ?? '').trim();
  return value === '' ? undefined : new URL(value, site).href;
}

/** One step of a breadcrumb trail; the current page has no href. */
export interface Crumb {
  name: string;
  href?: string;
}

/** A schema.org BreadcrumbList for the trail, with absolute item URLs. */
export function breadcrumbJsonLd(trail: readonly Crumb[], site: URL | string, currentPath: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.name,
      item: canonicalUrl(crumb.href ?? currentPath, site),
    })),
  };
}

/**
 * JSON for a <script type="application/ld+json">: '<' is escaped so a value containing
 * '</script>' cannot end the element early.
 */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
