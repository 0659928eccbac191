/**
 * 'Avísame cuando llegue' in a sold-out buy box: a signed-in shopper asks to be e-mailed when the
 * product (or the chosen offer of a single) comes back, and may take it back; signed out, it sends
 * them to sign in and back to this page. The buy box knows the product through the page
 * (`data-live-product` of the box's container) and the chosen offer through its checked radio, so
 * the button needs no props. Whether it is sold out is the database's call: an alert on something
 * in stock is refused.
 */
import { useEffect, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { askRestockAlert, cancelRestockAlert, offerIdByKey, waitingAlert } from '~/data/stock-alerts.ts';
import { OFFER_PARAM } from '~/domain/live-offers.ts';
import { RESTOCK_ALERT_BUTTON_TEXT as TEXT } from '~/i18n/alerts.ts';
import { $session, initSession } from '~/stores/session.ts';
import { flashToast, notify } from '~/stores/toast.ts';

/** What the alert is about: the page's product and, for a single, the chosen offer's key. */
function target(element: HTMLElement | null): { productId: string; offerKey: string | null } | null {
  const productId = element?.closest<HTMLElement>('[data-live-product]')?.dataset.liveProduct;
  if (!productId) return null;
  // The offers' radios are named after the address's parameter (OfferPicker).
  const box = element?.closest('.buy-box');
  const offerKey = box?.querySelector<HTMLInputElement>(`input[name="${OFFER_PARAM}"]:checked`)?.value ?? null;
  return { productId, offerKey };
}

/** The product and offer ids the alert is for; null when the offer chosen no longer exists. */
async function resolve(element: HTMLElement | null): Promise<{ productId: string; offerId: string | null } | null> {
  const what = target(element);
  if (!what) return null;
  if (!what.offerKey) return { productId: what.productId, offerId: null };
  const offerId = await offerIdByKey(what.productId, what.offerKey);
  return offerId ? { productId: what.productId, offerId } : null;
}

/** The signed-in user's id once the session has loaded; null when signed out. */
function settledUserId(): Promise<string | null> {
  return new Promise((done) => {
    const unsubscribe = $session.subscribe((session) => {
      if (session.loading) return;
      queueMicrotask(() => unsubscribe());
      done(session.user?.id ?? null);
    });
  });
}

export default function RestockAlertButton() {
  const session = useStore($session);
  const ref = useRef<HTMLDivElement>(null);
  const [alertId, setAlertId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const userId = session.user?.id ?? null;

  useEffect(() => initSession(), []);
  useEffect(() => {
    if (!userId) return;
    let live = true;
    void (async () => {
      try {
        const what = await resolve(ref.current);
        if (!what) return;
        const found = await waitingAlert(userId, what.productId, what.offerId);
        if (live && !found.error) setAlertId(found.data);
      } catch {
        // Not knowing shows 'Avísame cuando llegue'; asking again is harmless.
      }
    })();
    return () => {
      live = false;
    };
  }, [userId]);

  const ask = async () => {
    if (busy) return;
    // A tap replayed as the page hydrates waits for the session.
    const user = await settledUserId();
    if (!user) {
      flashToast(TEXT.signIn, 'info');
      window.location.assign(`/auth?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
      return;
    }
    setBusy(true);
    try {
      const what = await resolve(ref.current);
      if (!what) {
        notify(TEXT.offerGone, 'error');
        return;
      }
      const outcome = await askRestockAlert(what.productId, what.offerId);
      if (outcome === 'in-stock') notify(TEXT.inStock, 'info');
      else if (outcome === 'failed') notify(TEXT.failed, 'error');
      else {
        const found = await waitingAlert(user, what.productId, what.offerId);
        setAlertId(found.data ?? null);
        notify(TEXT.added, 'success');
      }
    } catch {
      notify(TEXT.failed, 'error');
    } finally {
      setBusy(false);
    }
  };

  const cancel = async () => {
    if (busy || !alertId) return;
    setBusy(true);
    const result = await cancelRestockAlert(alertId);
    setBusy(false);
    if (result.error) notify(TEXT.failed, 'error');
    else {
      setAlertId(null);
      notify(TEXT.cancelled, 'info');
    }
  };

  return (
    <div className="restock-alert" ref={ref} style={{ display: 'grid', gap: '0.5rem', marginTop: '0.75rem' }}>
      {alertId ? (
        <>
          <p className="restock-alert-on" role="status">
            {TEXT.asked}
          </p>
          <button type="button" className="btn btn-outline" aria-busy={busy} onClick={() => void cancel()}>
            {TEXT.cancel}
          </button>
        </>
      ) : (
        <>
          <button type="button" className="btn btn-accent" aria-busy={busy} onClick={() => void ask()}>
            {TEXT.ask}
          </button>
          <p className="restock-alert-hint">{TEXT.hint}</p>
        </>
      )}
    </div>
  );
}
