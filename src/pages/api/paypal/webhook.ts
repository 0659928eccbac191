import type { APIRoute } from 'astro';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';
import { paypalWebhook } from '~/server/payments/paypal-webhook.ts';

export const prerender = false;

/** PayPal's notifications, confirmed by PayPal (verify-webhook-signature) before anything is read. */
export const POST: APIRoute = ({ request }) => handle(async () => paypalWebhook(request, serverContext()));
