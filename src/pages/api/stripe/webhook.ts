import type { APIRoute } from 'astro';
import { webhook } from '../../../server/api.ts';
import { serverContext } from '../../../server/context.ts';
import { handle } from '../../../server/http/json.ts';

export const prerender = false;

/** Signed Stripe notifications. */
export const POST: APIRoute = ({ request }) => handle(async () => webhook(request, serverContext()));
