import type { APIRoute } from 'astro';
import { cancelOxxoVoucher } from '~/server/payments/oxxo.ts';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';

export const prerender = false;

/** 'Cancelar la ficha': cancels the order's OXXO voucher at Stripe, then the order. */
export const POST: APIRoute = ({ request }) => handle(async () => cancelOxxoVoucher(request, serverContext()));
