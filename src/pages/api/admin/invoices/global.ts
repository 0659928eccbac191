/** POST /api/admin/invoices/global {year, month}: the month's factura global (admins only). */
import type { APIRoute } from 'astro';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';
import { postGlobalInvoice } from '~/server/invoicing/endpoints.ts';

export const prerender = false;

export const POST: APIRoute = ({ request }) => handle(() => postGlobalInvoice(request, serverContext()));
