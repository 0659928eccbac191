import { useEffect, useState, type FormEvent } from 'react';
import { ADMIN_PAGE_SIZE, ORDER_STATUS, formatOrderAmount, formatOrderDate, orderDisplayId, statusColor } from '~/domain/orders.ts';
import { paymentMethodLabel } from '~/domain/payment-methods.ts';
import { BADGE } from './badges.ts';
import { loadOrders, type AdminOrder, type OrderFilter } from '~/data/admin.ts';
import OrderDetailView from './OrderDetail.tsx';
import { Pager } from '../ui/Pager.tsx';
import { AdminTable } from './AdminTable.tsx';
import { usePagedList } from '../ui/use-paged-list.ts';
import { COMMON_TEXT } from '~/i18n/common.ts';
import { ADMIN_ORDERS_TEXT } from '~/i18n/admin.ts';

/** The order table's columns. */
const ORDER_COLUMNS = [
  { label: ADMIN_ORDERS_TEXT.order },
  { label: ADMIN_ORDERS_TEXT.date },
  { label: ADMIN_ORDERS_TEXT.customer },
  { label: ADMIN_ORDERS_TEXT.total, num: true },
  { label: ADMIN_ORDERS_TEXT.paymentMethod },
  { label: ADMIN_ORDERS_TEXT.status },
];

const EMPTY: OrderFilter = { status: '', from: '', to: '', search: '', page: 1 };

function filterFromUrl(): { filter: OrderFilter; orderId: string | null } {
  const params = new URLSearchParams(window.location.search);
  const page = Number(params.get('pagina') ?? '1');
  return {
    filter: {
      status: params.get('estado') ?? '',
      from: params.get('desde') ?? '',
      to: params.get('hasta') ?? '',
      search: params.get('q') ?? '',
      page: Number.isInteger(page) && page > 0 ? page : 1,
    },
    orderId: params.get('pedido'),
  };
}

function writeUrl(filter: OrderFilter, orderId: string | null): void {
  const params = new URLSearchParams();
  if (filter.status) params.set('estado', filter.status);
  if (filter.from) params.set('desde', filter.from);
  if (filter.to) params.set('hasta', filter.to);
  if (filter.search) params.set('q', filter.search);
  if (filter.page > 1) params.set('pagina', String(filter.page));
  if (orderId) params.set('pedido', orderId);
  const query = params.toString();
  window.history.replaceState(null, '', `${window.location.pathname}${query ? `?${query}` : ''}`);
}

/** 'Pedidos': every order, newest first, 25 per page, with filters, search and the order detail. */
export default function OrdersSection() {
  const [orderId, setOrderId] = useState<string | null>(null);
  const list = usePagedList({
    read: loadOrders,
    empty: EMPTY,
    initial: () => filterFromUrl().filter,
    pageSize: ADMIN_PAGE_SIZE,
    paused: orderId !== null,
  });
  const { filter, result } = list;

  useEffect(() => setOrderId(filterFromUrl().orderId), []);

  useEffect(() => {
    if (filter) writeUrl(filter, orderId);
  }, [filter, orderId]);

  if (orderId && filter) {
    return <OrderDetailView orderId={orderId} onBack={() => setOrderId(null)} />;
  }

  return (
    <section aria-labelledby="adm-orders-title">
      <h1 id="adm-orders-title">{ADMIN_ORDERS_TEXT.title}</h1>
      <OrderFilters draft={list.draft} onChange={list.setDraft} onApply={list.apply} onClear={() => list.reset(EMPTY)} />

      {list.failed ? (
        <div className="acct-actions">
          <p className="acct-error" role="alert">
            {ADMIN_ORDERS_TEXT.loadFailed}
          </p>
          <button type="button" className="btn btn-outline" onClick={() => void list.reload()}>
            {COMMON_TEXT.retry}
          </button>
        </div>
      ) : !result ? (
        <p role="status">{ADMIN_ORDERS_TEXT.loading}</p>
      ) : result.orders.length === 0 ? (
        <p role="status">{ADMIN_ORDERS_TEXT.none}</p>
      ) : (
        <>
          <p className="muted" role="status">
            {ADMIN_ORDERS_TEXT.count(result.total)}
          </p>
          <OrdersTable
            orders={result.orders}
            onOpen={(id) => {
              setOrderId(id);
              window.scrollTo(0, 0);
            }}
          />
          <Pager className="adm-pager" label={ADMIN_ORDERS_TEXT.pagerLabel} pager={list.pager} onPage={list.goTo} />
        </>
      )}
    </section>
  );
}

