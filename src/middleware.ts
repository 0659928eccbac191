/**
 * The shop's one middleware: /explore's answers are handed out as they were rendered while they
 * are still right (src/server/explore/rendered.ts), the page's scripts asked for after its first
 * image when the page says so (`Astro.locals.scriptsAfterFirstImage`, src/server/late-scripts.ts;
 * scripts/serve.mjs does the same for product pages as it sends them).
 * Every other page and endpoint, and every page prerendered at build time, goes straight through.
 */
import { defineMiddleware } from 'astro:middleware';
import { exploreCatalog } from '~/server/explore/catalog.ts';
import { keptKey, KEPT_PATHS, RenderedAnswers } from '~/server/explore/rendered.ts';
import { scriptsAfterFirstImage } from '~/server/late-scripts.ts';

const explore = new RenderedAnswers();

export const onRequest = defineMiddleware(async (context, next) => {
  if (context.isPrerendered || context.request.method !== 'GET') return next();
  const path = context.url.pathname.replace(/\/+$/, '');
  if (!KEPT_PATHS.has(path)) return next();
  const catalog = await exploreCatalog();
  // Kept by what the page shows, not by the address as typed (keptKey).
  return explore.answer(keptKey(path, context.url.search), catalog, async () => {
    const rendered = await next();
    const response =
      context.locals.scriptsAfterFirstImage && rendered.status === 200
        ? new Response(scriptsAfterFirstImage(await rendered.text()), { status: rendered.status, headers: withoutLength(rendered.headers) })
        : rendered;
    // The page names the products it shows (src/pages/explore.astro, explore/resultados.astro).
    return { response, shown: context.locals.exploreShown ?? null };
  });
});

/** The headers of an answer whose body is about to change length. */
function withoutLength(headers: Headers): Headers {
  const copy = new Headers(headers);
  copy.delete('content-length');
  return copy;
}
