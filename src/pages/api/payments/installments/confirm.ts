import type { APIRoute } from 'astro';
import { confirmInstallments } from '~/server/payments/installments.ts';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

/** Confirms the order's card payment with the chosen plan, checked against the provider's (Stripe). */
export const POST: APIRoute = ({ request }) => handle(async () => confirmInstallments(request, serverContext()));
