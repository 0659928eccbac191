/**
 * The simulated providers' records: the in-memory store the unit tests use, the database store's
 * calls and the answers it refuses, the ids, and a full refund once per charge.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import type { Database } from '~/data/database.types.ts';
import { databaseSimStore, memorySimStore, newId, simulatedRefund } from '~/server/payments/providers/simulated-records.ts';
import { fakeSupabase } from '../../../../support/fake-supabase.ts';

const record = { id: 'pi_sim_1', kind: 'payment_intent' as const, owner: 'cus_1', status: 'succeeded', data: { amount: 10_000 } };

describe('memorySimStore', () => {
  it('stores once per idempotency key, lists by kind and owner, and moves a status only from the states given', async () => {
    const store = memorySimStore();
    const first = await store.put(record, 'clave-1');
    expect(await store.put({ ...record, id: 'pi_sim_2' }, 'clave-1')).toEqual(first);
    expect(await store.get('pi_sim_2')).toBeNull();
    await store.put({ ...record, id: 'pm_sim_1', kind: 'payment_method' });
    expect((await store.list('payment_intent', 'cus_1')).map((r) => r.id)).toEqual(['pi_sim_1']);
    expect(await store.update('pi_sim_1', ['requires_payment_method'], 'canceled')).toBeNull();
    expect(await store.update('pi_sim_1', ['succeeded'], 'refunded', { note: 'x' })).toMatchObject({ status: 'refunded', data: { amount: 10_000, note: 'x' } });
    expect(await store.setOwner('pi_sim_1', null)).toBe(true);
    expect(await store.setOwner('nada', null)).toBe(false);
  });

  it('hands out copies, so a change to what it answered is not stored', async () => {
    const store = memorySimStore();
    const stored = await store.put(record);
    stored.data.amount = 1;
    expect((await store.get('pi_sim_1'))?.data.amount).toBe(10_000);
  });
});

describe('databaseSimStore', () => {
  const row = { ...record, created_at: '2026-11-01T00:00:00Z' };

  it("calls the service role's functions and reads their records", async () => {
    const fake = fakeSupabase({ 'rpc:simulated_payments_put': [{ data: row, error: null }], 'rpc:simulated_payments_list': [{ data: [row], error: null }] });
    const store = databaseSimStore(fake.client as unknown as SupabaseClient<Database>);
    expect(await store.put(record, 'clave')).toEqual(row);
    expect(fake.calls[0]!.steps[0]!.args[0]).toEqual({
      p_id: 'pi_sim_1',
      p_kind: 'payment_intent',
      p_owner: 'cus_1',
      p_status: 'succeeded',
      p_data: { amount: 10_000 },
      p_idempotency_key: 'clave',
    });
    expect(await store.list('payment_intent', 'cus_1')).toEqual([row]);
  });

  it('answers null for a record that is not there, and fails on a database error or an answer that is no record', async () => {
    const missing = databaseSimStore(
      fakeSupabase({ 'rpc:simulated_payments_get': [{ data: null, error: null }] }).client as unknown as SupabaseClient<Database>,
    );
    expect(await missing.get('x')).toBeNull();
    const failing = databaseSimStore(
      fakeSupabase({ 'rpc:simulated_payments_get': [{ data: null, error: { message: 'sin permiso' } }] }).client as unknown as SupabaseClient<Database>,
    );
    await expect(failing.get('x')).rejects.toThrow('simulated_payments_get: sin permiso');
    const odd = databaseSimStore(
      fakeSupabase({ 'rpc:simulated_payments_get': [{ data: { id: 'x' }, error: null }] }).client as unknown as SupabaseClient<Database>,
    );
    await expect(odd.get('x')).rejects.toThrow(/simulated_payments_get: respuesta inesperada/);
  });
});

describe('newId', () => {
  it('makes a distinct id with the provider-style prefix', () => {
    const id = newId('pi');
    expect(id).toMatch(/^pi_sim_[0-9a-f]{24}$/);
    expect(newId('pi')).not.toBe(id);
  });
});

describe('simulatedRefund', () => {
  it('refunds a completed charge in full once, however often it is asked', async () => {
    const store = memorySimStore();
    await store.put(record);
    const refund = await simulatedRefund(store, 'pi_sim_1', 'payment_intent', 10_000, 'r-1');
    expect(refund).toEqual({ id: expect.stringMatching(/^re_sim_/), status: 'succeeded' });
    expect(await simulatedRefund(store, 'pi_sim_1', 'payment_intent', 10_000, 'r-2')).toEqual(refund);
    expect((await store.get('pi_sim_1'))?.data.refund_id).toBe(refund.id);
  });

  it('refuses an unknown charge, another amount and a charge that took no money', async () => {
    const store = memorySimStore();
    await store.put(record);
    await store.put({ id: 'P-1', kind: 'paypal_order', owner: null, status: 'APPROVED', data: { amount: 500 } });
    await expect(simulatedRefund(store, 'pi_sim_1', 'paypal_order', 10_000, 'k')).rejects.toMatchObject({ status: 404, code: 'charge_not_found' });
    await expect(simulatedRefund(store, 'pi_sim_1', 'payment_intent', 9_999, 'k')).rejects.toMatchObject({ status: 400, code: 'refund_amount_mismatch' });
    await expect(simulatedRefund(store, 'P-1', 'paypal_order', 500, 'k')).rejects.toMatchObject({ status: 409, code: 'charge_not_captured' });
  });
});
