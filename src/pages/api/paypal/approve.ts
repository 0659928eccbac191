import type { APIRoute } from 'astro';
import { approveSimulatedPayPal } from '~/server/payments/paypal.ts';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

/** The simulated PayPal window's approval (simulated provider only). */
export const POST: APIRoute = ({ request }) => handle(async () => approveSimulatedPayPal(request, serverContext()));
