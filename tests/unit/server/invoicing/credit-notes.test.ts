/**
 * Queuing credit notes with a stand-in database: each refunded sale the database reports is sent
 * back with its refund key, the amount still to credit, one concept with its IVA broken out and
 * the forma de pago of the original sale; a replay is not counted, a refusal or a sale without a
 * known payment is only logged, and an unreadable list throws.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerContext } from '~/server/context.ts';
import { requestDueCreditNotes } from '~/server/invoicing/credit-notes.ts';
import type { InvoiceProvider } from '~/server/invoicing/types.ts';
import { orderDisplayId } from '~/domain/orders.ts';
import { fakeSupabase, type Call, type Result } from '../../../support/fake-supabase.ts';
import { ORDER_ID } from './invoice-row.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const OTHER_ORDER = '1e0b7c2a-3d4f-4a5b-8c6d-7e8f9a0b1c2d';
const provider = { name: 'facturapi', testMode: true } as unknown as InvoiceProvider;

function context(results: Record<string, Result[]>) {
  const db = fakeSupabase(results);
  return { ctx: { admin: db.client } as unknown as ServerContext, calls: db.calls };
}

const rpcArgs = (calls: Call[], name: string) => calls.filter((c) => c.table === `rpc:${name}`).map((c) => c.steps[0]!.args[0] as Record<string, unknown>);

describe('requestDueCreditNotes', () => {
  it('queues one credit note per refunded sale, for what is left to credit, with the sale’s payment form', async () => {
    const { ctx, calls } = context({
      'rpc:invoice_credit_notes_due': [
        {
          data: [
            {
              order_id: ORDER_ID,
              refund_key: `refund:${ORDER_ID}:0123456789abcdef`,
              amount: 116000,
              payment: { payment_method: 'oxxo', total: 1160, credit_applied: 0 },
            },
            {
              order_id: OTHER_ORDER,
              refund_key: `refund:${OTHER_ORDER}:fedcba9876543210`,
              amount: 20000,
              payment: { payment_method: 'card', total: 500, credit_applied: '400.00' },
            },
          ],
          error: null,
        },
      ],
      'rpc:request_credit_note': [
        { data: { id: 'nc-1', status: 'pending', replayed: false }, error: null },
        { data: { id: 'nc-2', status: 'pending', replayed: true }, error: null },
      ],
    });
    expect(await requestDueCreditNotes(ctx, provider)).toBe(1);
    expect(rpcArgs(calls, 'invoice_credit_notes_due')).toEqual([{ p_provider: 'facturapi', p_limit: 50 }]);
    const sent = rpcArgs(calls, 'request_credit_note');
    const number = orderDisplayId(ORDER_ID);
    expect(sent[0]).toEqual({
      p_order_id: ORDER_ID,
      p_refund_key: `refund:${ORDER_ID}:0123456789abcdef`,
      p_amount: 116000,
      p_concepts: [
        {
          description: `Devolución del pedido ${number}`,
          quantity: 1,
          productKey: '84111506',
          unitKey: 'ACT',
          sku: number.slice(1),
          amount: 116000,
          discount: 0,
          base: 100000,
          iva: 16000,
        },
      ],
      p_payment_form: '01',
      p_provider: 'facturapi',
    });
    // Paid mostly with the balance: '17' compensación, the form of the original sale.
    expect(sent[1]).toMatchObject({ p_order_id: OTHER_ORDER, p_amount: 20000, p_payment_form: '17' });
    expect((sent[1]!.p_concepts as Array<{ base: number; iva: number }>)[0]).toMatchObject({ base: 17241, iva: 2759 });
  });

  it('logs a refusal or an unknown payment and goes on; throws when the list cannot be read', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { ctx, calls } = context({
      'rpc:invoice_credit_notes_due': [
        {
          data: [
            { order_id: ORDER_ID, refund_key: 'refund:a', amount: 100, payment: { payment_method: null, total: 1, credit_applied: 0 } },
            { order_id: OTHER_ORDER, refund_key: 'refund:b', amount: 100, payment: { payment_method: 'paypal', total: 1, credit_applied: 0 } },
            { order_id: null, refund_key: null, amount: null, payment: null },
          ],
          error: null,
        },
      ],
      'rpc:request_credit_note': [{ data: null, error: { message: 'global_not_issued' } }],
    });
    expect(await requestDueCreditNotes(ctx, provider)).toBe(0);
    expect(rpcArgs(calls, 'request_credit_note').map((a) => [a.p_order_id, a.p_payment_form])).toEqual([[OTHER_ORDER, '31']]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalledTimes(1);
    const broken = context({ 'rpc:invoice_credit_notes_due': [{ data: null, error: { message: 'sin conexión' } }] });
    await expect(requestDueCreditNotes(broken.ctx, provider)).rejects.toThrow('invoice_credit_notes_due: sin conexión');
  });
});
