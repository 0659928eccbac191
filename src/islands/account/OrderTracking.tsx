import { useEffect, useState } from 'react';
import { loadOrderTracking, type OrderTracking as Tracking } from '~/data/orders.ts';
import { trackingUrl } from '~/domain/orders.ts';
import { orderEventNote } from '~/domain/payment-methods.ts';
import { ACCOUNT_ORDER_TRACKING_TEXT } from '~/i18n/account.ts';

const dateTime = new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'America/Mexico_City' });

/**
 * The shipping and history part of an order's detail in 'Mis pedidos': 'Paquetería', 'Número de
 * guía' (a tracking link for the known carriers) and every status change. Read again whenever the
 * order's status changes (the list follows the orders live).
 */
export default function OrderTracking({ orderId, status }: { orderId: string; status: string }) {
  const [data, setData] = useState<Tracking | null>(null);

  useEffect(() => {
    let stale = false;
    void loadOrderTracking(orderId).then((result) => {
      if (!stale && result.data) setData(result.data);
    });
    return () => {
      stale = true;
    };
  }, [orderId, status]);

  if (!data) return null;
  const link = trackingUrl(data.carrier, data.tracking_number);
  return (
    <div className="acct-section" data-testid="order-tracking">
      {data.tracking_number && (
        <dl className="acct-dl">
          <dt>{ACCOUNT_ORDER_TRACKING_TEXT.carrier}</dt>
          <dd data-testid="order-carrier">{data.carrier ?? '-'}</dd>
          <dt>{ACCOUNT_ORDER_TRACKING_TEXT.trackingNumber}</dt>
          <dd data-testid="order-tracking-number">
            {link ? (
              <a href={link} target="_blank" rel="noopener noreferrer">
                {data.tracking_number}
                <span className="visually-hidden">{ACCOUNT_ORDER_TRACKING_TEXT.trackLink(data.carrier ?? '')}</span>
              </a>
            ) : (
              data.tracking_number
            )}
          </dd>
        </dl>
      )}
      {data.events.length > 0 && (
        <>
          <h3>{ACCOUNT_ORDER_TRACKING_TEXT.history}</h3>
          <ol className="acct-history" data-testid="order-history">
            {data.events.map((event) => (
              <li key={event.id}>
                {dateTime.format(new Date(event.created_at))}: {event.from_status ? `${event.from_status} → ${event.to_status}` : event.to_status}
                {event.note ? ` (${orderEventNote(event.note)})` : ''}
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
