import type { APIRoute } from 'astro';
import { simulatedInstallmentPlans } from '~/server/payments/simulated.ts';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

/** The simulated issuer's 'meses sin intereses' plans for a typed card (simulated provider only). */
export const POST: APIRoute = ({ request }) => handle(async () => simulatedInstallmentPlans(request, serverContext()));
