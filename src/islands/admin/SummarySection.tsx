import { useEffect, useId, useState } from 'react';
import { addCentavos, centavos, formatCentavos } from '~/domain/money.ts';
import { orderDisplayId } from '~/domain/orders.ts';
import { paymentMethodLabel } from '~/domain/payment-methods.ts';
import { loadRefundsToReview, loadSummary, resolveChargeback, type RefundToReview, type SalesDay, type Summary } from '~/data/admin.ts';
import { formatCount } from '~/domain/counts.ts';

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
      <title id={`${id}-t`}>Ventas de los últimos 30 días</title>
      <desc id={`${id}-d`}>
        {`${orderSum} pedidos pagados por ${formatCentavos(totalSum)} en total.`}
        {best && best.totalCentavos > 0 ? ` El mejor día fue el ${formatDay(best.day)}, con ${formatCentavos(best.totalCentavos)}.` : ''}
      </desc>
      <line className="axis" x1={pad.left} x2={width - pad.right} y1={height - pad.bottom} y2={height - pad.bottom} />
      {sales.map((d, i) => {
        const h = ((height - pad.top - pad.bottom) * d.totalCentavos) / max;
        const x = pad.left + i * slot + slot * 0.15;
        return (
          <g key={d.day}>
            <rect className="bar" x={x} y={height - pad.bottom - h} width={slot * 0.7} height={h}>
              <title>{`${formatDay(d.day)}: ${d.orders} pedidos, ${formatCentavos(d.totalCentavos)}`}</title>
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
      <h1 id="adm-summary-title">Resumen</h1>
      {failed ? (
        <div className="acct-actions">
          <p className="acct-error" role="alert">
            No se pudo cargar el resumen.
          </p>
          <button type="button" className="btn btn-outline" onClick={() => void load()}>
            Reintentar
          </button>
        </div>
      ) : !summary ? (
        <p role="status">Cargando resumen…</p>
      ) : (
        <>
          <ul className="adm-counters" aria-label="Pendientes">
            <li>
              <a className="adm-counter" href="/admin/pedidos?estado=Pagado" data-testid="counter-to-ship">
                <strong>{summary.toShip}</strong> Por enviar
              </a>
            </li>
            <li>
              <a className="adm-counter" href="/admin/pedidos?estado=Pendiente" data-testid="counter-pending">
                <strong>{summary.pendingPayment}</strong> Pendientes de pago
              </a>
            </li>
            <li>
              <a className="adm-counter" href="#reembolsos" data-testid="counter-refunds">
                <strong>{summary.refundsToReview}</strong> Reembolsos por revisar
              </a>
            </li>
            <li>
              <a className="adm-counter" href="/admin/productos?filtro=poco-stock" data-testid="counter-low-stock">
                <strong>{summary.lowStockCount}</strong> Con poco stock (3 o menos)
              </a>
            </li>
          </ul>

          <h2 id="reembolsos" tabIndex={-1}>
            Reembolsos por revisar
          </h2>
          <RefundsToReview refunds={refunds} onResolved={() => void loadRefundsToReview().then((list) => setRefunds(list ?? 'failed'))} />

          <h2>Ventas de los últimos 30 días</h2>
          <p className="muted">Pedidos pagados por día, total en MXN.</p>
          <SalesChart sales={summary.sales} />
          <SalesTable sales={summary.sales} />

          <h2>Productos con poco stock</h2>
          {summary.lowStock.length === 0 ? (
            <p>Ningún producto tiene 3 unidades o menos.</p>
          ) : (
            <ul className="adm-low-stock" data-testid="low-stock">
              {summary.lowStock.slice(0, 10).map((p) => (
                <li key={p.id}>
                  <a href={`/admin/productos?q=${encodeURIComponent(p.id)}`}>{p.name}</a> —{' '}
                  {p.stock === 0 ? 'sin stock' : `${p.stock} ${p.stock === 1 ? 'unidad' : 'unidades'}`}
                </li>
              ))}
            </ul>
          )}
          {summary.lowStockCount > 10 && (
            <p className="adm-more">
              <a href="/admin/productos?filtro=poco-stock">Ver los {formatCount(summary.lowStockCount)} productos con poco stock</a>
            </p>
          )}
        </>
      )}
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
  if (refunds === null) return <p role="status">Cargando reembolsos…</p>;
  if (refunds === 'failed') {
    return (
      <p className="acct-error" role="alert">
        No se pudieron cargar los reembolsos por revisar.
      </p>
    );
  }
  if (refunds.length === 0) return <p>Todos los reembolsos se completaron.</p>;
  return (
    <div className="acct-table-wrap" tabIndex={0} role="region" aria-label="Reembolsos por revisar">
      <table className="acct-table adm-table adm-cards table-cards" data-testid="refunds-to-review">
        <thead>
          <tr>
            <th scope="col">Pedido</th>
            <th scope="col">Cliente</th>
            <th scope="col" className="num">
              Importe
            </th>
            <th scope="col">Forma de pago</th>
            <th scope="col" className="num">
              Intentos
            </th>
            <th scope="col">Estado</th>
          </tr>
        </thead>
        <tbody>
          {refunds.map((r) => (
            <tr key={r.id} data-refund-id={r.id}>
              <td data-label="Pedido">
                <a href={`/admin/pedidos?pedido=${encodeURIComponent(r.order_id)}`}>Pedido {orderDisplayId(r.order_id)}</a>
              </td>
              <td data-label="Cliente">
                {r.customer_name ?? 'Sin nombre'}
                <br />
                <span className="muted">{r.customer_email ?? 'Sin correo'}</span>
              </td>
              <td className="num" data-label="Importe">
                {formatCentavos(r.amountCentavos)}
              </td>
              <td data-label="Forma de pago">{paymentMethodLabel({ provider: r.provider }) ?? '-'}</td>
              <td className="num" data-label="Intentos">
                {r.status === 'chargeback' ? '-' : r.attempts}
              </td>
              <td data-label="Estado">
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
    else setError(result.message || 'No se pudo guardar la decisión.');
  }
  return (
    <>
      <span className="badge badge-danger">Contracargo: saldo retenido</span>
      {chargeback.last_error && (
        <>
          <br />
          <span className="muted">{chargeback.last_error}</span>
        </>
      )}
      <div className="acct-actions">
        <button type="button" className="btn btn-outline" disabled={busy} onClick={() => void decide(true)}>
          Devolver el saldo a favor
        </button>
        <button type="button" className="btn btn-outline" disabled={busy} onClick={() => void decide(false)}>
          Conservar el saldo
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
  if (refund.status === 'manual') return <span className="badge badge-danger">Requiere atención manual</span>;
  return (
    <>
      <span className="badge badge-warning">Reintentando</span>
      {refund.next_attempt_at && (
        <>
          <br />
          <span className="muted">Próximo intento: {refundDate.format(new Date(refund.next_attempt_at))}</span>
        </>
      )}
    </>
  );
}

/** The sales of the chart, as a table. */
function SalesTable({ sales }: { sales: SalesDay[] }) {
  return (
    <details>
      <summary>Ver los datos como tabla</summary>
      <div className="acct-table-wrap" tabIndex={0} role="region" aria-label="Ventas por día">
        <table className="acct-table adm-table">
          <caption className="visually-hidden">Ventas por día de los últimos 30 días</caption>
          <thead>
            <tr>
              <th scope="col">Día</th>
              <th scope="col" className="num">
                Pedidos pagados
              </th>
              <th scope="col" className="num">
                Total
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
