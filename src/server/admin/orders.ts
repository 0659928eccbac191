/**
 * The back office's order actions, independent of Astro so tests can call them with a plain
 * Request. Status changes run the database function admin_set_order_status WITH THE ADMIN'S OWN
 * TOKEN, so the database (not this code) decides who may move an order and where to; the server
 * then queues the shopper's e-mail in the outbox. Refunds go through the provider that took the
 * money (refundCharge); complete_refund then sets 'Reembolsado' and returns the stock.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../../data/database.types.ts';
import { z } from 'zod';
import { CARRIERS } from '../../domain/orders.ts';
import { findOrder, orderAmount, type ServerContext } from '../checkout.ts';
import { ApiError, json, readJson } from '../http.ts';
import { refundCharge } from '../refunds.ts';
import { requireAdminCaller } from './auth.ts';
import { statusEmail } from './emails.ts';

/** The server context plus a database client that acts as a given signed-in user. */
export interface AdminContext extends ServerContext {
  asUser(token: string): SupabaseClient<Database>;
}

const UUID = z.string().uuid({ error: 'El pedido no es válido.' });

const statusBody = z.object({
  status: z.enum(['Procesando', 'Enviado', 'Completado', 'Cancelado'], { error: 'Estado no válido.' }),
  carrier: z.enum(CARRIERS, { error: 'Elige la paquetería.' }).optional().nullable(),
  trackingNumber: z.string({ error: 'Escribe el número de guía.' }).trim().max(100, { error: 'Escribe el número de guía (hasta 100 caracteres).' }).optional().nullable(),
  note: z.string().trim().max(500, { error: 'La nota no puede pasar de 500 caracteres.' }).optional().nullable(),
});

/** What admin_set_order_status answers: the order after the change. */
const statusChange = z.object({ id: z.string(), status: z.string(), carrier: z.string().nullable(), tracking_number: z.string().nullable() });

function orderIdFrom(raw: string | undefined): string {
  const parsed = UUID.safeParse(raw ?? '');
  if (!parsed.success) throw new ApiError(404, 'Pedido no encontrado.', 'order_not_found');
  return parsed.data;
}

/** The shopper's e-mail address, or null when the account is gone. */
async function customerEmail(ctx: ServerContext, userId: string): Promise<string | null> {
  const { data } = await ctx.admin.auth.admin.getUserById(userId);
  return data?.user?.email ?? null;
}

/** Queues the status e-mail once per order and status; a failure is logged, never thrown. */
export async function notifyShopper(ctx: ServerContext, orderId: string, status: string): Promise<void> {
  try {
    const { data, error } = await ctx.admin.from('orders').select('id, user_id, total, carrier, tracking_number').eq('id', orderId).maybeSingle();
    if (error || !data) return;
    const order = data;
    const email = statusEmail(status, order, ctx.siteUrl);
    const to = await customerEmail(ctx, order.user_id);
    if (!email || !to) return;
    await ctx.mail({ to, ...email, kind: `order_${status.toLowerCase()}`, dedupeKey: `order_status:${order.id}:${status}` });
  } catch (failure) {
    console.error(`[correo] no se pudo avisar del pedido ${orderId} (${status})`, failure);
  }
}

/**
 * POST /api/admin/orders/{id}/status {status, carrier?, trackingNumber?, note?}: moves the order
 * through admin_set_order_status as the admin, then e-mails the shopper. A refusal of the
 * database (impossible transition, missing tracking number) is a 409 with its Spanish message.
 */
export async function setOrderStatus(request: Request, ctx: AdminContext, rawOrderId: string | undefined): Promise<Response> {
  const caller = await requireAdminCaller(request, ctx.admin);
  const orderId = orderIdFrom(rawOrderId);
  const body = await readJson(request, statusBody);
  const { data, error } = await ctx.asUser(caller.token).rpc('admin_set_order_status', {
    order_id: orderId,
    new_status: body.status,
    carrier: body.carrier ?? null,
    tracking_number: body.trackingNumber ?? null,
    note: body.note ?? null,
  });
  if (error) {
    if (error.code === '42501') throw new ApiError(403, error.message || 'No tienes acceso', 'forbidden');
    if (error.code === 'P0001') {
      const notFound = (error.details ?? '').includes('order_not_found');
      throw new ApiError(notFound ? 404 : 409, error.message, notFound ? 'order_not_found' : (error.details || 'refused'));
    }
    throw new Error(`admin_set_order_status: ${error.message}`);
  }
  const parsed = statusChange.safeParse(data);
  if (!parsed.success) throw new Error('admin_set_order_status: respuesta inesperada');
  const result = parsed.data;
  await notifyShopper(ctx, orderId, result.status);
  return json({ id: result.id, status: result.status, carrier: result.carrier, trackingNumber: result.tracking_number });
}

/**
 * POST /api/admin/orders/{id}/refund: 'Cancelar y reembolsar'. Only for paid, processing or
 * shipped orders; the full stored total goes back through the provider that took it.
 */
export async function refundOrder(request: Request, ctx: AdminContext, rawOrderId: string | undefined): Promise<Response> {
  await requireAdminCaller(request, ctx.admin);
  const orderId = orderIdFrom(rawOrderId);
  const order = await findOrder(ctx, orderId);
  if (!order) throw new ApiError(404, 'Pedido no encontrado.', 'order_not_found');
  if (!['Pagado', 'Procesando', 'Enviado'].includes(order.status)) {
    throw new ApiError(409, `Solo se reembolsa un pedido pagado, en proceso o enviado; este está «${order.status}».`, 'order_not_refundable');
  }
  if (!order.payment_provider || !order.payment_ref) {
    throw new ApiError(409, 'El pedido no tiene un pago registrado que reembolsar.', 'no_payment');
  }
  const outcome = await refundCharge(
    ctx,
    { orderId: order.id, provider: order.payment_provider, ref: order.payment_ref, amount: orderAmount(order) },
    'shop',
  );
  if (outcome.status === 'succeeded' && outcome.orderStatus === 'Reembolsado') {
    await notifyShopper(ctx, order.id, 'Reembolsado');
    return json({ id: order.id, status: 'Reembolsado', refund: 'succeeded' });
  }
  if (outcome.status === 'failed') {
    return json(
      { id: order.id, status: order.status, refund: 'failed', message: 'El proveedor de pago no hizo el reembolso; queda en «Reembolsos por revisar» y se reintentará.' },
      502,
    );
  }
  return json({ id: order.id, status: outcome.orderStatus ?? order.status, refund: outcome.status, message: 'El reembolso ya está en curso.' }, 202);
}
