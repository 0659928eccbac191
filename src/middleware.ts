/**
 * The shop's one middleware: /explore's answers are handed out as they were rendered while they
 * are still right (src/server/explore/rendered.ts), and a page's scripts are asked for after its
 * first image when the page says so (`Astro.locals.scriptsAfterFirstImage`, src/server/late-scripts.ts:
 * /explore, and the product pages, prerendered at build time or rendered on request). Every other
 * page and endpoint goes straight through.
 */
import { defineMiddleware } from 'astro:middleware';
import { exploreCatalogue } from '~/server/explore/catalogue.ts';
import { KEPT_PATHS, RenderedAnswers } from '~/server/explore/rendered.ts';
import { scriptsAfterFirstImage } from '~/server/late-scripts.ts';

const explore = new RenderedAnswers();

export const onRequest = defineMiddleware(async (context, next) => {
  const path = context.url.pathname.replace(/\/+$/, '');
  if (context.isPrerendered || context.request.method !== 'GET' || !KEPT_PATHS.has(path)) return lateScripts(context.locals, await next());
  const catalogue = await exploreCatalogue();
  return explore.answer(`${path}${context.url.search}`, catalogue, async () => {
    const response = await lateScripts(context.locals, await next());
    // The page names the products it shows (src/pages/explore.astro, explore/resultados.astro).
    return { response, shown: context.locals.exploreShown ?? null };
  });
});

/** The page with its scripts asked for after its first image, when it said so; any other answer as it is. */
async function lateScripts(locals: App.Locals, rendered: Response): Promise<Response> {
  if (!locals.scriptsAfterFirstImage || rendered.status !== 200) return rendered;
  return new Response(scriptsAfterFirstImage(await rendered.text()), { status: rendered.status, headers: withoutLength(rendered.headers) });
}

/** The headers of an answer whose body is about to change length. */
function withoutLength(headers: Headers): Headers {
  const copy = new Headers(headers);
  copy.delete('content-length');
  return copy;
}
