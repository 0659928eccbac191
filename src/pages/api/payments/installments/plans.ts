import type { APIRoute } from 'astro';
import { installmentPlans } from '~/server/payments/installments.ts';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

/** The 'meses sin intereses' plans of the card on the order's intent (Stripe). */
export const POST: APIRoute = ({ request }) => handle(async () => installmentPlans(request, serverContext()));
