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
 * The inline script is allowed by the Content-Security-Policy like every inline script of a page:
 * by its hash, computed from the page as it is sent (src/server/security-headers.ts).
 */

import { FIRST_IMAGE_TIMING } from '~/domain/images';

/** A module script as Astro writes it. */
const MODULE_SCRIPT = /<script type="module" src="([^"<>]+)"><\/script>/g;
/** The first screen's image, as the cards and the product page mark it. */
const FIRST_IMAGE = /<img\b[^>]*\bfetchpriority="high"/;

/** The inline script that asks for `urls` after the first image; exported for the tests. */
export function lateScriptsLoader(urls: readonly string[]): string {
  // JSON of plain paths: no '<' can end the script early (MODULE_SCRIPT excludes it).
  return `(()=>{const urls=${JSON.stringify(urls)},root=document.documentElement,held=[];
const hold=(event)=>{const button=event.target instanceof Element?event.target.closest('button[data-card-add]'):null;
if(!button||root.dataset.cardAdd==='ready')return;event.preventDefault();event.stopImmediatePropagation();if(!held.includes(button))held.push(button)};
addEventListener('click',hold,true);
let started=false,left=urls.length;
const ran=()=>{if(--left>0)return;removeEventListener('click',hold,true);for(const button of held.splice(0))if(button.isConnected)button.click()};
const start=()=>{if(started)return;started=true;
for(const url of urls){const script=document.createElement('script');script.type='module';script.async=false;script.src=url;
script.addEventListener('load',ran);script.addEventListener('error',ran);document.head.append(script)}};
const image=document.querySelector('img[fetchpriority="high"]');
if(!image)return start();
const later=()=>setTimeout(start,0);
setTimeout(start,2000);image.addEventListener('error',later);
if(image.getAttribute('elementtiming')===${JSON.stringify(FIRST_IMAGE_TIMING)}&&PerformanceObserver.supportedEntryTypes?.includes('element')){
new PerformanceObserver((list,observer)=>{if(list.getEntries().some((entry)=>entry.identifier===${JSON.stringify(FIRST_IMAGE_TIMING)})){observer.disconnect();later()}}).observe({type:'element',buffered:true});return}
const painted=()=>requestAnimationFrame(later);
image.decode().then(painted,painted)})();`;
}

/**
 * The page with its module scripts asked for after its first image (see above); a page without
 * such an image, or without module scripts, comes back as it was.
 */
export function scriptsAfterFirstImage(html: string): string {
  const end = html.lastIndexOf('</body>');
  if (end === -1 || !FIRST_IMAGE.test(html)) return html;
  // A page's own script comes after </html> (as Astro writes it when the layout has no place for it).
  const urls = [...html.matchAll(MODULE_SCRIPT)].map((match) => match[1]!);
  if (urls.length === 0) return html;
  const loader = `<script>${lateScriptsLoader([...new Set(urls)])}</script>`;
  return `${html.slice(0, end).replace(MODULE_SCRIPT, '')}${loader}${html.slice(end).replace(MODULE_SCRIPT, '')}`;
}
