/**
 * The answers of the shop's /api endpoints as the browser checks them: what each schema accepts,
 * keeps and refuses. (How callApi applies them: tests/unit/data/api.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import {
  oxxoVoucherAnswer,
  rebuildStartedAnswer,
  rebuildStatusAnswer,
  settlementAnswer,
  simulatedCardAnswer,
  storeCreditAnswer,
  subscribersAnswer,
} from '~/domain/api-answers.ts';

describe('the API answers', () => {
  it('keeps fields the server adds to a loose answer', () => {
    expect(settlementAnswer.parse({ orderId: 'o1', status: 'Pagado', changed: true, extra: 1 })).toEqual({
      orderId: 'o1',
      status: 'Pagado',
      changed: true,
      extra: 1,
    });
  });

  it('refuses an answer missing a field or with a field of another type', () => {
    expect(settlementAnswer.safeParse({ orderId: 'o1', status: 'Pagado' }).success).toBe(false);
    expect(settlementAnswer.safeParse({ orderId: 'o1', status: 'Pagado', changed: 'yes' }).success).toBe(false);
    expect(storeCreditAnswer.safeParse({ orderId: 'o1', status: 'Pagado', applied: '100' }).success).toBe(false);
  });

  it('takes null only where the server sends null, and leaves out only optional fields', () => {
    const declined = { status: 'requires_payment_method', intentId: 'pi_1', orderId: null, error: 'Tarjeta rechazada' };
    expect(simulatedCardAnswer.safeParse(declined).success).toBe(true);
    expect(simulatedCardAnswer.safeParse({ ...declined, error: undefined }).success).toBe(false);
    expect(simulatedCardAnswer.safeParse({ ...declined, order: null }).success).toBe(false);
    expect(simulatedCardAnswer.safeParse({ ...declined, order: { orderId: 'o1', status: 'Pagado', changed: true } }).success).toBe(true);
  });

  it('checks nested answers: the OXXO voucher and the subscribers list', () => {
    const voucher = { reference: '1234', expiresAt: '2026-12-01T00:00:00Z', amount: 129_900, hostedVoucherUrl: null, paymentIntentId: 'pi_1' };
    expect(oxxoVoucherAnswer.safeParse({ voucher, paymentIntentId: 'pi_1' }).success).toBe(true);
    expect(oxxoVoucherAnswer.safeParse({ voucher: { ...voucher, amount: '1299.00' }, paymentIntentId: 'pi_1' }).success).toBe(false);
    expect(subscribersAnswer.safeParse({ count: 1, subscribers: [{ email: 'a@b.mx', created_at: '2026-11-01' }] }).success).toBe(true);
    expect(subscribersAnswer.safeParse({ count: 1, subscribers: [{ email: 'a@b.mx' }] }).success).toBe(false);
  });

  it("knows a rebuild's states and no other", () => {
    expect(rebuildStartedAnswer.safeParse({ status: 'queued', startedAt: null }).success).toBe(true);
    expect(rebuildStartedAnswer.safeParse({ status: 'done', startedAt: null }).success).toBe(false);
    const idle = {
      status: 'idle',
      startedAt: null,
      finishedAt: null,
      durationMs: null,
      lastError: null,
      builds: 0,
      failures: 0,
      reason: null,
      progress: null,
      lastSuccessAt: null,
      lastPages: null,
    };
    expect(rebuildStatusAnswer.safeParse(idle).success).toBe(true);
    expect(rebuildStatusAnswer.safeParse({ ...idle, progress: { phase: 'pages', pagesWritten: 'many' } }).success).toBe(false);
  });
});
