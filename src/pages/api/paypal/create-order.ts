import type { APIRoute } from 'astro';
import { createPayPalOrder } from '~/server/payments/paypal.ts';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

/** Creates the PayPal order for the caller's order. */
export const POST: APIRoute = ({ request }) => handle(async () => createPayPalOrder(request, serverContext()));
