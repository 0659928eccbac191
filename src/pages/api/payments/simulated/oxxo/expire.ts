import type { APIRoute } from 'astro';
import { simulatedOxxoExpire } from '~/server/payments/simulated.ts';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

/** Makes the order's voucher expire now, as Stripe reports it (simulated provider only; tests). */
export const POST: APIRoute = ({ request }) => handle(async () => simulatedOxxoExpire(request, serverContext()));
