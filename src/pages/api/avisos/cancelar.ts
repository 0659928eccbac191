/** POST /api/avisos/cancelar: cancels a restock alert by the token of its e-mail's link (no sign-in). */
import type { APIRoute } from 'astro';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';
import { postCancelAlert } from '~/server/alerts/cancel.ts';

export const prerender = false;

export const POST: APIRoute = ({ request }) => handle(() => postCancelAlert(request, serverContext()));
