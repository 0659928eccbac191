import type { APIRoute } from 'astro';
import { simulatedOxxoPay } from '~/server/payments/simulated.ts';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

/** 'Simular pago en OXXO' from the checkout (simulated provider only). */
export const POST: APIRoute = ({ request }) => handle(async () => simulatedOxxoPay(request, serverContext()));
