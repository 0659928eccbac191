/**
 * Short notices of the auth and account screens ('Bienvenido', 'Dirección guardada', …). A notice
 * meant for the next page (e.g. after signing in and moving on) waits in sessionStorage.
 */
import { atom } from 'nanostores';

export type ToastKind = 'success' | 'error' | 'info';

/** One notice on screen. */
export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
}

/** How long a notice stays, as the specification's toasts do. */
export const TOAST_MS = 2600;
const FLASH_KEY = 'toast-flash';

export const $toasts = atom<Toast[]>([]);
let nextId = 1;

/** Shows a notice that closes itself after TOAST_MS. */
export function showToast(message: string, kind: ToastKind = 'info'): void {
  const toast = { id: nextId++, kind, message };
  $toasts.set([...$toasts.get(), toast]);
  setTimeout(() => dismissToast(toast.id), TOAST_MS);
}

/** Closes a notice. */
export function dismissToast(id: number): void {
  $toasts.set($toasts.get().filter((toast) => toast.id !== id));
}

/** Keeps a notice for the next page this tab opens. */
export function flashToast(message: string, kind: ToastKind = 'success'): void {
  try {
    sessionStorage.setItem(FLASH_KEY, JSON.stringify({ message, kind }));
  } catch {
    // Without storage the notice is simply not carried over.
  }
}

/** Shows the notice a previous page left, once. */
export function showFlashedToast(): void {
  try {
    const raw = sessionStorage.getItem(FLASH_KEY);
    if (!raw) return;
    sessionStorage.removeItem(FLASH_KEY);
    const value = JSON.parse(raw) as { message?: unknown; kind?: unknown };
    if (typeof value.message !== 'string') return;
    const kind = value.kind === 'error' || value.kind === 'info' ? value.kind : 'success';
    showToast(value.message, kind);
  } catch {
    // A damaged entry is dropped.
  }
}
