import type { APIRoute } from 'astro';
import { simulatedOxxoCounter } from '~/server/payments/simulated.ts';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

/** The simulated voucher page of the voucher e-mail; posted, it pays the voucher (simulated provider only). */
export const POST: APIRoute = ({ request, params }) => handle(async () => simulatedOxxoCounter(request, serverContext(), params.intentId));
export const GET: APIRoute = ({ request, params }) => handle(async () => simulatedOxxoCounter(request, serverContext(), params.intentId));
