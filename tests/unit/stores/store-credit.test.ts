import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { centavos } from '~/domain/money.ts';
import { fakeSupabase } from '../../support/fake-supabase.ts';

let fake = fakeSupabase();
let subscribed: { topic: string; filter: unknown } | null = null;
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => {
    const channel = {
      on: (_type: string, filter: unknown) => {
        subscribed = { ...subscribed!, filter };
        return channel;
      },
      subscribe: () => channel,
    };
    return {
      ...fake.client,
      channel: (topic: string) => {
        subscribed = { topic, filter: null };
        return channel;
      },
      removeChannel: async () => 'ok',
    };
  },
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const data = await import('~/data/store-credit.ts');
const store = await import('~/stores/store-credit.ts');
const { subscribeToUserRows } = await import('~/data/realtime.ts');

const ORDER = '5f0c8e3a-1b2c-4d5e-8f90-a1b2c3d4e5f6';
const entry = (over: Record<string, unknown> = {}) => ({
  id: 7,
  amount: 35000,
  balance_after: 35000,
  reason: 'oxxo_payment',
  order_id: ORDER,
  created_at: '2026-11-25T18:30:00Z',
  ...over,
});

beforeEach(() => {
  fake = fakeSupabase();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe('reading the balance and its movements (src/data/store-credit.ts)', () => {
  it('bigint centavos arrive as numbers or as whole-number strings; anything else is refused', () => {
    expect(data.centavosOf(35000)).toBe(35000);
    expect(data.centavosOf('-12000')).toBe(-12000);
    expect(data.centavosOf(' 0 ')).toBe(0);
    expect(data.centavosOf(350.5)).toBeNull();
    expect(data.centavosOf('350.50')).toBeNull();
    expect(data.centavosOf(null)).toBeNull();
    expect(data.centavosOf('9007199254740993')).toBeNull();
  });

  it('a ledger row becomes a movement in centavos', () => {
    expect(data.toMovement(entry())).toEqual({
      id: 7,
      createdAt: '2026-11-25T18:30:00Z',
      reason: 'oxxo_payment',
      orderId: ORDER,
      amount: 35000,
      balanceAfter: 35000,
    });
    expect(data.toMovement(entry({ amount: 1.5 }))).toBeNull();
  });

  it('the balance comes from my_store_credit; none is $0.00; an error is passed on', async () => {
    fake = fakeSupabase({ 'rpc:my_store_credit': [{ data: 35000, error: null }] });
    expect(await data.getStoreCreditBalance()).toEqual({ data: 35000, error: null });
    fake = fakeSupabase({ 'rpc:my_store_credit': [{ data: null, error: null }] });
    expect(await data.getStoreCreditBalance()).toEqual({ data: 0, error: null });
    fake = fakeSupabase({ 'rpc:my_store_credit': [{ data: null, error: { message: 'down' } }] });
    expect((await data.getStoreCreditBalance()).error).toEqual({ message: 'down' });
  });

  it("the user's newest 20 movements, newest first; a row that is not whole centavos is left out", async () => {
    fake = fakeSupabase({
      store_credit_entries: [
        { data: [entry({ id: 9, amount: -12000, balance_after: 23000, reason: 'order_payment' }), entry({ id: 8, amount: 'x' }), entry()], error: null },
      ],
    });
    const result = await data.listStoreCreditMovements('u1');
    expect(result.data!.map((m) => m.id)).toEqual([9, 7]);
    const steps = fake.calls[0]!.steps.map((s) => [s.method, ...s.args]);
    expect(steps).toEqual([
      ['select', 'id, amount, balance_after, reason, order_id, created_at'],
      ['eq', 'user_id', 'u1'],
      ['order', 'created_at', { ascending: false }],
      ['order', 'id', { ascending: false }],
      ['limit', 20],
    ]);
  });

  it('the account follows the ledger of the user live', () => {
    const close = subscribeToUserRows('store_credit_entries', 'u1', () => undefined);
    expect(subscribed!.topic).toMatch(/^account-store_credit_entries-u1-/);
    expect(subscribed!.filter).toEqual({ event: '*', schema: 'public', table: 'store_credit_entries', filter: 'user_id=eq.u1' });
    close();
  });
});

describe('the balance store (src/stores/store-credit.ts)', () => {
  it('startStoreCredit shows loading, then the balance and the movements together', async () => {
    fake = fakeSupabase({ 'rpc:my_store_credit': [{ data: 35000, error: null }], store_credit_entries: [{ data: [entry()], error: null }] });
    store.startStoreCredit('u1');
    expect(store.$storeCredit.get()).toEqual({ loading: true, failed: false, value: null });
    await vi.waitFor(() => expect(store.$storeCredit.get().loading).toBe(false));
    expect(store.$storeCredit.get()).toEqual({ loading: false, failed: false, value: { balance: 35000, movements: [data.toMovement(entry())] } });
  });

  it('a failed reload keeps what is shown and marks it failed', async () => {
    const shown = { balance: centavos(35000), movements: [] };
    store.$storeCredit.set({ loading: false, failed: false, value: shown });
    fake = fakeSupabase({ 'rpc:my_store_credit': [{ data: 0, error: null }], store_credit_entries: [{ data: null, error: { message: 'down' } }] });
    await store.reloadStoreCredit('u1');
    expect(store.$storeCredit.get()).toEqual({ loading: false, failed: true, value: shown });
  });

  it('when reloads overlap, an older answer never replaces a newer one', async () => {
    let answerFirst: (value: { data: unknown; error: null }) => void = () => undefined;
    fake = fakeSupabase({ store_credit_entries: [{ data: [], error: null }] });
    let calls = 0;
    fake.client.rpc = (() => {
      calls += 1;
      if (calls === 1) return new Promise((resolve) => (answerFirst = resolve));
      return Promise.resolve({ data: 50000, error: null });
    }) as unknown as typeof fake.client.rpc;
    const older = store.reloadStoreCredit('u1');
    await store.reloadStoreCredit('u1');
    answerFirst({ data: 100, error: null });
    await older;
    expect(store.$storeCredit.get().value?.balance).toBe(50000);
  });
});

describe('what the movements list shows', () => {
  it('a credit with a plus sign, a debit with a true minus sign', () => {
    expect(store.signedAmount(centavos(35000))).toBe('+$350.00');
    expect(store.signedAmount(centavos(-12000))).toBe('\u2212$120.00');
    expect(store.signedAmount(centavos(123456789))).toBe('+$1,234,567.89');
  });

  it('a movement: es-MX date in Mexico City time, the reason, the order number, the amount and the balance after', () => {
    expect(store.movementLine(data.toMovement(entry({ created_at: '2026-11-26T03:00:00Z' }))!)).toEqual({
      id: 7,
      date: '25/11/26',
      dateTime: '2026-11-26T03:00:00Z',
      label: 'Pago en OXXO abonado a tu saldo',
      order: '#D4E5F6',
      amount: '+$350.00',
      direction: 'credit',
      balanceAfter: '$350.00',
    });
    const spent = store.movementLine(data.toMovement(entry({ amount: -12000, balance_after: 23000, reason: 'order_payment' }))!);
    expect(spent).toMatchObject({ label: 'Pago de pedido', amount: '\u2212$120.00', direction: 'debit', balanceAfter: '$230.00' });
    const adjusted = store.movementLine(data.toMovement(entry({ order_id: null, reason: 'adjustment' }))!);
    expect(adjusted).toMatchObject({ label: 'Ajuste de la tienda', order: null });
  });
});
