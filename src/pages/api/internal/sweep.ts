/**
 * POST /api/internal/sweep: one run of the payments sweeper (src/server/sweeper.ts); GET: when this
 * process last swept and what it did. Only for the shop's own servers and their operators: the
 * caller must present the service role key as its bearer token.
 */
import { timingSafeEqual } from 'node:crypto';
import { hostname } from 'node:os';
import type { APIRoute } from 'astro';
import { SUPABASE_SERVICE_ROLE_KEY } from 'astro:env/server';
import { bearerToken } from '../../../server/auth.ts';
import { serverContext } from '../../../server/context.ts';
import { ApiError, handle, json } from '../../../server/http.ts';
import { sweep, type SweepReport } from '../../../server/sweeper.ts';

export const prerender = false;

const holder = `${hostname()}-${process.pid}`;
let last: { at: string; report: SweepReport } | null = null;

function sameSecret(given: string | null, expected: string | undefined): boolean {
  if (!given || !expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function requireShop(request: Request): void {
  if (!sameSecret(bearerToken(request), SUPABASE_SERVICE_ROLE_KEY)) throw new ApiError(401, 'No autorizado.', 'not_authorized');
}

export const POST: APIRoute = ({ request }) =>
  handle(async () => {
    requireShop(request);
    const at = new Date().toISOString();
    // The server's periodic sweep: this process stays the sweeper while it runs (src/server/sweeper.ts).
    const report = await sweep(serverContext(), holder, { keepLease: true });
    last = { at, report };
    return json(report);
  });

export const GET: APIRoute = ({ request }) =>
  handle(async () => {
    requireShop(request);
    return json({ holder, last });
  });
