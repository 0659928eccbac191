/**
 * The Configuración tab: which e-mails the shopper wants (restock alerts, price alerts, the
 * newsletter, preorder e-mails), saved to their account (notification_settings; the newsletter
 * through their own address on the list), and their waiting 'Avísame cuando llegue' alerts, each
 * with a button that cancels it. The alerts' fan-out in the database honours these settings.
 */
import { useEffect, useState } from 'react';
import {
  cancelRestockAlert,
  listWaitingAlerts,
  loadNotificationSettings,
  saveNotificationSetting,
  type NotificationSettings,
  type WaitingAlert,
} from '~/data/stock-alerts.ts';
import { formatOrderDate } from '~/domain/orders.ts';
import { productPath } from '~/domain/routes.ts';
import { ACCOUNT_SETTINGS_TEXT as TEXT } from '~/i18n/alerts.ts';
import type { Loadable } from '~/stores/account.ts';
import { notify } from '~/stores/toast.ts';
import { AsyncState, Loading } from '../ui/AsyncState.tsx';

const SWITCHES: ReadonlyArray<{ key: keyof NotificationSettings; label: string }> = [
  { key: 'restockAlerts', label: TEXT.restock },
  { key: 'priceAlerts', label: TEXT.price },
  { key: 'newsletter', label: TEXT.newsletter },
  { key: 'preorderEmails', label: TEXT.preorders },
];

const loading = <T,>(): Loadable<T> => ({ loading: true, failed: false, value: null });

export default function SettingsPanel({ userId }: { userId: string }) {
  const [settings, setSettings] = useState<Loadable<NotificationSettings>>(loading);
  const [alerts, setAlerts] = useState<Loadable<WaitingAlert[]>>(loading);
  const [saving, setSaving] = useState<keyof NotificationSettings | null>(null);

  const readSettings = async () => {
    setSettings(loading());
    const result = await loadNotificationSettings(userId).catch((error: unknown) => ({ data: null, error }));
    setSettings(result.error ? { loading: false, failed: true, value: null } : { loading: false, failed: false, value: result.data });
  };
  const readAlerts = async () => {
    const result = await listWaitingAlerts(userId).catch((error: unknown) => ({ data: null, error }));
    setAlerts((current) => (result.error ? { ...current, loading: false, failed: true } : { loading: false, failed: false, value: result.data }));
  };
  useEffect(() => {
    void readSettings();
    void readAlerts();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read again only for another shopper
  }, [userId]);

  const change = async (key: keyof NotificationSettings, on: boolean) => {
    const before = settings.value;
    if (!before) return;
    setSaving(key);
    setSettings({ ...settings, value: { ...before, [key]: on } });
    const result = await saveNotificationSetting(userId, key, on).catch((error: unknown) => ({ data: null, error }));
    setSaving(null);
    if (result.error) {
      setSettings((current) => ({ ...current, value: current.value ? { ...current.value, [key]: before[key] } : current.value }));
      notify(TEXT.saveFailed, 'error');
    } else notify(TEXT.saved, 'success');
  };

  const cancel = async (alert: WaitingAlert) => {
    const result = await cancelRestockAlert(alert.id);
    if (result.error) {
      notify(TEXT.cancelFailed, 'error');
      return;
    }
    notify(TEXT.cancelled, 'success');
    setAlerts((current) => ({ ...current, value: current.value?.filter((item) => item.id !== alert.id) ?? null }));
  };

  return (
    <>
      <h2>{TEXT.title}</h2>
      <section aria-labelledby="acct-settings-emails">
        <h3 id="acct-settings-emails">{TEXT.emailsHeading}</h3>
        <AsyncState state={settings} loading={<Loading text={TEXT.loading} />} failed={TEXT.loadFailed} onRetry={() => void readSettings()}>
          {(value) => (
            <ul className="acct-settings" style={{ listStyle: 'none', padding: 0, display: 'grid', gap: '0.75rem' }}>
              {SWITCHES.map(({ key, label }) => (
                <li key={key}>
                  <label style={{ display: 'flex', gap: '0.5rem', alignItems: 'center' }}>
                    <input type="checkbox" checked={value[key]} disabled={saving === key} onChange={(event) => void change(key, event.currentTarget.checked)} />
                    {label}
                  </label>
                </li>
              ))}
            </ul>
          )}
        </AsyncState>
      </section>
      <section aria-labelledby="acct-settings-alerts">
        <h3 id="acct-settings-alerts">{TEXT.alertsHeading}</h3>
        <AsyncState state={alerts} loading={<Loading text={TEXT.loading} />} failed={TEXT.loadFailed} onRetry={() => void readAlerts()}>
          {(list) =>
            list.length === 0 ? (
              <p className="muted">{TEXT.noAlerts}</p>
            ) : (
              <ul className="acct-lines" aria-label={TEXT.alertsHeading}>
                {list.map((alert) => {
                  const name = alert.offerLabel ? `${alert.name} (${alert.offerLabel})` : alert.name;
                  return (
                    <li key={alert.id} data-testid="restock-alert" style={{ gridTemplateColumns: 'minmax(0, 1fr) auto', overflowWrap: 'anywhere' }}>
                      <span>
                        <a href={productPath(alert.productId)}>{name}</a>
                        <br />
                        <span className="muted">{TEXT.since(formatOrderDate(alert.createdAt))}</span>
                      </span>
                      <button type="button" className="btn btn-outline" aria-label={TEXT.cancelLabel(name)} onClick={() => void cancel(alert)}>
                        {TEXT.cancel}
                      </button>
                    </li>
                  );
                })}
              </ul>
            )
          }
        </AsyncState>
      </section>
    </>
  );
}
