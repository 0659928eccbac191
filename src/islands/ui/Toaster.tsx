/**
 * The one Toaster: draws the toasts of src/stores/toast.ts in a live region. The catalogue pages
 * hydrate it by `client:event` on the first toast (src/components/catalog/ToasterHost.astro), so
 * pages without toasts never load it; the account and auth screens render it inside their island
 * (`look="account"`), where it also shows a notice carried over from the previous page.
 */
import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { $toasts, dismissToast, showFlashedToast, toasterShown } from '~/stores/toast.ts';
import { useMounted } from '../prebuilt.ts';
import { CATALOG_TOASTER_TEXT } from '~/i18n/catalog.ts';

interface Props {
  /** 'catalogue': the stack with message and action; 'account': the account and auth screens' notices. */
  look?: 'catalogue' | 'account';
}

/** The toast stack at the bottom of the screen. */
export default function Toaster({ look = 'catalogue' }: Props) {
  // Toasts live in the browser only: the server drew none, so the first render draws none either
  // (src/islands/prebuilt.ts useMounted).
  const stored = useStore($toasts);
  const mounted = useMounted();
  const toasts = mounted ? stored : [];
  useEffect(() => {
    if (mounted) toasterShown();
  }, [mounted]);
  useEffect(() => {
    if (look === 'account') showFlashedToast();
  }, [look]);
  if (look === 'account') {
    return (
      <div className="acct-toaster" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`acct-toast acct-toast-${toast.tone}`} data-testid="toast">
            <span>{toast.title}</span>
            <button type="button" className="acct-toast-close" aria-label={CATALOG_TOASTER_TEXT.closeNotice} onClick={() => dismissToast(toast.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    );
  }
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
          <button type="button" className="toast-close" aria-label={CATALOG_TOASTER_TEXT.closeToast} onClick={() => dismissToast(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
