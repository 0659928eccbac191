import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIVE_WAIT_MS, settleWithin, stockText } from '~/islands/product/buy-box.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('settleWithin, the wait of a click replayed before the live read answered', () => {
  it('gives the answer that arrives in time', async () => {
    await expect(settleWithin(Promise.resolve({ stock: 3 }))).resolves.toEqual({ stock: 3 });
    await expect(settleWithin(Promise.resolve(null))).resolves.toBeNull();
  });

  it('gives nothing for no read or a failed one', async () => {
    await expect(settleWithin(null)).resolves.toBeUndefined();
    await expect(settleWithin(Promise.reject(new Error('sin red')))).resolves.toBeUndefined();
  });

  it('stops waiting after 1.5 s', async () => {
    vi.useFakeTimers();
    let settled: unknown = 'pending';
    void settleWithin(new Promise(() => undefined)).then((value) => (settled = value));
    await vi.advanceTimersByTimeAsync(LIVE_WAIT_MS - 1);
    expect(settled).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBeUndefined();
    expect(LIVE_WAIT_MS).toBe(1500);
  });
});

describe('the stock line', () => {
  it('counts the units, or says the product is available when they are not counted', () => {
    expect(stockText(4)).toBe('Disponibles: 4');
    expect(stockText(null)).toBe('Disponible');
  });
});
