import type { APIRoute } from 'astro';
import { createCustomer } from '~/server/payments/cards.ts';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

/** The caller's payment customer, created on first use. */
export const POST: APIRoute = ({ request }) => handle(async () => createCustomer(request, serverContext()));
