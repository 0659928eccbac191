/**
 * /api/admin/orders/{id}/refund (admins only): GET, the ways this order can be refunded; POST,
 * 'Cancelar y reembolsar' in one of them.
 */
import type { APIRoute } from 'astro';
import { adminContext } from '~/server/context.ts';
import { refundOptionsOf, refundOrder } from '~/server/admin/orders.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

export const GET: APIRoute = ({ request, params }) => handle(() => refundOptionsOf(request, adminContext(), params.id));

export const POST: APIRoute = ({ request, params }) => handle(() => refundOrder(request, adminContext(), params.id));
