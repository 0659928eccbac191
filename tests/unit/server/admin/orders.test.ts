/**
 * The back office's order actions with a stand-in database: only admins, the order id checked,
 * the status change asked of the database as the admin (its refusals become 403, 404 or 409 with
 * its message), then the shopper's e-mail once per order and status, which never fails the change.
 * The refunds against the local stack: tests/server (settle-once, oxxo-store-credit).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminContext } from '~/server/context.ts';
import { notifyShopper, refundOptionsOf, setOrderStatus } from '~/server/admin/orders.ts';
import { fakeSupabase, type Result } from '../../../support/fake-supabase.ts';

const ORDER_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

afterEach(() => {
  vi.restoreAllMocks();
});

/** An admin context: the service role's database answers `results`, the admin's own answers `asAdmin`. */
function context(results: Record<string, Result[]>, asAdmin: Record<string, Result[]> = {}, isAdmin = true) {
  const service = fakeSupabase({ profiles: [{ data: { is_admin: isAdmin }, error: null }], ...results });
  service.auth.getUser.mockResolvedValue({ data: { user: { id: 'admin-1', email: 'admin@tienda.mx' } }, error: null });
  const admin = Object.assign(service.client, {
    auth: { ...service.auth, admin: { getUserById: vi.fn(async () => ({ data: { user: { email: 'comprador@correo.test' } } })) } },
  });
  const own = fakeSupabase(asAdmin);
  const mail = vi.fn(async () => undefined);
  const asUser = vi.fn(() => own.client);
  const ctx = { admin, asUser, mail, siteUrl: 'https://tienda.mx', payments: { mode: 'simulated', card: null, paypal: null } } as unknown as AdminContext;
  return { ctx, mail, asUser, own: own.calls };
}

const request = (body: unknown) =>
  new Request('https://tienda.mx/api/admin/orders/x/status', {
    method: 'POST',
    headers: { authorization: 'Bearer tok', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const shipped = { id: ORDER_ID, status: 'Enviado', carrier: 'DHL', tracking_number: '123' };
const statusRow = {
  id: ORDER_ID,
  user_id: 'u1',
  total: '100.00',
  carrier: 'DHL',
  tracking_number: '123',
  payment_method: 'card',
  credit_applied: 0,
  refund_ref: null,
};

describe('setOrderStatus', () => {
  it('moves the order as the admin and e-mails the shopper once per order and status', async () => {
    const { ctx, mail, asUser, own } = context(
      { orders: [{ data: statusRow, error: null }] },
      { 'rpc:admin_set_order_status': [{ data: shipped, error: null }] },
    );
    const answer = await setOrderStatus(request({ status: 'Enviado', carrier: 'DHL', trackingNumber: ' 123 ' }), ctx, ORDER_ID);
    expect(await answer.json()).toEqual({ id: ORDER_ID, status: 'Enviado', carrier: 'DHL', trackingNumber: '123' });
    expect(asUser).toHaveBeenCalledWith('tok');
    expect(own[0]!.steps[0]!.args[0]).toEqual({ order_id: ORDER_ID, new_status: 'Enviado', carrier: 'DHL', tracking_number: '123', note: null });
    expect(mail).toHaveBeenCalledOnce();
    expect(mail.mock.calls[0]).toEqual([
      expect.objectContaining({ to: 'comprador@correo.test', kind: 'order_enviado', dedupeKey: `order_status:${ORDER_ID}:Enviado` }),
    ]);
  });

  it('refuses anyone but an admin, an order id that is no uuid, and a status it does not offer', async () => {
    await expect(setOrderStatus(request({ status: 'Enviado' }), context({}, {}, false).ctx, ORDER_ID)).rejects.toMatchObject({ status: 403 });
    await expect(setOrderStatus(request({ status: 'Enviado' }), context({}).ctx, 'pedido-1')).rejects.toMatchObject({ status: 404, code: 'order_not_found' });
    await expect(setOrderStatus(request({ status: 'Pagado' }), context({}).ctx, ORDER_ID)).rejects.toMatchObject({ status: 400 });
  });

  it("answers the database's refusals with its message: 403 for a non-admin, 404 for no order, 409 for a move it refuses", async () => {
    const refusing = (error: Record<string, string>) => context({}, { 'rpc:admin_set_order_status': [{ data: null, error }] }).ctx;
    await expect(setOrderStatus(request({ status: 'Enviado' }), refusing({ code: '42501', message: 'No tienes acceso' }), ORDER_ID)).rejects.toMatchObject({
      status: 403,
    });
    await expect(
      setOrderStatus(request({ status: 'Enviado' }), refusing({ code: 'P0001', message: 'No existe', details: 'order_not_found' }), ORDER_ID),
    ).rejects.toMatchObject({
      status: 404,
    });
    await expect(
      setOrderStatus(request({ status: 'Enviado' }), refusing({ code: 'P0001', message: 'Falta el número de guía.', details: 'tracking_required' }), ORDER_ID),
    ).rejects.toMatchObject({ status: 409, code: 'tracking_required', message: 'Falta el número de guía.' });
    await expect(setOrderStatus(request({ status: 'Enviado' }), refusing({ code: 'XX000', message: 'caído' }), ORDER_ID)).rejects.toThrow(
      'admin_set_order_status: caído',
    );
  });
});

describe('notifyShopper', () => {
  it('sends nothing for an order that is not there, and never fails the change when the e-mail cannot be queued', async () => {
    const missing = context({ orders: [{ data: null, error: null }] });
    await notifyShopper(missing.ctx, ORDER_ID, 'Enviado');
    expect(missing.mail).not.toHaveBeenCalled();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const broken = context({ orders: [{ data: null, error: { message: 'caído' } }] });
    await expect(notifyShopper(broken.ctx, ORDER_ID, 'Enviado')).resolves.toBeUndefined();
    expect(console.error).toHaveBeenCalledOnce();
  });
});

describe('refundOptionsOf', () => {
  it('answers 404 for an order that is not there, after checking the admin', async () => {
    const get = new Request('https://tienda.mx/api/admin/orders/x/refund', { headers: { authorization: 'Bearer tok' } });
    await expect(refundOptionsOf(get, context({ orders: [{ data: null, error: null }] }).ctx, ORDER_ID)).rejects.toMatchObject({ status: 404 });
    await expect(refundOptionsOf(get, context({}, {}, false).ctx, ORDER_ID)).rejects.toMatchObject({ status: 403 });
  });
});
