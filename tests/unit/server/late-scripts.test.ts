import { describe, expect, it } from 'vitest';
import { FIRST_IMAGE_TIMING } from '~/domain/images.ts';
import { lateScriptsLoader, rewriteServedPage, scriptsAfterFirstImage } from '~/server/late-scripts.ts';

const CARD_IMAGE = `<img src="/media/products/a.svg" alt="" width="300" height="300" loading="eager" fetchpriority="high" decoding="async" elementtiming="${FIRST_IMAGE_TIMING}">`;
const CARD_ADD = '<button type="button" data-card-add="{&quot;productId&quot;:&quot;a&quot;}">Agregar</button>';

function page(body: string, head = ''): string {
  return `<!DOCTYPE html><html lang="es-MX"><head>${head}<script>window.a=1</script></head><body>${body}</body></html>`;
}

describe('scriptsAfterFirstImage', () => {
  it("takes a page's module scripts out and asks for them, in order and once each, from one inline script at the end", () => {
    const inPage = page(
      [
        '<header><script type="module" src="/_astro/Header.abc.js"></script></header>',
        `<main><ul><li>${CARD_IMAGE}${CARD_ADD}</li></ul><script type="module" src="/_astro/ProductCard.def.js"></script>`,
        '<script type="module" src="/_astro/explore.ghi.js"></script><script type="module" src="/_astro/ProductCard.def.js"></script></main>',
        '<script type="application/ld+json">{"@type":"ItemList"}</script><script>addEventListener("submit",()=>{})</script>',
      ].join(''),
      '<link rel="preload" as="image" href="/media/products/a.svg" fetchpriority="high">',
    );
    // The page's own script, after </html> as Astro writes it.
    const html = `${inPage}<script type="module" src="/_astro/explore.ghi.js"></script>`;
    const late = scriptsAfterFirstImage(html);
    expect(late).not.toMatch(/<script type="module"/);
    const loader = lateScriptsLoader(['/_astro/Header.abc.js', '/_astro/ProductCard.def.js', '/_astro/explore.ghi.js']);
    expect(late.endsWith(`<script>${loader}</script></body></html>`)).toBe(true);
    expect(late.match(/<script>\(\(\)=>\{const urls=/g)).toHaveLength(1);
    // Everything else is where it was.
    expect(late).toContain('<script>window.a=1</script>');
    expect(late).toContain('<script type="application/ld+json">{"@type":"ItemList"}</script><script>addEventListener("submit",()=>{})</script>');
    expect(late).toContain(CARD_IMAGE);
    expect(late.replace(`<script>${loader}</script>`, '')).toBe(html.replace(/<script type="module" src="[^"]+"><\/script>/g, ''));
  });

  it('leaves a page without a first image, without module scripts or without a body as it was', () => {
    const noImage = page('<main><p>Sin resultados</p><script type="module" src="/_astro/explore.ghi.js"></script></main>');
    expect(scriptsAfterFirstImage(noImage)).toBe(noImage);
    const lazyImage = page('<img src="/a.svg" loading="lazy"><script type="module" src="/_astro/x.js"></script>');
    expect(scriptsAfterFirstImage(lazyImage)).toBe(lazyImage);
    const noScripts = page(`<main>${CARD_IMAGE}</main>`);
    expect(scriptsAfterFirstImage(noScripts)).toBe(noScripts);
    const fragment = `<div>${CARD_IMAGE}<script type="module" src="/_astro/x.js"></script></div>`;
    expect(scriptsAfterFirstImage(fragment)).toBe(fragment);
  });

  it('asks for the scripts once the browser reports the image painted (else decoded and a frame drawn), at most two seconds later, and holds early taps on Agregar', () => {
    const loader = lateScriptsLoader(['/_astro/a.js']);
    expect(loader).toContain('["/_astro/a.js"]');
    expect(loader).toContain(`image.getAttribute('elementtiming')==="${FIRST_IMAGE_TIMING}"`);
    expect(loader).toContain(".observe({type:'element',buffered:true})");
    expect(loader).toContain('image.decode().then(painted,painted)');
    expect(loader).toContain('requestAnimationFrame(later)');
    expect(loader).toContain("image.addEventListener('error',later)");
    expect(loader).toContain('setTimeout(start,2000)');
    expect(loader).toContain("closest('button[data-card-add]')");
    expect(loader).toContain('script.async=false');
    // It is a script a browser can run.
    expect(() => new Function(loader)).not.toThrow();
  });

  it("a product page's first image as React writes it (fetchPriority), with no card to hold taps for and no element timing: the loader carries neither", () => {
    const gallery =
      '<img src="/media/products/a.1500x2100.480w.jpg" alt="Luffy" width="429" height="600" fetchPriority="high" loading="eager" decoding="async"/>';
    const html = page(
      `<main><form data-prebuilt><button type="submit">Agregar al carrito</button></form>${gallery}</main><script type="module" src="/_astro/ProductDetail.x.js"></script>`,
    );
    const late = scriptsAfterFirstImage(html);
    const loader = lateScriptsLoader(['/_astro/ProductDetail.x.js'], { holdCardAdds: false, elementTiming: false });
    expect(late.endsWith(`<script>${loader}</script></body></html>`)).toBe(true);
    expect(late).not.toMatch(/<script type="module"/);
    expect(loader).not.toContain('data-card-add');
    expect(loader).not.toContain('PerformanceObserver');
    expect(loader).toContain('image.decode().then(painted,painted)');
    expect(loader).toContain('setTimeout(start,2000)');
    expect(() => new Function(loader)).not.toThrow();
    // With a card's 'Agregar' and an image that reports its paint, the whole loader.
    const cards = page(
      `<ul><li><img src="/a.svg" fetchpriority="high" elementtiming="${FIRST_IMAGE_TIMING}"><button data-card-add="{}">Agregar</button></li></ul><script type="module" src="/_astro/x.js"></script>`,
    );
    expect(scriptsAfterFirstImage(cards)).toContain(`<script>${lateScriptsLoader(['/_astro/x.js'])}</script>`);
  });

  it('is applied where the server sends a product page, and nowhere else', () => {
    const html = page(`<main>${CARD_IMAGE}</main><script type="module" src="/_astro/ProductDetail.x.js"></script>`);
    for (const url of ['/product/pk-1', '/product/pk-1/', '/product/pk-1/?oferta=nm-en-holo']) {
      expect(rewriteServedPage(url, html)).toBe(scriptsAfterFirstImage(html));
    }
    expect(rewriteServedPage('/product/pk-1/', html)).not.toBe(html);
    for (const url of ['/', '/explore', '/cart', '/product/', '/product/pk-1/reviews', '/franchise/pokemon', undefined]) {
      expect(rewriteServedPage(url, html)).toBe(html);
    }
  });
});
