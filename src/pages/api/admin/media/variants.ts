/**
 * /api/admin/media/variants (admins only): POST {path}, after the back office uploads a photo:
 * makes its AVIF, WebP and JPEG copies at each width, or refuses (and removes) what is not an image.
 */
import type { APIRoute } from 'astro';
import { serverContext } from '~/server/context.ts';
import { makeVariants } from '~/server/admin/media-variants.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

export const POST: APIRoute = ({ request }) => handle(() => makeVariants(request, serverContext()));
