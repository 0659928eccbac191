import { useEffect, useState } from 'react';
import { getSupabase } from '../../data/supabase.ts';
import { trackingUrl } from '../../domain/orders.ts';

interface Tracking {
  carrier: string | null;
  tracking_number: string | null;
  events: Array<{ id: number; created_at: string; from_status: string | null; to_status: string; note: string | null }>;
}

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
    const supabase = getSupabase();
    void Promise.all([
      supabase.from('orders').select('carrier, tracking_number').eq('id', orderId).maybeSingle(),
      supabase.from('order_events').select('id, created_at, from_status, to_status, note').eq('order_id', orderId).order('created_at').order('id'),
    ]).then(([order, events]) => {
      if (stale || order.error || events.error) return;
      const row = (order.data ?? {}) as { carrier?: string | null; tracking_number?: string | null };
      setData({ carrier: row.carrier ?? null, tracking_number: row.tracking_number ?? null, events: (events.data ?? []) as Tracking['events'] });
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
          <dt>Paquetería</dt>
          <dd data-testid="order-carrier">{data.carrier ?? '-'}</dd>
          <dt>Número de guía</dt>
          <dd data-testid="order-tracking-number">
            {link ? (
              <a href={link} target="_blank" rel="noopener noreferrer">
                {data.tracking_number}
                <span className="visually-hidden"> (rastrear en {data.carrier}, se abre en otra pestaña)</span>
              </a>
            ) : (
              data.tracking_number
            )}
          </dd>
        </dl>
      )}
      {data.events.length > 0 && (
        <>
          <h3>Historial</h3>
          <ol className="acct-history" data-testid="order-history">
            {data.events.map((event) => (
              <li key={event.id}>
                {dateTime.format(new Date(event.created_at))}: {event.from_status ? `${event.from_status} → ${event.to_status}` : event.to_status}
                {event.note ? ` (${event.note})` : ''}
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
