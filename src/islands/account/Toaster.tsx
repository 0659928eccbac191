import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { $toasts, dismissToast, showFlashedToast } from './toast.ts';
import { useMounted } from '../prebuilt.ts';

/** The notices of the page, announced politely to screen readers. */
export default function Toaster() {
  // Notices live in the browser only: none in the first render, as on the server.
  const stored = useStore($toasts);
  const toasts = useMounted() ? stored : [];
  useEffect(() => {
    showFlashedToast();
  }, []);
  return (
    <div className="acct-toaster" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`acct-toast acct-toast-${toast.kind}`} data-testid="toast">
          <span>{toast.message}</span>
          <button type="button" className="acct-toast-close" aria-label="Cerrar aviso" onClick={() => dismissToast(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
