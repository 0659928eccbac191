/**
 * The caller's customer at the card provider: read from the profile, created once and stored,
 * and the checks that a customer or saved card a request names is the caller's own.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ServerContext } from '~/server/context.ts';
import { ensureCustomer, requireOwnCard, requireOwnCustomer, storedCustomerId } from '~/server/payments/customers.ts';
import { fakeSupabase, type Result } from '../../../support/fake-supabase.ts';

const caller = { id: 'u1', email: 'a@b.mx' };

function context(profiles: Result[], card: Record<string, unknown> = {}) {
  const fake = fakeSupabase({ profiles });
  const provider = {
    customerExists: vi.fn(async () => true),
    createCustomer: vi.fn(async () => 'cus_nuevo'),
    paymentMethodCustomer: vi.fn(async () => null),
    ...card,
  };
  return { ctx: { admin: fake.client, payments: { mode: 'live', card: provider, paypal: null } } as unknown as ServerContext, calls: fake.calls, provider };
}

const profile = (id: string | null): Result => ({ data: { stripe_customer_id: id }, error: null });

describe('storedCustomerId', () => {
  it('reads the id on the profile, none for an empty one or no profile', async () => {
    expect(await storedCustomerId(context([profile('cus_1')]).ctx, 'u1')).toBe('cus_1');
    expect(await storedCustomerId(context([profile('')]).ctx, 'u1')).toBeNull();
    expect(await storedCustomerId(context([{ data: null, error: null }]).ctx, 'u1')).toBeNull();
    await expect(storedCustomerId(context([{ data: null, error: { message: 'caído' } }]).ctx, 'u1')).rejects.toThrow('profiles: caído');
  });
});

describe('ensureCustomer', () => {
  it('uses the stored customer while the provider still has it', async () => {
    const { ctx, provider } = context([profile('cus_1')]);
    expect(await ensureCustomer(ctx, caller)).toBe('cus_1');
    expect(provider.createCustomer).not.toHaveBeenCalled();
  });

  it('creates one when there is none, or the provider lost it, and stores it on the profile', async () => {
    const { ctx, calls, provider } = context([profile('cus_viejo'), { data: null, error: null }], { customerExists: vi.fn(async () => false) });
    expect(await ensureCustomer(ctx, caller)).toBe('cus_nuevo');
    expect(provider.createCustomer).toHaveBeenCalledWith(caller);
    expect(calls[1]!.steps).toEqual([
      { method: 'update', args: [{ stripe_customer_id: 'cus_nuevo' }] },
      { method: 'eq', args: ['id', 'u1'] },
    ]);
  });
});

describe('ownership', () => {
  it("refuses (403) a customer that is not the caller's", async () => {
    await expect(requireOwnCustomer(context([profile('cus_1')]).ctx, caller, 'cus_1')).resolves.toBeUndefined();
    await expect(requireOwnCustomer(context([profile('cus_1')]).ctx, caller, 'cus_2')).rejects.toMatchObject({ status: 403 });
    await expect(requireOwnCustomer(context([profile(null)]).ctx, caller, 'cus_1')).rejects.toMatchObject({ status: 403 });
  });

  it("answers a saved card's customer when it is the caller's, 404 for an unknown card and 403 for another's", async () => {
    const own = context([profile('cus_1')], { paymentMethodCustomer: vi.fn(async () => 'cus_1') });
    expect(await requireOwnCard(own.ctx, caller, 'pm_1')).toBe('cus_1');
    await expect(requireOwnCard(context([profile('cus_1')]).ctx, caller, 'pm_x')).rejects.toMatchObject({ status: 404, code: 'payment_method_not_found' });
    const other = context([profile('cus_1')], { paymentMethodCustomer: vi.fn(async () => 'cus_2') });
    await expect(requireOwnCard(other.ctx, caller, 'pm_2')).rejects.toMatchObject({ status: 403 });
  });
});
