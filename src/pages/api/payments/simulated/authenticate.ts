import type { APIRoute } from 'astro';
import { simulatedAuthenticate } from '~/server/payments/simulated.ts';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

/** The simulated card's authentication step. */
export const POST: APIRoute = ({ request }) => handle(async () => simulatedAuthenticate(request, serverContext()));
