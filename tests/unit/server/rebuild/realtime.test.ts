import { describe, expect, it, vi } from 'vitest';
import { ChangeFilter, debounce, productChange } from '~/server/rebuild/realtime.ts';

const product = { id: 'pk-1', name: 'Sobre', price: 99, stock: 5, updated_at: '2026-11-22T00:00:00Z' };

describe('product change filter', () => {
  it('rebuilds for inserts and deletes', () => {
    const filter = new ChangeFilter();
    expect(filter.needsRebuild({ eventType: 'INSERT', new: product, old: {} })).toBe(true);
    expect(filter.needsRebuild({ eventType: 'DELETE', new: {}, old: { id: 'pk-1' } })).toBe(true);
  });

  it('never rebuilds for stock (orders, a sell-out, a restock), only for a visible change', () => {
    const filter = new ChangeFilter();
    filter.remember([product]);
    const update = (row: Record<string, unknown>) => filter.needsRebuild({ eventType: 'UPDATE', new: row, old: { id: 'pk-1' } });
    expect(update({ ...product, stock: 4, updated_at: '2026-11-22T01:00:00Z' })).toBe(false);
    // The last unit reserved, released, reserved again: no build at all.
    expect(update({ ...product, stock: 0 })).toBe(false);
    expect(update({ ...product, stock: 1 })).toBe(false);
    expect(update({ ...product, stock: 0, updated_at: 'x' })).toBe(false);
    expect(update({ ...product, stock: 0, price: 89 })).toBe(true);
    expect(update({ ...product, stock: 0, price: 89, available: false })).toBe(true);
  });

  it('rebuilds for an update of a product it does not know', () => {
    const filter = new ChangeFilter();
    expect(filter.needsRebuild({ eventType: 'UPDATE', new: product, old: { id: 'pk-1' } })).toBe(true);
  });
});

describe('debounce', () => {
  it('calls once after the last of a burst', () => {
    vi.useFakeTimers();
    try {
      const fn = vi.fn();
      const call = debounce(fn, 2000);
      call();
      vi.advanceTimersByTime(1500);
      call();
      vi.advanceTimersByTime(1999);
      expect(fn).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(fn).toHaveBeenCalledTimes(1);
      call();
      call.cancel();
      vi.advanceTimersByTime(5000);
      expect(fn).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('product change keys', () => {
  it('names the product, the event and the commit time, the same on every server', () => {
    const at = '2026-11-23T10:00:00.123Z';
    expect(productChange({ eventType: 'UPDATE', new: product, old: { id: 'pk-1' }, commit_timestamp: at })).toEqual({
      productId: 'pk-1',
      key: `pk-1|UPDATE|${at}`,
    });
    expect(productChange({ eventType: 'DELETE', new: {}, old: { id: 'pk-1' }, commit_timestamp: at })).toEqual({ productId: 'pk-1', key: `pk-1|DELETE|${at}` });
    // Without a commit time a change cannot be told apart from a later one: no key, never merged away.
    expect(productChange({ eventType: 'UPDATE', new: product, old: {} })).toEqual({ productId: 'pk-1', key: null });
    expect(productChange({ eventType: 'DELETE', new: {}, old: {}, commit_timestamp: at })).toEqual({ productId: null, key: null });
  });
});
