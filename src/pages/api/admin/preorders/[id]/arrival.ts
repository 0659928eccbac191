/**
 * /api/admin/preorders/{id}/arrival (admins only): POST {quantity, key}, 'Registrar llegada' of a
 * preorder campaign: fills, waitlists or refunds its paid preorders and e-mails each shopper.
 */
import type { APIRoute } from 'astro';
import { adminContext } from '~/server/context.ts';
import { registerArrival } from '~/server/admin/preorders.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

export const POST: APIRoute = ({ request, params }) => handle(() => registerArrival(request, adminContext(), params.id));
