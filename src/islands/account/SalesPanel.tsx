/**
 * 'Mis ventas': the shopper's submissions to the buylist with their state, lines, the offer and
 * what was paid; an adjusted offer is accepted, or the cards asked back, through the database's
 * functions. Read when the tab opens, after each action, and whenever one of the shopper's
 * submissions changes (the shop receives it, sends an offer, pays it), live.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { loadSales, saleAction, type Sale, type SaleLine } from '~/data/buylist.ts';
import { formatCentavos } from '~/domain/money.ts';
import { ACCOUNT_SALES_TEXT as TEXT, BUYLIST_PAYOUT_TEXT, BUYLIST_STATUS_TEXT } from '~/i18n/buylist.ts';
import { COMMON_TEXT } from '~/i18n/common.ts';
import { Loading } from '../ui/AsyncState.tsx';
import { useLiveRows } from './useLive.ts';
import { saleLineLabel } from '../buylist/sale-line.ts';
import '../buylist/buylist.css';

const DATE = new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeZone: 'America/Mexico_City' });

/** A status's label ('Oferta ajustada'). */
export function saleStatusLabel(status: string): string {
  return (BUYLIST_STATUS_TEXT as Record<string, string>)[status] ?? status;
}

export default function SalesPanel({ userId }: { userId: string }) {
  const [sales, setSales] = useState<Sale[] | null | 'failed'>(null);
  const reload = useCallback(async () => setSales((await loadSales()) ?? 'failed'), []);
  useEffect(() => {
    void reload();
  }, [reload]);
  useLiveRows('buylist_submissions', userId, () => void reload());

  return (
    <>
      <h2>{TEXT.title}</h2>
      {sales === null ? (
        <Loading text={TEXT.loading} />
      ) : sales === 'failed' ? (
        <div className="acct-actions">
          <p className="acct-error" role="alert">
            {TEXT.loadFailed}
          </p>
          <button type="button" className="btn btn-outline" onClick={() => void reload()}>
            {COMMON_TEXT.retry}
          </button>
        </div>
      ) : sales.length === 0 ? (
        <p>
          {TEXT.empty} <a href="/vende">{TEXT.sell}</a>
        </p>
      ) : (
        <ul className="acct-lines sell-sales" aria-label={TEXT.listLabel}>
          {sales.map((sale) => (
            <SaleItem key={sale.id} sale={sale} onChanged={reload} />
          ))}
        </ul>
      )}
    </>
  );
}

function SaleItem({ sale, onChanged }: { sale: Sale; onChanged: () => Promise<void> }) {
  const [busy, setBusy] = useState<'accept' | 'return' | null>(null);
  // A second tap while the first is on its way (a double click) is the same decision: sent once.
  const acting = useRef(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const credit = sale.payout === 'saldo';
  const offer = credit ? sale.offerCredit : sale.offerCash;

  async function act(kind: 'accept' | 'return') {
    if (acting.current) return;
    acting.current = true;
    setBusy(kind);
    setMessage(null);
    const answer = await saleAction(kind === 'accept' ? 'accept_buylist_offer' : 'return_buylist_submission', sale.id);
    acting.current = false;
    setBusy(null);
    setMessage(
      answer.ok ? { text: kind === 'accept' ? TEXT.accepted : TEXT.returnAsked, error: false } : { text: answer.message ?? TEXT.actionFailed, error: true },
    );
    if (answer.ok) await onChanged();
  }

  return (
    <li className="acct-item" data-testid="sale" aria-labelledby={`sale-${sale.id}`}>
      <h3 id={`sale-${sale.id}`}>
        {TEXT.submission(sale.code)} · <span className="badge badge-info">{saleStatusLabel(sale.status)}</span>
      </h3>
      <p className="muted">
        {TEXT.created(DATE.format(new Date(sale.createdAt)))} · {BUYLIST_PAYOUT_TEXT[sale.payout]}
      </p>
      <ul className="sell-lines">
        {sale.lines.map((line) => (
          <SaleLineItem key={line.id} line={line} credit={credit} />
        ))}
      </ul>
      <dl className="sell-totals">
        <div>
          <dt>{TEXT.offer}</dt>
          <dd>{formatCentavos(credit ? sale.submittedCredit : sale.submittedCash)}</dd>
        </div>
        {offer !== null && (
          <div>
            <dt>{TEXT.adjusted}</dt>
            <dd data-testid="sale-offer">{formatCentavos(offer)}</dd>
          </div>
        )}
        {sale.payment?.status === 'pagado' && (
          <div>
            <dt>{TEXT.paid}</dt>
            <dd>{formatCentavos(sale.payment.amount)}</dd>
          </div>
        )}
      </dl>
      {sale.returnTracking && <p>{TEXT.trackingNumber(sale.returnTracking)}</p>}
      {sale.status === 'oferta_ajustada' && (
        <p className="acct-actions">
          <button type="button" className="btn btn-primary" disabled={busy !== null} onClick={() => void act('accept')}>
            {busy === 'accept' ? TEXT.accepting : TEXT.accept}
          </button>
          <button type="button" className="btn btn-outline" disabled={busy !== null} onClick={() => void act('return')}>
            {busy === 'return' ? TEXT.askingReturn : TEXT.askReturn}
          </button>
        </p>
      )}
      {sale.status === 'por_recibir' && (
        <p>
          <a href={`/vende/guia?id=${encodeURIComponent(sale.id)}`}>{TEXT.slip}</a>
        </p>
      )}
      {message && (
        <p className={message.error ? 'acct-error' : 'muted'} role={message.error ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
    </li>
  );
}

function SaleLineItem({ line, credit }: { line: SaleLine; credit: boolean }) {
  const accepted = line.quantity - line.rejected;
  const unit = credit ? (line.finalUnitCredit ?? line.unitCredit) : (line.finalUnitCash ?? line.unitCash);
  return (
    <li>
      {saleLineLabel(line)} × {line.quantity} · {formatCentavos(unit)}
      {line.finalCondition && line.finalCondition !== line.condition && <span className="muted"> · {TEXT.changed(line.condition, line.finalCondition)}</span>}
      {line.rejected > 0 && <span className="muted"> · {TEXT.rejected(line.rejected, accepted, line.rejectReason ?? '')}</span>}
    </li>
  );
}
