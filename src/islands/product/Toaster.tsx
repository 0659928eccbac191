/**
 * Draws the toasts of src/stores/toast.ts in a live region. Hydrated by `client:event` on the
 * first toast, so pages without toasts never load it.
 */
import { useStore } from '@nanostores/react';
import { $toasts, dismissToast } from '../../stores/toast.ts';
import { useMounted } from '../prebuilt.ts';

/** The toast stack at the bottom of the screen. */
export default function Toaster() {
  // It hydrates because a toast was just shown: the server drew none, so the first render must
  // draw none either (src/islands/prebuilt.ts useMounted).
  const stored = useStore($toasts);
  const toasts = useMounted() ? stored : [];
  return (
    <div className="toaster" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.tone}`}>
          <div className="toast-text">
            <p className="toast-title">{toast.title}</p>
            {toast.message && <p className="toast-message">{toast.message}</p>}
          </div>
          {toast.action && (
            <a className="toast-action" href={toast.action.href}>
              {toast.action.label}
            </a>
          )}
          <button type="button" className="toast-close" aria-label="Cerrar notificación" onClick={() => dismissToast(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
