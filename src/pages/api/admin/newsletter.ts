/** GET /api/admin/newsletter: the subscribers and their count (admins only). */
import type { APIRoute } from 'astro';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';
import { newsletterList } from '~/server/admin/newsletter.ts';

export const prerender = false;

export const GET: APIRoute = ({ request }) => handle(() => newsletterList(request, serverContext()));
