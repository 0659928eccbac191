import type { APIRoute } from 'astro';
import { capturePayPalOrder } from '~/server/payments/paypal.ts';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

/** Captures an approved PayPal order and marks the order paid. */
export const POST: APIRoute = ({ request }) => handle(async () => capturePayPalOrder(request, serverContext()));
