/** POST /api/orders {items, coupon_code, waitlist}: the signed-in shopper's order (src/server/orders/create.ts). */
import type { APIRoute } from 'astro';
import { orderContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';
import { postOrder } from '~/server/orders/create.ts';

export const prerender = false;

export const POST: APIRoute = ({ request }) => handle(() => postOrder(request, orderContext()));
