import type { APIRoute } from 'astro';
import { listPaymentMethods } from '~/server/payments/cards.ts';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

/** The caller's saved cards. */
export const GET: APIRoute = ({ request }) => handle(async () => listPaymentMethods(request, serverContext()));
