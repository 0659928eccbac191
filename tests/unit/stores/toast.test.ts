import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { $toasts, TOAST_DURATION_MS, dismissToast, flashToast, notify, showFlashedToast, showToast, toasterShown } from '~/stores/toast.ts';

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

describe('a toast shown before any Toaster is on the screen', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.resetModules();
  });

  it('stays its whole time from when the Toaster draws, however late it hydrates', async () => {
    const store = await import('~/stores/toast.ts');
    store.showToast({ title: 'Agregado al carrito' });
    vi.advanceTimersByTime(10_000);
    expect(store.$toasts.get().map((t) => t.title)).toEqual(['Agregado al carrito']);
    store.toasterShown();
    vi.advanceTimersByTime(store.TOAST_DURATION_MS - 1);
    expect(store.$toasts.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.$toasts.get()).toEqual([]);
    // Once a Toaster is there, a new toast's time runs at once.
    store.showToast({ title: 'Dirección guardada' });
    vi.advanceTimersByTime(store.TOAST_DURATION_MS);
    expect(store.$toasts.get()).toEqual([]);
  });
});

describe('toast store', () => {
  beforeAll(() => toasterShown());
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

describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('sessionStorage', memoryStorage());
    $toasts.set([]);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('close themselves after 2600 ms, or when dismissed', () => {
    expect(TOAST_DURATION_MS).toBe(2600);
    notify('Dirección guardada', 'success');
    notify('No se pudo eliminar.', 'error');
    expect($toasts.get().map((t) => t.title)).toEqual(['Dirección guardada', 'No se pudo eliminar.']);
    dismissToast($toasts.get()[1]!.id);
    expect($toasts.get()).toHaveLength(1);
    vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    expect($toasts.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect($toasts.get()).toHaveLength(0);
  });

  it('carry a notice to the next page once', () => {
    flashToast('Bienvenido');
    showFlashedToast();
    expect($toasts.get()).toMatchObject([{ title: 'Bienvenido', tone: 'success' }]);
    showFlashedToast();
    expect($toasts.get()).toHaveLength(1);
  });

  it('ignore a damaged stored notice', () => {
    sessionStorage.setItem('toast-flash', '{no es json');
    showFlashedToast();
    sessionStorage.setItem('toast-flash', JSON.stringify({ message: 5 }));
    showFlashedToast();
    expect($toasts.get()).toEqual([]);
  });
});
