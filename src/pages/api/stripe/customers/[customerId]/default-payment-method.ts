import type { APIRoute } from 'astro';
import { setDefaultPaymentMethod } from '~/server/payments/cards.ts';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

/** Makes one of the caller's cards the default. */
export const POST: APIRoute = ({ request, params }) => handle(async () => setDefaultPaymentMethod(request, serverContext(), params.customerId));
