import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $toasts, dismissToast, showToast, TOAST_DURATION_MS } from '../../../src/stores/toast.ts';

describe('toast store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    for (const toast of $toasts.get()) dismissToast(toast.id);
  });
  afterEach(() => vi.useRealTimers());

  it('shows a toast with its action and closes it after 2600 ms', () => {
    const id = showToast({ title: 'Agregado al carrito', message: 'Sobre', action: { label: 'Ver carrito', href: '/checkout/summary' } });
    expect(TOAST_DURATION_MS).toBe(2600);
    expect($toasts.get()).toEqual([
      { id, tone: 'success', title: 'Agregado al carrito', message: 'Sobre', action: { label: 'Ver carrito', href: '/checkout/summary' } },
    ]);
    vi.advanceTimersByTime(2599);
    expect($toasts.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect($toasts.get()).toEqual([]);
  });

  it('closes by hand before the timer', () => {
    const id = showToast({ title: 'Agregado al carrito' });
    dismissToast(id);
    expect($toasts.get()).toEqual([]);
    vi.advanceTimersByTime(TOAST_DURATION_MS);
    expect($toasts.get()).toEqual([]);
  });

  it('keeps at most three toasts, dropping the oldest', () => {
    const ids = [1, 2, 3, 4].map((n) => showToast({ title: `Toast ${n}` }));
    expect($toasts.get().map((t) => t.id)).toEqual(ids.slice(1));
  });
});
