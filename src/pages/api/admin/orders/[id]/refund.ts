/** POST /api/admin/orders/{id}/refund: 'Cancelar y reembolsar' through the payment provider (admins only). */
import type { APIRoute } from 'astro';
import { adminContext } from '~/server/context.ts';
import { refundOrder } from '~/server/admin/orders.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

export const POST: APIRoute = ({ request, params }) => handle(() => refundOrder(request, adminContext(), params.id));
