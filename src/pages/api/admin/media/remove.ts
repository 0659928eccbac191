/**
 * /api/admin/media/remove (admins only): POST {paths}, after a product or an offer drops or
 * replaces images: removes each original no product or offer uses any more, with its copies.
 */
import type { APIRoute } from 'astro';
import { serverContext } from '~/server/context.ts';
import { removeImages } from '~/server/admin/media-variants.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

export const POST: APIRoute = ({ request }) => handle(() => removeImages(request, serverContext()));
