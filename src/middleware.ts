/**
 * The shop's one middleware: /explore's answers are handed out as they were rendered while they
 * are still right (src/server/explore/rendered.ts). Every other page and endpoint, and every page
 * prerendered at build time, goes straight through.
 */
import { defineMiddleware } from 'astro:middleware';
import { exploreCatalogue } from '~/server/explore/catalogue.ts';
import { KEPT_PATHS, RenderedAnswers } from '~/server/explore/rendered.ts';

const explore = new RenderedAnswers();

export const onRequest = defineMiddleware(async (context, next) => {
  if (context.isPrerendered || context.request.method !== 'GET') return next();
  const path = context.url.pathname.replace(/\/+$/, '');
  if (!KEPT_PATHS.has(path)) return next();
  const catalogue = await exploreCatalogue();
  return explore.answer(`${path}${context.url.search}`, catalogue, async () => {
    const response = await next();
    // The page names the products it shows (src/pages/explore.astro, explore/resultados.astro).
    return { response, shown: context.locals.exploreShown ?? null };
  });
});
