/**
 * The one toast store of the shop: an add-to-cart button or an account action shows one, the
 * Toaster island (src/islands/ui/Toaster.tsx) draws them, on the catalogue pages and in the account
 * and auth screens. Closing times live here, and run from when a Toaster is on the screen
 * (toasterShown): a Toaster that hydrates late on a slow phone still shows each toast its whole
 * time. A notice meant for the next page (e.g. after signing in and moving on) waits in
 * sessionStorage.
 */
import { atom } from 'nanostores';
import { PRODUCT_MESSAGES } from '~/i18n/cart.ts';

/** How long a toast stays up before closing by itself. */
export const TOAST_DURATION_MS = 2600;

/** DOM event fired on window when a toast is shown, so a sleeping Toaster island can hydrate. */
export const TOAST_EVENT = 'tienda:toast';

/** An optional link in a toast, e.g. 'Ver carrito'. */
export interface ToastAction {
  label: string;
  href: string;
}

/** One toast on screen. */
export interface Toast {
  id: number;
  title: string;
  message?: string;
  tone: 'success' | 'error' | 'info';
  action?: ToastAction;
}

/** The toasts on screen, oldest first. */
export const $toasts = atom<Toast[]>([]);

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();
// Until a Toaster is on the screen, a toast's time waits here (id → duration).
let drawn = false;
const waiting = new Map<number, number>();

function startClosing(id: number, duration: number): void {
  timers.set(
    id,
    setTimeout(() => dismissToast(id), duration),
  );
}

/** Said by the Toaster once it draws: the toasts' times run from now. */
export function toasterShown(): void {
  drawn = true;
  for (const [id, duration] of waiting) startClosing(id, duration);
  waiting.clear();
}

/** Shows a toast that closes itself `duration` ms after it is on the screen; returns its id. */
export function showToast(toast: Omit<Toast, 'id' | 'tone'> & { tone?: Toast['tone'] }, duration = TOAST_DURATION_MS): number {
  const id = nextId++;
  // Keep the screen calm: at most three toasts, the newest replacing the oldest.
  $toasts.set([...$toasts.get().slice(-2), { tone: 'success', ...toast, id }]);
  if (drawn) startClosing(id, duration);
  else waiting.set(id, duration);
  if (typeof window !== 'undefined') window.dispatchEvent(new CustomEvent(TOAST_EVENT));
  return id;
}

/** The toast after adding a product to the cart: its name and a 'Ver carrito' link. */
export function showAddedToCart(productName: string): number {
  return showToast({
    title: PRODUCT_MESSAGES.addedToCart,
    message: productName,
    action: { label: PRODUCT_MESSAGES.viewCart, href: '/checkout/summary' },
  });
}

/** What an add to the cart did (see addToCart in ./cart.ts). */
export interface AddOutcome {
  added: number;
  limited: boolean;
}

/**
 * The one honest message after an add, for product cards and the buy box alike: 'Agregado al
 * carrito' only when units were added (saying how many when the stock cut the request), and
 * 'Máximo disponible en stock.' when nothing could be added.
 */
export function showAddOutcome(productName: string, outcome: AddOutcome): number {
  if (outcome.added <= 0) return showToast({ title: PRODUCT_MESSAGES.maxStock, message: productName, tone: 'info' });
  if (!outcome.limited) return showAddedToCart(productName);
  const units = outcome.added === 1 ? '1 unidad' : `${outcome.added} unidades`;
  return showToast({
    title: PRODUCT_MESSAGES.addedToCart,
    message: `${productName}: solo ${units}. ${PRODUCT_MESSAGES.maxStock}`,
    action: { label: PRODUCT_MESSAGES.viewCart, href: '/checkout/summary' },
  });
}

/** A one-line notice ('Dirección guardada', 'Bienvenido', …). */
export function notify(title: string, tone: Toast['tone'] = 'info'): number {
  return showToast({ title, tone });
}

const FLASH_KEY = 'toast-flash';

/** Keeps a notice for the next page this tab opens. */
export function flashToast(title: string, tone: Toast['tone'] = 'success'): void {
  try {
    sessionStorage.setItem(FLASH_KEY, JSON.stringify({ message: title, kind: tone }));
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
    const tone = value.kind === 'error' || value.kind === 'info' ? value.kind : 'success';
    notify(value.message, tone);
  } catch {
    // A damaged entry is dropped.
  }
}

/** Closes a toast now (also cancels its timer). */
export function dismissToast(id: number): void {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
  waiting.delete(id);
  $toasts.set($toasts.get().filter((toast) => toast.id !== id));
}
