import type { APIRoute } from 'astro';
import { confirmPayment } from '~/server/payments/cards.ts';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

/** Server-side check of a card payment the browser reports as successful. */
export const POST: APIRoute = ({ request }) => handle(async () => confirmPayment(request, serverContext()));
