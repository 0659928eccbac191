import { useCallback, useEffect, useRef, useState } from 'react';
import { centavos, formatCentavos } from '~/domain/money.ts';
import { lineTotalCentavos } from '~/domain/pricing.ts';
import { addressLines, parseAddressCopy } from '~/domain/address-copy.ts';
import { AddressLines } from '../ui/AddressLines.tsx';
import { CopyAddressButton } from './CopyAddressButton.tsx';
import { CARRIERS, formatOrderAmount, orderActions, orderDisplayId, statusColor, trackingUrl, ORDER_STATUS } from '~/domain/orders.ts';
import { changeOrderStatus, loadOrderDetail, type AdminOrder, type AdminOrderLine, type OrderDetail, type OrderEvent } from '~/data/admin.ts';
import ConfirmDialog from '../ui/ConfirmDialog.tsx';
import RefundDialog from './RefundDialog.tsx';
import { orderEventNote, paymentMethodLabel } from '~/domain/payment-methods.ts';
import { BADGE } from './badges.ts';
import type { FormResult } from '~/domain/validation.ts';
import { describedBy, Field, SelectField } from '../ui/Field.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { useForm } from '../ui/use-form.ts';
import { ADMIN_ORDER_DETAIL_TEXT } from '~/i18n/admin.ts';

const dateTime = new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'America/Mexico_City' });
const when = (value: string | null) => (value ? dateTime.format(new Date(value)) : '-');

function who(event: OrderEvent, customerId: string): string {
  if (!event.actor) return ADMIN_ORDER_DETAIL_TEXT.bySystem;
  if (event.actor === customerId) return ADMIN_ORDER_DETAIL_TEXT.byCustomer;
  return ADMIN_ORDER_DETAIL_TEXT.byAdmin;
}

type Pending = null | 'refund' | 'cancel';

