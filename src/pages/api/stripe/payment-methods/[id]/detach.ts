import type { APIRoute } from 'astro';
import { detachPaymentMethod } from '~/server/payments/cards.ts';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

/** Removes one of the caller's cards. */
export const POST: APIRoute = ({ request, params }) => handle(async () => detachPaymentMethod(request, serverContext(), params.id));
