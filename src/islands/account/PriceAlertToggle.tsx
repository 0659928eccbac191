/**
 * A favorite's 'Avísame si baja de precio' switch (the Favoritos tab). On, the database remembers
 * the price it has now and e-mails the shopper once when it goes below it (then remembers the new
 * price). Which favorites have it on is read once per shopper and shared by every line.
 */
import { useEffect, useState } from 'react';
import { atom } from 'nanostores';
import { useStore } from '@nanostores/react';
import { priceAlertFavorites, setPriceAlert } from '~/data/stock-alerts.ts';
import { FAVORITE_PRICE_ALERT_TEXT as TEXT } from '~/i18n/alerts.ts';
import { $session } from '~/stores/session.ts';
import { notify } from '~/stores/toast.ts';

const $priceAlerts = atom<ReadonlySet<string>>(new Set());
let readFor: string | null = null;

async function readPriceAlerts(userId: string): Promise<void> {
  if (readFor === userId) return;
  readFor = userId;
  const result = await priceAlertFavorites(userId);
  if (result.error) readFor = null;
  else $priceAlerts.set(result.data);
}

function mark(favoriteId: string, on: boolean): void {
  const next = new Set($priceAlerts.get());
  if (on) next.add(favoriteId);
  else next.delete(favoriteId);
  $priceAlerts.set(next);
}

export default function PriceAlertToggle({ favoriteId }: { favoriteId: string }) {
  const userId = useStore($session).user?.id ?? null;
  const on = useStore($priceAlerts).has(favoriteId);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (userId) void readPriceAlerts(userId);
  }, [userId]);

  const change = async (next: boolean) => {
    setBusy(true);
    mark(favoriteId, next);
    const result = await setPriceAlert(favoriteId, next);
    setBusy(false);
    if (result.error) {
      mark(favoriteId, !next);
      notify(TEXT.failed, 'error');
    } else notify(next ? TEXT.on : TEXT.off, 'success');
  };

  return (
    <label className="acct-price-alert">
      <input type="checkbox" checked={on} disabled={busy} onChange={(event) => void change(event.currentTarget.checked)} />
      {TEXT.label}
    </label>
  );
}
