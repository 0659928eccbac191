/**
 * What every product page and listing loads for timed drops: a look for a drop on the page. Only a
 * page that has one (a countdown, or an add button held until a drop: see ProductDetail.astro and
 * ProductCard.astro) loads the countdown itself (./drops.ts), so the others carry no more code.
 */
export function mountDrops(root: Document = document): void {
  if (root.querySelector('[data-drop-notice], button[data-drop-at]')) void import('./drops.ts').then(({ startDrops }) => startDrops(root));
}
