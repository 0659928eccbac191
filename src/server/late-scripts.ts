/**
 * A page's scripts asked for once its first image is on screen.
 *
 * Astro writes each component's script as `<script type="module" src="/_astro/…">`, and a
 * browser asks for all of them as soon as it reads the page, together with the page's first image
 * (its largest paint). On a phone's network they share the connection: the scripts of /explore
 * (about 17 KB) arrive with the first card's image and make the first screen later.
 * scriptsAfterFirstImage takes those tags out of a page that has such an image
 * (`fetchpriority="high"`) and adds one small inline script at its end that asks for them, in the
 * same order, once that image is on screen (after two seconds at most, at once if the image is not
 * there or fails):
 *
 *   - where the browser reports when an element was painted (Element Timing: Chrome, Edge and so
 *     most phones; the image carries `elementtiming`, FIRST_IMAGE_TIMING), once it reports the
 *     image painted. A frame drawn by the page is on the screen some time after it was drawn (on a
 *     slow phone tens of milliseconds), and scripts asked for in between still share the
 *     connection and the processor with that first screen;
 *   - elsewhere, once the image is decoded and a frame has been drawn.
 *
 * What the page's scripts do is all there before they run: the results, filters and 'Ver más' are
 * HTML and links, and the filters script reads what was chosen before it ran. The one thing a
 * script alone does is a card's 'Agregar': a tap on it before the scripts ran is held and made
 * again once they have run, so it is never lost. Taps on the same button in that time count once,
 * as the shopper saw nothing happen after the first.
 *
 * Measured on /explore at 100,000 products (docs/benchmarks-log.md): Lighthouse's mobile LCP, and on a
 * phone-like connection the first screen sooner and the buttons live a little later.
 *
 * Where: /explore's answers in the middleware (src/middleware.ts), and a product's page where the
 * server sends it (rewriteServedPage, scripts/serve.mjs), so its build writes it as before. On a
 * product page the header's and the page's scripts (live stock, the cart badge) wait; its buy box
 * and gallery are islands that wake on their own, and a form sent before they are live is held
 * (src/islands/prebuilt.ts). A single's page with a photo, Lighthouse mobile, five runs each on
 * 2026-11-30 (docs/benchmarks.md): LCP 1.38 s as built, 0.91 s with its scripts after the image.
 *
 * The inline script is allowed by the Content-Security-Policy like every inline script of a page:
 * by its hash, computed from the page as it is sent (src/server/security-headers.ts).
 */

import { FIRST_IMAGE_TIMING } from '~/domain/images';

/** A module script as Astro writes it. */
const MODULE_SCRIPT = /<script type="module" src="([^"<>]+)"><\/script>/g;
/** The first screen's image, as the cards and the product page mark it. */
const FIRST_IMAGE = /<img\b[^>]*\bfetchpriority="high"[^>]*>/i;
/** A card's 'Agregar' button (ProductCard.astro). */
const CARD_ADD = /<button\b[^>]*\bdata-card-add=/;

/**
 * The inline script that asks for `urls` after the first image; exported for the tests. It holds
 * early taps on a card's 'Agregar' only where the page has such a button (holdCardAdds), and waits
 * for the browser's report of the image painted only where the image asks for one (elementTiming):
 * a product page has neither, and every byte of the loader counts in its 12 KB of JavaScript.
 */
export function lateScriptsLoader(
  urls: readonly string[],
  { holdCardAdds = true, elementTiming = true }: { holdCardAdds?: boolean; elementTiming?: boolean } = {},
): string {
  // JSON of plain paths: no '<' can end the script early (MODULE_SCRIPT excludes it).
  const hold = holdCardAdds
    ? `const root=document.documentElement,held=[];
const hold=(event)=>{const button=event.target instanceof Element?event.target.closest('button[data-card-add]'):null;
if(!button||root.dataset.cardAdd==='ready')return;event.preventDefault();event.stopImmediatePropagation();if(!held.includes(button))held.push(button)};
addEventListener('click',hold,true);
let left=urls.length;
const ran=()=>{if(--left>0)return;removeEventListener('click',hold,true);for(const button of held.splice(0))if(button.isConnected)button.click()};
`
    : '';
  const timing = elementTiming
    ? `if(image.getAttribute('elementtiming')===${JSON.stringify(FIRST_IMAGE_TIMING)}&&PerformanceObserver.supportedEntryTypes?.includes('element')){
new PerformanceObserver((list,observer)=>{if(list.getEntries().some((entry)=>entry.identifier===${JSON.stringify(FIRST_IMAGE_TIMING)})){observer.disconnect();later()}}).observe({type:'element',buffered:true});return}
`
    : '';
  const listen = holdCardAdds ? `script.addEventListener('load',ran);script.addEventListener('error',ran);` : '';
  return `(()=>{const urls=${JSON.stringify(urls)};
${hold}let started=false;
const start=()=>{if(started)return;started=true;
for(const url of urls){const script=document.createElement('script');script.type='module';script.async=false;script.src=url;
${listen}document.head.append(script)}};
const image=document.querySelector('img[fetchpriority="high"]');
if(!image)return start();
const later=()=>setTimeout(start,0);
setTimeout(start,2000);image.addEventListener('error',later);
${timing}const painted=()=>requestAnimationFrame(later);
image.decode().then(painted,painted)})();`;
}

/**
 * The page with its module scripts asked for after its first image (see above); a page without
 * such an image, or without module scripts, comes back as it was.
 */
export function scriptsAfterFirstImage(html: string): string {
  const end = html.lastIndexOf('</body>');
  const image = end === -1 ? null : FIRST_IMAGE.exec(html);
  if (!image) return html;
  // A page's own script comes after </html> (as Astro writes it when the layout has no place for it).
  const urls = [...html.matchAll(MODULE_SCRIPT)].map((match) => match[1]!);
  if (urls.length === 0) return html;
  const loader = `<script>${lateScriptsLoader([...new Set(urls)], {
    holdCardAdds: CARD_ADD.test(html),
    elementTiming: image[0].includes(`elementtiming="${FIRST_IMAGE_TIMING}"`),
  })}</script>`;
  return `${html.slice(0, end).replace(MODULE_SCRIPT, '')}${loader}${html.slice(end).replace(MODULE_SCRIPT, '')}`;
}

/** A product's page, as its address is asked for (`/product/<id>`, with or without its slash or a query). */
const PRODUCT_PAGE = /^\/product\/[^/?#]+\/?(?:[?#]|$)/;

/**
 * scriptsAfterFirstImage for the pages it is applied to where the server sends them
 * (scripts/serve.mjs): a product's page, prerendered, whose first image is its largest paint
 * (the product page's LCP, docs/benchmarks.md). The build writes the page as it always did.
 */
export function rewriteServedPage(url: string | undefined, html: string): string {
  return url !== undefined && PRODUCT_PAGE.test(url) ? scriptsAfterFirstImage(html) : html;
}
