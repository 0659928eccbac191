/**
 * POST /api/internal/sweep: one run of the payments sweeper (src/server/sweeper.ts); GET: when this
 * process last swept and what it did. Only for the shop's own servers and their operators: the
 * caller must present the service role key as its bearer token.
 */
import type { APIRoute } from 'astro';
import { SUPABASE_SERVICE_ROLE_KEY } from 'astro:env/server';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';
import { getSweep, postSweep } from '~/server/sweeper.ts';

export const prerender = false;

export const POST: APIRoute = ({ request }) => handle(() => postSweep(request, serverContext, SUPABASE_SERVICE_ROLE_KEY));
export const GET: APIRoute = ({ request }) => handle(() => getSweep(request, SUPABASE_SERVICE_ROLE_KEY));
