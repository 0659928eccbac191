/**
 * POST /api/internal/sweep: one run of the payments sweeper (src/server/sweeper.ts). Only for the
 * shop's own servers: the caller must present the service role key as its bearer token.
 */
import { timingSafeEqual } from 'node:crypto';
import { hostname } from 'node:os';
import type { APIRoute } from 'astro';
import { SUPABASE_SERVICE_ROLE_KEY } from 'astro:env/server';
import { bearerToken } from '../../../server/auth.ts';
import { serverContext } from '../../../server/context.ts';
import { ApiError, handle, json } from '../../../server/http.ts';
import { sweep } from '../../../server/sweeper.ts';

export const prerender = false;

const holder = `${hostname()}-${process.pid}`;

function sameSecret(given: string | null, expected: string | undefined): boolean {
  if (!given || !expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const POST: APIRoute = ({ request }) =>
  handle(async () => {
    if (!sameSecret(bearerToken(request), SUPABASE_SERVICE_ROLE_KEY)) throw new ApiError(401, 'No autorizado.', 'not_authorized');
    return json(await sweep(serverContext(), holder));
  });
