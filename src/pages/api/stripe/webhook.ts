import type { APIRoute } from 'astro';
import { stripeWebhook } from '~/server/payments/stripe-webhook.ts';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

/** Signed Stripe notifications. */
export const POST: APIRoute = ({ request }) => handle(async () => stripeWebhook(request, serverContext()));
