import { Fragment, useCallback, useEffect, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { listOrderLines, type AccountOrder, type OrderLine } from '~/data/orders.ts';
import { supabaseUrl } from '~/data/supabase.ts';
import { formatCentavos } from '~/domain/money.ts';
import { IMAGE_SLOTS, resolveImage } from '~/domain/images.ts';
import { formatAddressCopy } from '~/domain/address-copy.ts';
import { formatOrderDate, orderDisplayId, paginate, statusColor, type StatusColor, ORDER_STATUS } from '~/domain/orders.ts';
import { paymentMethodLabel } from '~/domain/payment-methods.ts';
import { $orders, reloadOrders, startOrders } from '~/stores/account.ts';
import { ACCOUNT_ORDER_MESSAGES, ACCOUNT_ORDERS_TEXT } from '~/i18n/account.ts';
import { COMMON_TEXT, ORDER_LINE_TEXT } from '~/i18n/common.ts';
import { AsyncState, Loading } from '../ui/AsyncState.tsx';
import { Picture } from '../ui/Picture.tsx';
import { Pager } from '../ui/Pager.tsx';
import { useLiveRows } from './useLive.ts';
import OrderPaymentNote from './OrderPaymentNote.tsx';
import OrderTracking from './OrderTracking.tsx';
import PreorderBadge, { usePreorderStatuses } from './PreorderBadge.tsx';
import InvoiceBlock from './InvoiceBlock.tsx';
import type { PreorderLineStatus } from '~/data/preorders.ts';

const BADGE: Record<StatusColor, string> = {
  green: 'badge-success',
  yellow: 'badge-warning',
  red: 'badge-danger',
  blue: 'badge-info',
};

type LinesState = { status: 'loading' } | { status: 'error' } | { status: 'done'; lines: OrderLine[] };

/** "Mis pedidos": the user's orders, 8 per page, each with its lines on demand. */
export default function OrdersPanel({ userId }: { userId: string }) {
  const state = useStore($orders);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<Set<string>>(new Set());
  const [lines, setLines] = useState<Record<string, LinesState>>({});
  const inFlight = useRef(new Set<string>());

  useEffect(() => startOrders(userId), [userId]);
  useLiveRows('orders', userId, () => void reloadOrders(userId));
  const preorders = usePreorderStatuses(userId);

  const loadLines = useCallback(
    async (orderId: string, force = false) => {
      if (inFlight.current.has(orderId)) return;
      if (!force && lines[orderId] && lines[orderId]!.status !== 'error') return;
      inFlight.current.add(orderId);
      setLines((all) => ({ ...all, [orderId]: { status: 'loading' } }));
      const result = await listOrderLines(orderId);
      inFlight.current.delete(orderId);
      setLines((all) => ({ ...all, [orderId]: result.error ? { status: 'error' } : { status: 'done', lines: result.data } }));
    },
    [lines],
  );

  function toggle(orderId: string) {
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(orderId)) next.delete(orderId);
      else next.add(orderId);
      return next;
    });
    void loadLines(orderId);
  }

  return (
    <>
      <h2>{ACCOUNT_ORDERS_TEXT.title}</h2>
      <AsyncState
        state={state}
        failed={ACCOUNT_ORDER_MESSAGES.loadFailed}
        onRetry={() => void reloadOrders(userId)}
        loading={<Loading text={ACCOUNT_ORDERS_TEXT.loading} />}
      >
        {(orders) => {
          if (orders.length === 0) return <p>{ACCOUNT_ORDER_MESSAGES.empty}</p>;
          const current = paginate(orders, page);
          return (
            <>
              <div className="acct-table-wrap">
                <table className="acct-table acct-orders table-cards">
                  <thead>
                    <tr>
                      <th scope="col">{ACCOUNT_ORDERS_TEXT.id}</th>
                      <th scope="col">{ACCOUNT_ORDERS_TEXT.date}</th>
                      <th scope="col">{ACCOUNT_ORDERS_TEXT.total}</th>
                      <th scope="col">{ACCOUNT_ORDERS_TEXT.status}</th>
                      <th scope="col">
                        <span className="visually-hidden">{ACCOUNT_ORDERS_TEXT.details}</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {current.items.map((order) => (
                      <OrderRowView
                        key={order.id}
                        order={order}
                        preorder={preorders.get(order.id)}
                        isOpen={open.has(order.id)}
                        lines={lines[order.id]}
                        onPeek={() => void loadLines(order.id)}
                        onToggle={() => toggle(order.id)}
                        onRetry={() => void loadLines(order.id, true)}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager className="acct-pager" label={ACCOUNT_ORDERS_TEXT.pagerLabel} live pager={current} onPage={setPage} />
            </>
          );
        }}
      </AsyncState>
    </>
  );
}

interface RowProps {
  order: AccountOrder;
  preorder?: PreorderLineStatus | undefined;
  isOpen: boolean;
  lines: LinesState | undefined;
  onPeek: () => void;
  onToggle: () => void;
  onRetry: () => void;
}

/** How a paid (or refunded) order was paid: 'Tarjeta', 'Meses sin intereses (6 meses)', 'Efectivo en OXXO', …; null before it is paid. */
function paidWith(order: AccountOrder): string | null {
  if (!order.paid_at && order.status !== ORDER_STATUS.refunded) return null;
  return paymentMethodLabel({ method: order.payment_method, installments: order.installments, provider: order.payment_provider }, { months: true });
}

/** One order: its row, and when open its address, how it was paid, tracking and lines. */
function OrderRowView({ order, preorder, isOpen, lines, onPeek, onToggle, onRetry }: RowProps) {
  const address = order.status !== ORDER_STATUS.pending ? formatAddressCopy(order.shipping_address) : null;
  const method = paidWith(order);
  return (
    <Fragment>
      <tr data-testid="order-row" data-order-id={order.id}>
        <td data-label={ACCOUNT_ORDERS_TEXT.id}>{orderDisplayId(order.id)}</td>
        <td data-label={ACCOUNT_ORDERS_TEXT.date}>{formatOrderDate(order.created_at)}</td>
        <td data-label={ACCOUNT_ORDERS_TEXT.total}>{order.totalCentavos === null ? '-' : formatCentavos(order.totalCentavos)}</td>
        <td className="acct-order-status">
          <span className={`badge ${BADGE[statusColor(order.status)]}`} data-color={statusColor(order.status)}>
            {order.status}
          </span>
          <PreorderBadge status={preorder} />
          <OrderPaymentNote order={order} />
        </td>
        <td className="acct-order-toggle">
          <button
            type="button"
            className="acct-link"
            aria-expanded={isOpen}
            aria-controls={`order-lines-${order.id}`}
            onMouseEnter={onPeek}
            onFocus={onPeek}
            onClick={onToggle}
          >
            {isOpen ? ACCOUNT_ORDERS_TEXT.hide : ACCOUNT_ORDERS_TEXT.show}
            <span className="visually-hidden">{ACCOUNT_ORDERS_TEXT.ofOrder(orderDisplayId(order.id))}</span>
          </button>
        </td>
      </tr>
      {isOpen && (
        <tr id={`order-lines-${order.id}`} data-testid="order-lines">
          <td colSpan={5}>
            {address && (
              <p className="muted" data-testid="order-address">
                {ACCOUNT_ORDERS_TEXT.shipTo(address)}
              </p>
            )}
            {method && (
              <p className="muted" data-testid="order-payment-method">
                {ACCOUNT_ORDERS_TEXT.paidWith(method)}
              </p>
            )}
            <OrderTracking orderId={order.id} status={order.status} />
            <OrderLines state={lines} onRetry={onRetry} />
            <InvoiceBlock orderId={order.id} status={order.status} paidAt={order.paid_at} />
          </td>
        </tr>
      )}
    </Fragment>
  );
}

/** The products of an open order. */
function OrderLines({ state, onRetry }: { state: LinesState | undefined; onRetry: () => void }) {
  if (!state || state.status === 'loading') return <p role="status">{ACCOUNT_ORDERS_TEXT.loadingLines}</p>;
  if (state.status === 'error') {
    return (
      <div className="acct-actions" role="alert">
        <p className="acct-error">
          <strong>{ACCOUNT_ORDER_MESSAGES.linesFailedTitle}</strong>: {ACCOUNT_ORDER_MESSAGES.linesFailed}
        </p>
        <button type="button" className="btn btn-outline" onClick={onRetry}>
          {COMMON_TEXT.retry}
        </button>
      </div>
    );
  }
  if (state.lines.length === 0) return <p>{ACCOUNT_ORDER_MESSAGES.noLines}</p>;
  const storage = supabaseUrl();
  return (
    <ul className="acct-lines">
      {state.lines.map((line) => (
        <li key={line.id} data-testid="order-line">
          {line.product?.image ? (
            <Picture src={resolveImage(line.product.image, storage)} frame={IMAGE_SLOTS.thumb48} box={[48, 48]} alt="" loading="lazy" />
          ) : (
            <span aria-hidden="true" />
          )}
          <span>
            <strong>{line.product?.name ?? ACCOUNT_ORDER_MESSAGES.missingProduct}</strong>
            {line.offerLabel && (
              <>
                <br />
                <span className="muted">{line.offerLabel}</span>
              </>
            )}
            <br />
            <span className="muted">{ORDER_LINE_TEXT.quantity(line.quantity)}</span>
          </span>
          <span>{formatCentavos(line.priceCentavos)}</span>
        </li>
      ))}
    </ul>
  );
}
