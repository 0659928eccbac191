/** GET /api/invoices/{id}/pdf and /xml: a factura's files, for its shopper or an admin. */
import type { APIRoute } from 'astro';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';
import { getInvoiceFile } from '~/server/invoicing/endpoints.ts';

export const prerender = false;

export const GET: APIRoute = ({ request, params }) => handle(() => getInvoiceFile(request, serverContext(), params.id, params.format));
