import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'tok' } } }) } }),
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const { callApi, postApi, safeCallApi } = await import('~/data/api.ts');
const schemas = await import('~/domain/api-answers.ts');
const { listSavedCards } = await import('~/data/account.ts');
const { loadRebuildStatus } = await import('~/data/admin.ts');

const fetchMock = vi.fn<typeof fetch>();

function answer(body: unknown, status = 200) {
  fetchMock.mockResolvedValueOnce(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('callApi checks every answer against its schema', () => {
  it('returns a matching answer, typed, and sends the token', async () => {
    answer({ orderId: 'o1', status: 'Pagado', changed: true, extra: 1 });
    const result = await postApi('/api/paypal/capture-order', { orderId: 'o1', paypalOrderId: 'P1' }, schemas.settlementAnswer);
    expect(result).toMatchObject({ ok: true, status: 200, message: null });
    const status: string | undefined = result.data?.status;
    expect(status).toBe('Pagado');
    expect(result.data?.changed).toBe(true);
    const [path, init] = fetchMock.mock.calls[0]!;
    expect(path).toBe('/api/paypal/capture-order');
    expect(init?.method).toBe('POST');
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer tok');
  });

  it('makes an answer that does not match ok false, with no data', async () => {
    answer({ status: 'Pagado' }); // orderId and changed missing
    const result = await postApi('/api/paypal/capture-order', { orderId: 'o1', paypalOrderId: 'P1' }, schemas.settlementAnswer);
    expect(result).toEqual({ ok: false, status: 200, data: null, message: null });

    answer({ plans: [{ months: '3', monthly: 100, label: '3 meses' }] });
    expect((await callApi('/api/payments/simulated/installments', { body: {}, schema: schemas.plansAnswer })).ok).toBe(false);
  });

  it('keeps the server message of a refusal', async () => {
    answer({ error: 'order_refunded', message: 'Reembolsado.' }, 409);
    expect(await postApi('/api/payments/confirm', {}, schemas.settlementAnswer)).toEqual({
      ok: false,
      status: 409,
      data: null,
      message: 'Reembolsado.',
      code: 'order_refunded',
    });
  });

  it('safeCallApi turns a network failure into an answer', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('offline'));
    const result = await safeCallApi('/api/admin/newsletter', { schema: schemas.subscribersAnswer });
    expect(result).toMatchObject({ ok: false, status: 0, data: null });
  });

  it('accepts what the endpoints send and nothing looser', async () => {
    answer({ status: 'requires_action', intentId: 'pi_1', orderId: 'o1', error: null });
    expect((await postApi('/api/payments/simulated/confirm', {}, schemas.simulatedCardAnswer)).ok).toBe(true);
    answer({ status: 'succeeded', intentId: 'pi_1', orderId: 'o1', error: null, order: { orderId: 'o1', status: 'Pagado', changed: true } });
    expect((await postApi('/api/payments/simulated/confirm', {}, schemas.simulatedCardAnswer)).data?.order?.status).toBe('Pagado');
    answer({ status: 'requires_action', clientSecret: null });
    expect((await postApi('/api/payments/installments/confirm', {}, schemas.installmentsConfirmAnswer)).ok).toBe(true);
    const voucher = { reference: '12345678901234', expiresAt: '2026-12-01T00:00:00Z', amount: 50000, hostedVoucherUrl: null, paymentIntentId: 'pi_2' };
    answer({ voucher, paymentIntentId: 'pi_2' });
    expect((await postApi('/api/create-payment-intent', {}, schemas.oxxoVoucherAnswer)).data?.voucher.reference).toBe('12345678901234');
    answer({ voucher: { ...voucher, amount: '500.00' }, paymentIntentId: 'pi_2' });
    expect((await postApi('/api/create-payment-intent', {}, schemas.oxxoVoucherAnswer)).ok).toBe(false);
  });
});

describe('the data helpers check their answers', () => {
  it('lists saved cards only from a well-formed answer', async () => {
    const card = { id: 'pm_1', type: 'card', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 }, is_default: true };
    answer([card]);
    expect(await listSavedCards('cus_1')).toEqual([card]);
    answer([{ id: 'pm_1' }]);
    await expect(listSavedCards('cus_1')).rejects.toThrow();
  });

  it('reads the rebuild status the server sends', async () => {
    answer({
      status: 'building',
      startedAt: '2026-11-24T00:00:00Z',
      finishedAt: null,
      durationMs: null,
      lastError: null,
      builds: 0,
      failures: 0,
      reason: 'admin',
      progress: { phase: 'pages', pagesWritten: 10, pagesExpected: 100, percent: 10 },
      lastSuccessAt: null,
      lastPages: null,
    });
    const result = await loadRebuildStatus();
    expect(result.ok).toBe(true);
    expect(result.data?.status).toBe('building');
    answer({ status: 'done' });
    expect((await loadRebuildStatus()).ok).toBe(false);
  });
});
