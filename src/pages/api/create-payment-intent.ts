import type { APIRoute } from 'astro';
import { createPaymentIntent } from '~/server/payments/cards.ts';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

/** The card payment of the caller's order. */
export const POST: APIRoute = ({ request }) => handle(async () => createPaymentIntent(request, serverContext()));
