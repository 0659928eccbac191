/**
 * POST /api/internal/sweep: one run of the payments sweeper (src/server/sweeper.ts); GET: when this
 * process last swept and what it did. Only for the shop's own servers and their operators: the
 * caller must present the service role key as its bearer token.
 */
import { hostname } from 'node:os';
import type { APIRoute } from 'astro';
import { SUPABASE_SERVICE_ROLE_KEY } from 'astro:env/server';
import { requireShopServer } from '../../../server/http/auth.ts';
import { serverContext } from '../../../server/context.ts';
import { handle, json } from '../../../server/http/json.ts';
import { sweep, type SweepReport } from '../../../server/sweeper.ts';

export const prerender = false;

const holder = `${hostname()}-${process.pid}`;
let last: { at: string; report: SweepReport } | null = null;

export const POST: APIRoute = ({ request }) =>
  handle(async () => {
    requireShopServer(request, SUPABASE_SERVICE_ROLE_KEY);
    const at = new Date().toISOString();
    // The server's periodic sweep: this process stays the sweeper while it runs (src/server/sweeper.ts).
    const report = await sweep(serverContext(), holder, { keepLease: true });
    last = { at, report };
    return json(report);
  });

export const GET: APIRoute = ({ request }) =>
  handle(async () => {
    requireShopServer(request, SUPABASE_SERVICE_ROLE_KEY);
    return json({ holder, last });
  });