interface FiltersProps {
  draft: OrderFilter;
  onChange: (draft: OrderFilter) => void;
  onApply: (event: FormEvent) => void;
  onClear: () => void;
}

/** The search, status and date filters of the order list. */
function OrderFilters({ draft, onChange, onApply, onClear }: FiltersProps) {
  return (
    <form className="adm-filters" onSubmit={onApply} role="search" aria-label={ADMIN_ORDERS_TEXT.searchLabel}>
      <div className="field">
        <label htmlFor="adm-order-search">{ADMIN_ORDERS_TEXT.search}</label>
        <input
          id="adm-order-search"
          className="input"
          type="search"
          enterKeyHint="search"
          placeholder={ADMIN_ORDERS_TEXT.searchPlaceholder}
          value={draft.search}
          onChange={(e) => onChange({ ...draft, search: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor="adm-order-status">{ADMIN_ORDERS_TEXT.status}</label>
        <select id="adm-order-status" className="input" value={draft.status} onChange={(e) => onChange({ ...draft, status: e.target.value })}>
          <option value="">{ADMIN_ORDERS_TEXT.all}</option>
          {Object.values(ORDER_STATUS).map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="adm-order-from">{ADMIN_ORDERS_TEXT.from}</label>
        <input id="adm-order-from" className="input" type="date" value={draft.from} onChange={(e) => onChange({ ...draft, from: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor="adm-order-to">{ADMIN_ORDERS_TEXT.to}</label>
        <input id="adm-order-to" className="input" type="date" value={draft.to} onChange={(e) => onChange({ ...draft, to: e.target.value })} />
      </div>
      <div className="adm-actions">
        <button type="submit" className="btn btn-primary">
          {ADMIN_ORDERS_TEXT.filter}
        </button>
        <button type="button" className="btn btn-outline" onClick={onClear}>
          {ADMIN_ORDERS_TEXT.clear}
        </button>
      </div>
    </form>
  );
}

/** The page of orders; a click opens one without leaving the page. */
function OrdersTable({ orders, onOpen }: { orders: AdminOrder[]; onOpen: (id: string | null) => void }) {
  return (
    <AdminTable label={ADMIN_ORDERS_TEXT.listLabel} columns={ORDER_COLUMNS}>
      {orders.map((order) => (
        <tr key={order.id} data-testid="admin-order-row" data-order-id={order.id}>
          <td>
            <a
              href={`/admin/pedidos?pedido=${order.id}`}
              onClick={(e) => {
                e.preventDefault();
                onOpen(order.id);
              }}
            >
              {orderDisplayId(order.id)}
            </a>
          </td>
          <td data-label={ADMIN_ORDERS_TEXT.date}>{formatOrderDate(order.created_at)}</td>
          <td>
            {order.customer_name ?? ADMIN_ORDERS_TEXT.noName}
            <br />
            <span className="muted">{order.customer_email ?? '-'}</span>
          </td>
          <td className="num" data-label={ADMIN_ORDERS_TEXT.total}>
            {formatOrderAmount(order.totalCentavos)}
          </td>
          <td data-label={ADMIN_ORDERS_TEXT.paymentMethod} data-testid="admin-order-method">
            {paymentMethodLabel({ method: order.payment_method, installments: order.installments, provider: order.payment_provider }, { months: true }) ?? '-'}
          </td>
          <td data-label={ADMIN_ORDERS_TEXT.status}>
            <span className={`badge ${BADGE[statusColor(order.status)]}`}>{order.status}</span>
          </td>
        </tr>
      ))}
    </AdminTable>
  );
}
