import type { APIRoute } from 'astro';
import { serverContext } from '~/server/context.ts';
import { handle } from '~/server/http/json.ts';
import { storeCreditPayment } from '~/server/payments/pay-with-balance.ts';

export const prerender = false;

/** 'Usar saldo a favor' at the payment step: applies (or gives back) the caller's balance. */
export const POST: APIRoute = ({ request }) => handle(async () => storeCreditPayment(request, serverContext()));
