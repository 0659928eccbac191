import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $toasts, TOAST_DURATION_MS as TOAST_MS, dismissToast, flashToast, showFlashedToast, notify as showToast } from '../../../src/stores/toast.ts';

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('sessionStorage', memoryStorage());
  $toasts.set([]);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('toasts', () => {
  it('close themselves after 2600 ms, or when dismissed', () => {
    expect(TOAST_MS).toBe(2600);
    showToast('Dirección guardada', 'success');
    showToast('No se pudo eliminar.', 'error');
    expect($toasts.get().map((t) => t.title)).toEqual(['Dirección guardada', 'No se pudo eliminar.']);
    dismissToast($toasts.get()[1]!.id);
    expect($toasts.get()).toHaveLength(1);
    vi.advanceTimersByTime(TOAST_MS - 1);
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
