import type { APIRoute } from 'astro';
import { json } from '~/server/http/json.ts';

export const prerender = false;

/**
 * The shop's clock, {"now": <ms since the epoch>}: a timed drop's countdown (src/scripts/drops.ts)
 * measures how far the browser's clock is off with it. Never cached.
 */
export const GET: APIRoute = () => json({ now: Date.now() });
