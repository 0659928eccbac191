/** GET /api/admin/newsletter.csv: the subscribers as CSV (admins only). */
import type { APIRoute } from 'astro';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';
import { newsletterCsv } from '~/server/admin/newsletter.ts';

export const prerender = false;

export const GET: APIRoute = ({ request }) => handle(() => newsletterCsv(request, serverContext()));
