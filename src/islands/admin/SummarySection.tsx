import { useEffect, useId, useState } from 'react';
import { addCentavos, centavos, formatCentavos } from '~/domain/money.ts';
import { orderDisplayId } from '~/domain/orders.ts';
import { paymentMethodLabel } from '~/domain/payment-methods.ts';
import { loadRefundsToReview, loadSummary, resolveChargeback, type RefundToReview, type SalesDay, type Summary } from '~/data/admin.ts';
import { formatCount } from '~/domain/counts.ts';
import { COMMON_TEXT } from '~/i18n/common.ts';
import { ADMIN_SUMMARY_TEXT } from '~/i18n/admin.ts';
import PointsRateSettings from './PointsRateSettings.tsx';

const dayLabel = new Intl.DateTimeFormat('es-MX', { day: 'numeric', month: 'short', timeZone: 'UTC' });
/** '2026-11-23' (or a timestamp text starting with it) as '23 nov'; the text itself when not a date. */
function formatDay(day: string): string {
  const date = new Date(`${day.slice(0, 10)}T12:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : dayLabel.format(date);
}

/** Paid orders per day over 30 days as bars; the table below carries the same numbers. */
function SalesChart({ sales }: { sales: SalesDay[] }) {
  const id = useId();
  const width = 600;
  const height = 200;
  const pad = { left: 8, right: 8, top: 12, bottom: 24 };
  // Bars are scaled to the best day, and to at least one peso.
  const max = Math.max(100, ...sales.map((d) => d.totalCentavos));
  const slot = (width - pad.left - pad.right) / Math.max(1, sales.length);
  const totalSum = addCentavos(centavos(0), ...sales.map((d) => d.totalCentavos));
  const orderSum = sales.reduce((sum, d) => sum + d.orders, 0);
  const best = sales.reduce<SalesDay | null>((top, d) => (!top || d.totalCentavos > top.totalCentavos ? d : top), null);
  return (
    <svg className="adm-chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={`${id}-t ${id}-d`}>
      <title id={`${id}-t`}>{ADMIN_SUMMARY_TEXT.chartTitle}</title>
      <desc id={`${id}-d`}>
        {ADMIN_SUMMARY_TEXT.chartTotals(orderSum, formatCentavos(totalSum))}
        {best && best.totalCentavos > 0 ? ADMIN_SUMMARY_TEXT.chartBest(formatDay(best.day), formatCentavos(best.totalCentavos)) : ''}
      </desc>
      <line className="axis" x1={pad.left} x2={width - pad.right} y1={height - pad.bottom} y2={height - pad.bottom} />
      {sales.map((d, i) => {
        const h = ((height - pad.top - pad.bottom) * d.totalCentavos) / max;
        const x = pad.left + i * slot + slot * 0.15;
        return (
          <g key={d.day}>
            <rect className="bar" x={x} y={height - pad.bottom - h} width={slot * 0.7} height={h}>
              <title>{ADMIN_SUMMARY_TEXT.chartBar(formatDay(d.day), d.orders, formatCentavos(d.totalCentavos))}</title>
            </rect>
            {(sales.length - 1 - i) % 7 === 0 ? (
              <text x={x + slot * 0.35} y={height - 8} textAnchor="middle">
                {formatDay(d.day)}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}

/** 'Resumen': 30 days of sales and what waits for the shop. */
export default function SummarySection() {
  const [summary, setSummary] = useState<Summary | null>(null);
  const [failed, setFailed] = useState(false);
  // null while loading; 'failed' when they could not be read.
  const [refunds, setRefunds] = useState<RefundToReview[] | null | 'failed'>(null);

  async function load() {
    setFailed(false);
    setRefunds(null);
    void loadRefundsToReview().then((list) => setRefunds(list ?? 'failed'));
    const data = await loadSummary();
    if (data) setSummary(data);
    else setFailed(true);
  }
  useEffect(() => {
    void load();
  }, []);

  return (
    <section aria-labelledby="adm-summary-title">
      <h1 id="adm-summary-title">{ADMIN_SUMMARY_TEXT.title}</h1>
      {failed ? (
        <div className="acct-actions">
          <p className="acct-error" role="alert">
            {ADMIN_SUMMARY_TEXT.loadFailed}
          </p>
          <button type="button" className="btn btn-outline" onClick={() => void load()}>
            {COMMON_TEXT.retry}
          </button>
        </div>
      ) : !summary ? (
        <p role="status">{ADMIN_SUMMARY_TEXT.loading}</p>
      ) : (
        <>
          <ul className="adm-counters" aria-label={ADMIN_SUMMARY_TEXT.countersLabel}>
            <li>
              <a className="adm-counter" href="/admin/pedidos?estado=Pagado" data-testid="counter-to-ship">
                <strong>{summary.toShip}</strong> {ADMIN_SUMMARY_TEXT.toShip}
              </a>
            </li>
            <li>
              <a className="adm-counter" href="/admin/pedidos?estado=Pendiente" data-testid="counter-pending">
                <strong>{summary.pendingPayment}</strong> {ADMIN_SUMMARY_TEXT.pendingPayment}
              </a>
            </li>
            <li>
              <a className="adm-counter" href="#reembolsos" data-testid="counter-refunds">
                <strong>{summary.refundsToReview}</strong> {ADMIN_SUMMARY_TEXT.refundsToReview}
              </a>
            </li>
            <li>
              <a className="adm-counter" href="/admin/productos?filtro=poco-stock" data-testid="counter-low-stock">
                <strong>{summary.lowStockCount}</strong> {ADMIN_SUMMARY_TEXT.lowStockCounter}
              </a>
            </li>
          </ul>

          <h2 id="reembolsos" tabIndex={-1}>
            {ADMIN_SUMMARY_TEXT.refundsToReview}
          </h2>
          <RefundsToReview refunds={refunds} onResolved={() => void loadRefundsToReview().then((list) => setRefunds(list ?? 'failed'))} />

          <h2>{ADMIN_SUMMARY_TEXT.salesTitle}</h2>
          <p className="muted">{ADMIN_SUMMARY_TEXT.salesHint}</p>
          <SalesChart sales={summary.sales} />
          <SalesTable sales={summary.sales} />

          <h2>{ADMIN_SUMMARY_TEXT.lowStockTitle}</h2>
          {summary.lowStock.length === 0 ? (
            <p>{ADMIN_SUMMARY_TEXT.noLowStock}</p>
          ) : (
            <ul className="adm-low-stock" data-testid="low-stock">
              {summary.lowStock.slice(0, 10).map((p) => (
                <li key={p.id}>
                  <a href={`/admin/productos?q=${encodeURIComponent(p.id)}`}>{p.name}</a> — {ADMIN_SUMMARY_TEXT.units(p.stock)}
                </li>
              ))}
            </ul>
          )}
          {summary.lowStockCount > 10 && (
            <p className="adm-more">
              <a href="/admin/productos?filtro=poco-stock">{ADMIN_SUMMARY_TEXT.seeLowStock(formatCount(summary.lowStockCount))}</a>
            </p>
          )}
        </>
      )}
      <PointsRateSettings />
    </section>
  );
}

const refundDate = new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'America/Mexico_City' });

/**
 * 'Reembolsos por revisar': the refunds that have not gone through yet, those stopped for an admin
 * ('Requiere atención manual') first, then chargebacks holding a balance ('Contracargo') with the
 * admin's decision, with whose money it is, how much, how it goes back and how many times the shop
 * tried.
 */
function RefundsToReview({ refunds, onResolved }: { refunds: RefundToReview[] | null | 'failed'; onResolved: () => void }) {
  if (refunds === null) return <p role="status">{ADMIN_SUMMARY_TEXT.refundsLoading}</p>;
  if (refunds === 'failed') {
    return (
      <p className="acct-error" role="alert">
        {ADMIN_SUMMARY_TEXT.refundsFailed}
      </p>
    );
  }
  if (refunds.length === 0) return <p>{ADMIN_SUMMARY_TEXT.refundsNone}</p>;
  return (
    <div className="acct-table-wrap" tabIndex={0} role="region" aria-label={ADMIN_SUMMARY_TEXT.refundsToReview}>
      <table className="acct-table adm-table adm-cards table-cards" data-testid="refunds-to-review">
        <thead>
          <tr>
            <th scope="col">{ADMIN_SUMMARY_TEXT.order}</th>
            <th scope="col">{ADMIN_SUMMARY_TEXT.customer}</th>
            <th scope="col" className="num">
              {ADMIN_SUMMARY_TEXT.amount}
            </th>
            <th scope="col">{ADMIN_SUMMARY_TEXT.paymentMethod}</th>
            <th scope="col" className="num">
              {ADMIN_SUMMARY_TEXT.attempts}
            </th>
            <th scope="col">{ADMIN_SUMMARY_TEXT.status}</th>
          </tr>
        </thead>
        <tbody>
          {refunds.map((r) => (
            <tr key={r.id} data-refund-id={r.id}>
              <td data-label={ADMIN_SUMMARY_TEXT.order}>
                <a href={`/admin/pedidos?pedido=${encodeURIComponent(r.order_id)}`}>{ADMIN_SUMMARY_TEXT.orderLink(orderDisplayId(r.order_id))}</a>
              </td>
              <td data-label={ADMIN_SUMMARY_TEXT.customer}>
                {r.customer_name ?? ADMIN_SUMMARY_TEXT.noName}
                <br />
                <span className="muted">{r.customer_email ?? ADMIN_SUMMARY_TEXT.noEmail}</span>
              </td>
              <td className="num" data-label={ADMIN_SUMMARY_TEXT.amount}>
                {formatCentavos(r.amountCentavos)}
              </td>
              <td data-label={ADMIN_SUMMARY_TEXT.paymentMethod}>{paymentMethodLabel({ provider: r.provider }) ?? '-'}</td>
              <td className="num" data-label={ADMIN_SUMMARY_TEXT.attempts}>
                {r.status === 'chargeback' ? '-' : r.attempts}
              </td>
              <td data-label={ADMIN_SUMMARY_TEXT.status}>
                {r.status === 'chargeback' ? <ChargebackDecision chargeback={r} onResolved={onResolved} /> : <RefundState refund={r} />}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A chargeback on an order that used the balance: the balance is held ('Contracargo: saldo
 * retenido', with what happened) until the admin returns it to the shopper or keeps it.
 */
function ChargebackDecision({ chargeback, onResolved }: { chargeback: RefundToReview; onResolved: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function decide(returnCredit: boolean) {
    setBusy(true);
    setError(null);
    const result = await resolveChargeback(chargeback.id, returnCredit);
    setBusy(false);
    if (result.ok) onResolved();
    else setError(result.message || ADMIN_SUMMARY_TEXT.decisionFailed);
  }
  return (
    <>
      <span className="badge badge-danger">{ADMIN_SUMMARY_TEXT.chargeback}</span>
      {chargeback.last_error && (
        <>
          <br />
          <span className="muted">{chargeback.last_error}</span>
        </>
      )}
      <div className="acct-actions">
        <button type="button" className="btn btn-outline" disabled={busy} onClick={() => void decide(true)}>
          {ADMIN_SUMMARY_TEXT.returnCredit}
        </button>
        <button type="button" className="btn btn-outline" disabled={busy} onClick={() => void decide(false)}>
          {ADMIN_SUMMARY_TEXT.keepCredit}
        </button>
      </div>
      {error && (
        <p className="acct-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

/** 'Requiere atención manual' once the shop stopped retrying; 'Reintentando' (and when) otherwise. */
function RefundState({ refund }: { refund: RefundToReview }) {
  if (refund.status === 'manual') return <span className="badge badge-danger">{ADMIN_SUMMARY_TEXT.manual}</span>;
  return (
    <>
      <span className="badge badge-warning">{ADMIN_SUMMARY_TEXT.retrying}</span>
      {refund.next_attempt_at && (
        <>
          <br />
          <span className="muted">{ADMIN_SUMMARY_TEXT.nextAttempt(refundDate.format(new Date(refund.next_attempt_at)))}</span>
        </>
      )}
    </>
  );
}

/** The sales of the chart, as a table. */
function SalesTable({ sales }: { sales: SalesDay[] }) {
  return (
    <details>
      <summary>{ADMIN_SUMMARY_TEXT.seeTable}</summary>
      <div className="acct-table-wrap" tabIndex={0} role="region" aria-label={ADMIN_SUMMARY_TEXT.salesByDay}>
        <table className="acct-table adm-table">
          <caption className="visually-hidden">{ADMIN_SUMMARY_TEXT.salesCaption}</caption>
          <thead>
            <tr>
              <th scope="col">{ADMIN_SUMMARY_TEXT.day}</th>
              <th scope="col" className="num">
                {ADMIN_SUMMARY_TEXT.paidOrders}
              </th>
              <th scope="col" className="num">
                {ADMIN_SUMMARY_TEXT.total}
              </th>
            </tr>
          </thead>
          <tbody>
            {sales.map((d) => (
              <tr key={d.day}>
                <th scope="row">{formatDay(d.day)}</th>
                <td className="num">{d.orders}</td>
                <td className="num">{formatCentavos(d.totalCentavos)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
