/**
 * The path a page is shown at: `Astro.url.pathname`, or for a catalogue page the running server
 * renders after an edit (src/pages/catalog-render/) the path the build would have prerendered it
 * at, so both give the same canonical link, breadcrumbs and current menu entry.
 */
export function pagePath(astro: { locals: App.Locals; url: URL }): string {
  return astro.locals.catalogPagePath ?? astro.url.pathname;
}