/** One order: lines, amounts, customer, address copy, payment, history and the actions its status allows. */
export default function OrderDetailView({ orderId, onBack }: { orderId: string; onBack: () => void }) {
  const [detail, setDetail] = useState<OrderDetail | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [confirm, setConfirm] = useState<Pending>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const load = useCallback(async () => {
    const data = await loadOrderDetail(orderId);
    if (data) {
      setDetail(data);
      setFailed(false);
    } else setFailed(true);
  }, [orderId]);

  useEffect(() => {
    void load();
  }, [load]);
  // Opening an order moves the focus to its heading (keyboard and screen reader users land there).
  const focused = useRef(false);
  useEffect(() => {
    if (!detail || focused.current) return;
    focused.current = true;
    heading.current?.focus();
  }, [detail]);

  async function run(action: () => ReturnType<typeof changeOrderStatus>, success: string) {
    setBusy(true);
    setMessage(null);
    const answer = await action();
    setBusy(false);
    setConfirm(null);
    if (answer.ok) {
      setMessage({ kind: 'success', text: success });
      await load();
    } else {
      setMessage({ kind: 'error', text: answer.message || ADMIN_ORDER_DETAIL_TEXT.changeFailed });
      await load();
    }
  }

  // The refund dialog closed after the refund: say so, show the order as it is now, focus its heading.
  async function refunded(text: string) {
    setConfirm(null);
    setMessage({ kind: 'success', text });
    await load();
    heading.current?.focus();
  }

  // Closed without a refund (perhaps after the server refused it): show the order as it is now.
  async function refundClosed() {
    setConfirm(null);
    await load();
  }

  const back = (
    <p>
      <a
        className="btn btn-outline"
        href="/admin/pedidos"
        onClick={(e) => {
          e.preventDefault();
          onBack();
        }}
      >
        {ADMIN_ORDER_DETAIL_TEXT.back}
      </a>
    </p>
  );

  if (failed) {
    return (
      <section>
        {back}
        <p className="acct-error" role="alert">
          {ADMIN_ORDER_DETAIL_TEXT.loadFailed}
        </p>
      </section>
    );
  }
  if (!detail) return <p role="status">{ADMIN_ORDER_DETAIL_TEXT.loading}</p>;

  const { order, lines, events } = detail;
  const number = orderDisplayId(order.id);

  return (
    <section aria-labelledby="adm-order-title" data-testid="admin-order-detail">
      {back}
      <h1 id="adm-order-title" ref={heading} tabIndex={-1}>
        {ADMIN_ORDER_DETAIL_TEXT.title(number)}
      </h1>
      <p>
        <span className={`badge ${BADGE[statusColor(order.status)]}`} data-testid="admin-order-status">
          {order.status}
        </span>{' '}
        <span className="muted">{ADMIN_ORDER_DETAIL_TEXT.created(when(order.created_at))}</span>
      </p>
      {message && (
        <p className={`acct-note acct-note-${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}

      <OrderActionsBox
        orderId={orderId}
        order={order}
        busy={busy}
        confirm={confirm}
        onConfirm={setConfirm}
        run={run}
        onRefunded={(text) => void refunded(text)}
        onRefundClosed={() => void refundClosed()}
      />

      <OrderParties order={order} />

      <OrderLinesTable order={order} lines={lines} />

      <OrderHistory events={events} customerId={order.user_id ?? ''} />
    </section>
  );
}

/** 'Marcar como enviado': the carrier and the tracking number, both required. */
function ShipForm({ busy, onShip }: { busy: boolean; onShip: (carrier: string, trackingNumber: string) => Promise<unknown> }) {
  const [carrier, setCarrier] = useState('');
  const [tracking, setTracking] = useState('');
  const form = useForm({
    validate: (): FormResult<{ carrier: string; tracking: string }> => {
      const errors: Record<string, string> = {};
      if (!carrier) errors.carrier = ADMIN_ORDER_DETAIL_TEXT.chooseCarrier;
      if (!tracking.trim()) errors.tracking = ADMIN_ORDER_DETAIL_TEXT.trackingNumberRequired;
      return Object.keys(errors).length > 0 ? { ok: false, fieldErrors: errors, formError: '' } : { ok: true, data: { carrier, tracking: tracking.trim() } };
    },
    send: async (data) => {
      await onShip(data.carrier, data.tracking);
    },
  });

  return (
    <form onSubmit={form.onSubmit} aria-label={ADMIN_ORDER_DETAIL_TEXT.markShipped} noValidate>
      <div className="acct-row">
        <SelectField
          id="adm-carrier"
          label={ADMIN_ORDER_DETAIL_TEXT.carrier}
          value={carrier}
          options={[{ code: '', label: ADMIN_ORDER_DETAIL_TEXT.choose }, ...CARRIERS.map((c) => ({ code: c, label: c }))]}
          onChange={setCarrier}
          error={form.errors.carrier}
        />
        <Field id="adm-tracking" label={ADMIN_ORDER_DETAIL_TEXT.trackingNumber} error={form.errors.tracking}>
          <input
            id="adm-tracking"
            className="input"
            value={tracking}
            maxLength={100}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            {...describedBy('adm-tracking', form.errors.tracking)}
            onChange={(e) => setTracking(e.target.value)}
          />
        </Field>
      </div>
      <FormActions error={form.formError} busy={busy || form.busy} submitLabel={ADMIN_ORDER_DETAIL_TEXT.markShipped} className="adm-actions" />
    </form>
  );
}

/** 'Cliente' and 'Pago y envío'. */
function OrderParties({ order }: { order: AdminOrder }) {
  const copy = parseAddressCopy(order.shipping_address);
  const lines = copy ? addressLines(copy, { name: order.customer_name }) : [];
  const link = trackingUrl(order.carrier, order.tracking_number);
  return (
    <>
      <div className="adm-grid-2">
        <div>
          <h2>{ADMIN_ORDER_DETAIL_TEXT.customer}</h2>
          <dl className="adm-dl">
            <dt>{ADMIN_ORDER_DETAIL_TEXT.name}</dt>
            <dd>{order.customer_name ?? ADMIN_ORDER_DETAIL_TEXT.noName}</dd>
            <dt>{ADMIN_ORDER_DETAIL_TEXT.email}</dt>
            <dd>{order.customer_email ?? '-'}</dd>
            <dt>{ADMIN_ORDER_DETAIL_TEXT.shipTo}</dt>
            <dd>
              {copy && lines.length > 0 ? (
                <>
                  <AddressLines testId="admin-order-address" address={copy} name={order.customer_name} />
                  <CopyAddressButton text={lines.join('\n')} />
                </>
              ) : (
                <span data-testid="admin-order-address">{ADMIN_ORDER_DETAIL_TEXT.noAddress}</span>
              )}
            </dd>
          </dl>
        </div>
        <div>
          <h2>{ADMIN_ORDER_DETAIL_TEXT.paymentAndShipping}</h2>
          <dl className="adm-dl">
            <dt>{ADMIN_ORDER_DETAIL_TEXT.paymentMethod}</dt>
            <dd data-testid="admin-order-method">
              {paymentMethodLabel({ method: order.payment_method, installments: order.installments, provider: order.payment_provider }, { months: true }) ??
                ADMIN_ORDER_DETAIL_TEXT.noPayment}
            </dd>
            <dt>{ADMIN_ORDER_DETAIL_TEXT.reference}</dt>
            <dd>{order.payment_ref ?? '-'}</dd>
            <dt>{ADMIN_ORDER_DETAIL_TEXT.paid}</dt>
            <dd>{when(order.paid_at)}</dd>
            <dt>{ADMIN_ORDER_DETAIL_TEXT.carrier}</dt>
            <dd>{order.carrier ?? '-'}</dd>
            <dt>{ADMIN_ORDER_DETAIL_TEXT.trackingNumber}</dt>
            <dd>
              {order.tracking_number ? (
                link ? (
                  <a href={link} target="_blank" rel="noopener noreferrer">
                    {order.tracking_number}
                  </a>
                ) : (
                  order.tracking_number
                )
              ) : (
                '-'
              )}
            </dd>
            {order.refund_ref && (
              <>
                <dt>{ADMIN_ORDER_DETAIL_TEXT.refund}</dt>
                <dd>
                  {order.refund_ref} ({when(order.refunded_at)})
                </dd>
              </>
            )}
          </dl>
        </div>
      </div>
    </>
  );
}

/** 'Productos' and the order's stored amounts. */
function OrderLinesTable({ order, lines }: { order: AdminOrder; lines: AdminOrderLine[] }) {
  return (
    <>
      <h2>{ADMIN_ORDER_DETAIL_TEXT.products}</h2>
      <div className="acct-table-wrap" tabIndex={0} role="region" aria-label={ADMIN_ORDER_DETAIL_TEXT.linesLabel}>
        <table className="acct-table adm-table adm-cards table-cards">
          <thead>
            <tr>
              <th scope="col">{ADMIN_ORDER_DETAIL_TEXT.product}</th>
              <th scope="col" className="num">
                {ADMIN_ORDER_DETAIL_TEXT.quantity}
              </th>
              <th scope="col" className="num">
                {ADMIN_ORDER_DETAIL_TEXT.pricePaid}
              </th>
              <th scope="col" className="num">
                {ADMIN_ORDER_DETAIL_TEXT.amount}
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line) => (
              <tr key={line.id}>
                <td>
                  {line.name ?? ADMIN_ORDER_DETAIL_TEXT.productGone}
                  {line.offerLabel && (
                    <>
                      <br />
                      <span className="muted">{line.offerLabel}</span>
                    </>
                  )}
                </td>
                <td className="num" data-label={ADMIN_ORDER_DETAIL_TEXT.quantity}>
                  {line.quantity}
                </td>
                <td className="num" data-label={ADMIN_ORDER_DETAIL_TEXT.pricePaid}>
                  {formatCentavos(line.priceCentavos)}
                </td>
                <td className="num" data-label={ADMIN_ORDER_DETAIL_TEXT.amount}>
                  {formatCentavos(lineTotalCentavos(line))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl className="adm-dl" style={{ marginTop: 'var(--space-3)' }}>
        <dt>{ADMIN_ORDER_DETAIL_TEXT.subtotal}</dt>
        <dd>{formatOrderAmount(order.subtotalCentavos)}</dd>
        <dt>
          {ADMIN_ORDER_DETAIL_TEXT.discount}
          {order.coupon_code ? ` (${order.coupon_code})` : ''}
        </dt>
        <dd>{(order.discountCentavos ?? 0) > 0 ? `-${formatOrderAmount(order.discountCentavos)}` : formatCentavos(centavos(0))}</dd>
        <dt>{ADMIN_ORDER_DETAIL_TEXT.shipping}</dt>
        <dd>{(order.shippingCentavos ?? 0) === 0 ? ADMIN_ORDER_DETAIL_TEXT.free : formatOrderAmount(order.shippingCentavos)}</dd>
        <dt>
          <strong>{ADMIN_ORDER_DETAIL_TEXT.total}</strong>
        </dt>
        <dd>
          <strong>{formatOrderAmount(order.totalCentavos)}</strong>
        </dd>
      </dl>
    </>
  );
}

/** 'Historial': every status change, who made it and when. */
function OrderHistory({ events, customerId }: { events: OrderEvent[]; customerId: string }) {
  return (
    <>
      <h2>{ADMIN_ORDER_DETAIL_TEXT.history}</h2>
      <ol className="adm-history" data-testid="admin-order-history">
        {events.map((event) => (
          <li key={event.id}>
            <strong>{event.from_status ? `${event.from_status} → ${event.to_status}` : ADMIN_ORDER_DETAIL_TEXT.createdAs(event.to_status)}</strong>
            <br />
            <span className="muted">
              {when(event.created_at)} · {who(event, customerId)}
            </span>
            {event.note && (
              <>
                <br />
                {orderEventNote(event.note)}
              </>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}

interface ActionsProps {
  orderId: string;
  order: AdminOrder;
  busy: boolean;
  confirm: Pending;
  onConfirm: (pending: Pending) => void;
  run: (action: () => ReturnType<typeof changeOrderStatus>, success: string) => Promise<void>;
  /** The refund went through (or is under way): the message to show. */
  onRefunded: (message: string) => void;
  onRefundClosed: () => void;
}

/** 'Acciones': what the order's status allows (ship, complete, refund, cancel), with their confirmations. */
function OrderActionsBox({ orderId, order, busy, confirm, onConfirm: setConfirm, run, onRefunded, onRefundClosed }: ActionsProps) {
  const actions = orderActions(order.status);
  const number = orderDisplayId(order.id);
  return (
    <>
      {(actions.ship || actions.complete || actions.refund || actions.cancel) && (
        <div className="adm-box">
          <h2>{ADMIN_ORDER_DETAIL_TEXT.actions}</h2>
          {actions.ship && (
            <ShipForm
              busy={busy}
              onShip={(carrier, trackingNumber) =>
                run(() => changeOrderStatus(orderId, { status: ORDER_STATUS.shipped, carrier, trackingNumber }), ADMIN_ORDER_DETAIL_TEXT.shipped)
              }
            />
          )}
          <div className="adm-actions">
            {actions.complete && (
              <button
                type="button"
                className="btn btn-primary"
                disabled={busy}
                onClick={() => void run(() => changeOrderStatus(orderId, { status: ORDER_STATUS.completed }), ADMIN_ORDER_DETAIL_TEXT.completed)}
              >
                {ADMIN_ORDER_DETAIL_TEXT.markCompleted}
              </button>
            )}
            {actions.refund && (
              <button type="button" className="btn btn-outline" disabled={busy} onClick={() => setConfirm('refund')}>
                {ADMIN_ORDER_DETAIL_TEXT.cancelAndRefund}
              </button>
            )}
            {actions.cancel && (
              <button type="button" className="btn btn-outline" disabled={busy} onClick={() => setConfirm('cancel')}>
                {ADMIN_ORDER_DETAIL_TEXT.cancel}
              </button>
            )}
          </div>
        </div>
      )}

      {confirm === 'refund' && <RefundDialog orderId={orderId} order={order} onClose={onRefundClosed} onDone={onRefunded} />}
      <ConfirmDialog
        open={confirm === 'cancel'}
        title={ADMIN_ORDER_DETAIL_TEXT.cancelTitle(number)}
        confirmLabel={ADMIN_ORDER_DETAIL_TEXT.confirmCancel}
        busy={busy}
        onClose={() => setConfirm(null)}
        onConfirm={() => void run(() => changeOrderStatus(orderId, { status: ORDER_STATUS.cancelled }), ADMIN_ORDER_DETAIL_TEXT.cancelled)}
      >
        <p>{ADMIN_ORDER_DETAIL_TEXT.cancelBody}</p>
      </ConfirmDialog>
    </>
  );
}
