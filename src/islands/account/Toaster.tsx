import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { $toasts, dismissToast, showFlashedToast } from '../../stores/toast.ts';
import { useMounted } from '../prebuilt.ts';

/** The notices of the account and auth screens, announced politely to screen readers. */
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
        <div key={toast.id} className={`acct-toast acct-toast-${toast.tone}`} data-testid="toast">
          <span>{toast.title}</span>
          <button type="button" className="acct-toast-close" aria-label="Cerrar aviso" onClick={() => dismissToast(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
