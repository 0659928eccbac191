/** POST /api/admin/orders/{id}/status: ship, complete or cancel an order (admins only). */
import type { APIRoute } from 'astro';
import { adminContext } from '~/server/context.ts';
import { setOrderStatus } from '~/server/admin/orders.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

export const POST: APIRoute = ({ request, params }) => handle(() => setOrderStatus(request, adminContext(), params.id));
