/**
 * The payments sweeper with a stand-in database and stand-ins for what it calls: the lease decides
 * whether it works, each open payment is closed or put off with its reason, refunds and e-mail
 * follow, and the lease is given back unless a server's periodic sweep keeps it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerContext } from '~/server/context.ts';
import { ApiError } from '~/server/http/json.ts';

const calls = vi.hoisted(() => ({ closed: [] as string[] }));
vi.mock('~/server/orders/open-attempts.ts', () => ({
  closeOpenAttempt: async (_ctx: unknown, attempt: { id: string }) => {
    calls.closed.push(attempt.id);
    if (attempt.id === 'falla') throw new Error('Stripe no contestó');
    return attempt.id === 'cerrable';
  },
}));
vi.mock('~/server/orders/refunds.ts', () => ({
  refundProviders: () => ['stripe', 'paypal'],
  retryDueRefunds: async () => ({ retried: 2, succeeded: 1 }),
}));
vi.mock('~/server/mail/outbox.ts', () => ({ deliverDueMail: async () => ({ claimed: 3, sent: 3, retrying: 0, gaveUp: 0 }) }));

const { getSweep, postSweep, sweep, sweepLeaseSeconds } = await import('~/server/sweeper.ts');

type Rpc = { name: string; args: Record<string, unknown> };

/** A service-role client: sweep_expired_orders answers `lease`, payment_attempts answers `open`. */
function fakeContext(lease: { leader: boolean; released: number }, open: Array<Record<string, string>> | 'error' = []) {
  const rpcs: Rpc[] = [];
  const filters: unknown[][] = [];
  const query: Record<string, unknown> = {};
  for (const name of ['select', 'eq', 'neq', 'in', 'lte', 'order'])
    query[name] = (...args: unknown[]) => {
      filters.push([name, ...args]);
      return query;
    };
  query.limit = async () => (open === 'error' ? { data: null, error: { message: 'sin conexión' } } : { data: open, error: null });
  const admin = {
    rpc: async (name: string, args: Record<string, unknown>) => {
      rpcs.push({ name, args });
      return name === 'sweep_expired_orders' ? { data: lease, error: null } : { data: null, error: null };
    },
    from: (table: string) => {
      filters.push(['from', table]);
      return query;
    },
  };
  return { ctx: { admin } as unknown as ServerContext, rpcs, filters };
}

afterEach(() => {
  calls.closed = [];
  vi.restoreAllMocks();
});

function quiet(): void {
  for (const level of ['info', 'error'] as const) vi.spyOn(console, level).mockImplementation(() => undefined);
}

describe('sweepLeaseSeconds', () => {
  it('holds the lease for two intervals and five seconds, an interval being at least a second', () => {
    expect(sweepLeaseSeconds(60_000)).toBe(125);
    expect(sweepLeaseSeconds(10)).toBe(7);
    expect(sweepLeaseSeconds(Number.NaN)).toBe(125);
  });
});

describe('sweep', () => {
  it('does nothing but ask for the lease when another process holds it', async () => {
    const { ctx, rpcs, filters } = fakeContext({ leader: false, released: 0 });
    const report = await sweep(ctx, 'servidor-1');
    expect(report).toEqual({
      leader: false,
      released: 0,
      closed: 0,
      refunds: { retried: 0, succeeded: 0 },
      mail: { claimed: 0, sent: 0, retrying: 0, gaveUp: 0 },
    });
    expect(rpcs).toEqual([{ name: 'sweep_expired_orders', args: { p_holder: 'servidor-1', p_seconds: 50 } }]);
    expect(filters).toEqual([]);
  });

  it('closes what it can, puts off the rest with the reason, retries refunds, sends mail and gives the lease back', async () => {
    quiet();
    const open = [
      { id: 'cerrable', order_id: 'o1', provider: 'stripe', ref: 'pi_1' },
      { id: 'abierto', order_id: 'o2', provider: 'paypal', ref: 'P-2' },
      { id: 'falla', order_id: 'o3', provider: 'stripe', ref: 'pi_3' },
    ];
    const { ctx, rpcs, filters } = fakeContext({ leader: true, released: 4 }, open);
    const report = await sweep(ctx, 'servidor-1');
    expect(report).toEqual({
      leader: true,
      released: 4,
      closed: 1,
      refunds: { retried: 2, succeeded: 1 },
      mail: { claimed: 3, sent: 3, retrying: 0, gaveUp: 0 },
    });
    expect(calls.closed).toEqual(['cerrable', 'abierto', 'falla']);
    expect(filters).toContainEqual(['in', 'provider', ['stripe', 'paypal']]);
    expect(rpcs.slice(1)).toEqual([
      { name: 'defer_payment_attempt', args: { p_attempt_id: 'abierto', p_error: 'sigue en proceso en el proveedor' } },
      { name: 'defer_payment_attempt', args: { p_attempt_id: 'falla', p_error: 'Stripe no contestó' } },
      // Buylist submissions not received in time expire; the alerts the database queued become e-mails.
      { name: 'release_expired_buylist_submissions', args: {} },
      { name: 'alert_mail_due', args: { p_limit: 100 } },
      { name: 'end_sweep', args: { p_holder: 'servidor-1' } },
    ]);
  });

  it("keeps the lease after a server's periodic sweep, and gives it back when the sweep fails", async () => {
    const kept = fakeContext({ leader: true, released: 0 });
    await sweep(kept.ctx, 'servidor-1', { keepLease: true });
    expect(kept.rpcs.map((rpc) => rpc.name)).toEqual(['sweep_expired_orders', 'release_expired_buylist_submissions', 'alert_mail_due']);
    expect(kept.rpcs[0]!.args.p_seconds).toBe(sweepLeaseSeconds());

    const failing = fakeContext({ leader: true, released: 0 }, 'error');
    await expect(sweep(failing.ctx, 'servidor-1', { keepLease: true })).rejects.toThrow('payment_attempts: sin conexión');
    expect(failing.rpcs.map((rpc) => rpc.name)).toEqual(['sweep_expired_orders', 'end_sweep']);
  });
});

describe('the sweep endpoints', () => {
  const request = (key?: string) =>
    new Request('http://shop.test/api/internal/sweep', { method: 'POST', headers: key ? { authorization: `Bearer ${key}` } : {} });

  it("refuses anyone but the shop's servers, before building a context", async () => {
    const ctx = vi.fn();
    await expect(postSweep(request('otra'), ctx, 'service-key')).rejects.toBeInstanceOf(ApiError);
    await expect(getSweep(request(), 'service-key')).rejects.toMatchObject({ status: 401 });
    expect(ctx).not.toHaveBeenCalled();
  });

  it('sweeps keeping the lease, and tells when it last swept and what it did', async () => {
    const { ctx, rpcs } = fakeContext({ leader: true, released: 0 });
    const answer = await postSweep(request('service-key'), () => ctx, 'service-key');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ leader: true, closed: 0 });
    expect(rpcs.map((rpc) => rpc.name)).toEqual(['sweep_expired_orders', 'release_expired_buylist_submissions', 'alert_mail_due']);
    const status = (await (await getSweep(request('service-key'), 'service-key')).json()) as {
      holder: string;
      last: { at: string; report: { leader: boolean } };
    };
    expect(status.holder).toMatch(/-\d+$/);
    expect(status.last.report.leader).toBe(true);
    expect(Date.parse(status.last.at)).not.toBeNaN();
  });
});
