/** A chargeback on an order that used the balance: recorded once so the balance is held for an admin. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { centavos } from '~/domain/money.ts';
import type { ServerContext } from '~/server/context.ts';
import { recordChargeback, type Chargeback } from '~/server/payments/chargebacks.ts';
import { fakeSupabase, type Result } from '../../../support/fake-supabase.ts';

const chargeback: Chargeback = {
  orderId: 'o1',
  provider: 'stripe',
  paymentRef: 'pi_1',
  disputeRef: 'dp_1',
  amount: centavos(50_000),
  creditApplied: centavos(20_000),
  note: 'Contracargo de Stripe.',
};

function context(results: Result[]) {
  const fake = fakeSupabase({ 'rpc:record_chargeback': results });
  return { ctx: { admin: fake.client } as unknown as ServerContext, calls: fake.calls };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('recordChargeback', () => {
  it('holds nothing, and asks nothing, for an order that used no balance', async () => {
    const { ctx, calls } = context([]);
    expect(await recordChargeback(ctx, { ...chargeback, creditApplied: centavos(0) })).toBe(false);
    expect(calls).toHaveLength(0);
  });

  it('records the chargeback with the amounts in pesos and a note for the back office, and logs it once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { ctx, calls } = context([{ data: { id: 'cb1', recorded: true }, error: null }]);
    expect(await recordChargeback(ctx, chargeback)).toBe(true);
    expect(calls[0]!.steps[0]!.args[0]).toEqual({
      p_order_id: 'o1',
      p_provider: 'stripe',
      p_payment_ref: 'pi_1',
      p_dispute_ref: 'dp_1',
      p_amount: 500,
      p_note: 'Contracargo de Stripe. El saldo a favor de $200.00 usado en el pedido queda retenido hasta que decidas si se devuelve.',
    });
    expect(warn).toHaveBeenCalledOnce();
  });

  it('answers true without a log for a chargeback delivered again, and leaves out an amount the provider did not give', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { ctx, calls } = context([{ data: { id: 'cb1', recorded: false }, error: null }]);
    expect(await recordChargeback(ctx, { ...chargeback, amount: null })).toBe(true);
    expect(calls[0]!.steps[0]!.args[0]).not.toHaveProperty('p_amount');
    expect(warn).not.toHaveBeenCalled();
  });

  it('answers false when the database holds nothing, and fails on its errors and odd answers', async () => {
    expect(await recordChargeback(context([{ data: { id: null, recorded: false }, error: null }]).ctx, chargeback)).toBe(false);
    await expect(recordChargeback(context([{ data: null, error: { message: 'sin permiso' } }]).ctx, chargeback)).rejects.toThrow(
      'record_chargeback: sin permiso',
    );
    await expect(recordChargeback(context([{ data: { recorded: 'sí' }, error: null }]).ctx, chargeback)).rejects.toThrow();
  });
});
