import type { APIRoute } from 'astro';
import { simulatedConfirm } from '~/server/payments/simulated.ts';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

/** The simulated card form's payment (simulated provider only). */
export const POST: APIRoute = ({ request }) => handle(async () => simulatedConfirm(request, serverContext()));
