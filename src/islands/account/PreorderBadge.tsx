/**
 * The Orders tab's preorder badge: what the arrival of the goods decided for an order with a
 * preorder line ('Preventa asignada', 'En lista de espera', 'Reembolsada por falta de inventario'),
 * read for the orders the tab shows and again whenever a line or an order of the shopper changes.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { fetchPreorderStatuses, type PreorderLineStatus } from '~/data/preorders.ts';
import { PREORDER_ORDERS_TEXT as TEXT } from '~/i18n/preorders.ts';
import { $orders } from '~/stores/account.ts';
import { useLiveRows } from './useLive.ts';

const BADGE: Record<PreorderLineStatus, string> = {
  awaiting: 'badge-info',
  allocated: 'badge-success',
  waitlisted: 'badge-warning',
  refunded: 'badge-danger',
};

/** Order id → its preorder state, for the shopper's orders that have a preorder line. */
export function usePreorderStatuses(userId: string): ReadonlyMap<string, PreorderLineStatus> {
  const orders = useStore($orders);
  const [statuses, setStatuses] = useState<ReadonlyMap<string, PreorderLineStatus>>(new Map());
  const [version, setVersion] = useState(0);
  const key = (orders.value ?? []).map((order) => `${order.id}:${order.status}`).join(',');
  useLiveRows('preorder_lines', userId, () => setVersion((v) => v + 1));
  useEffect(() => {
    let current = true;
    const ids = key === '' ? [] : key.split(',').map((entry) => entry.split(':')[0]!);
    fetchPreorderStatuses(ids)
      .then((map) => current && setStatuses(map))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [key, version]);
  return statuses;
}

export default function PreorderBadge({ status }: { status: PreorderLineStatus | undefined }) {
  if (!status) return null;
  return (
    <span className={`badge ${BADGE[status]} preorder-badge`} data-testid="preorder-status">
      {TEXT[status]}
    </span>
  );
}
