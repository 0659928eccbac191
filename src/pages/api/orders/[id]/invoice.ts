/** POST /api/orders/{id}/invoice {key}: the signed-in owner asks for the factura of a paid order. */
import type { APIRoute } from 'astro';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';
import { postOrderInvoice } from '~/server/invoicing/endpoints.ts';

export const prerender = false;

export const POST: APIRoute = ({ request, params }) => handle(() => postOrderInvoice(request, serverContext(), params.id));
