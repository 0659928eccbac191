/**
 * 'Compras' of the back office: the shoppers' submissions by state; a submission's detail to mark
 * it received, review each line (its condition, the price follows; rejected copies with a reason;
 * one copy split off to review apart), send the offer, record a transfer's payment with its
 * reference and the return with its tracking number. Every step is a database function that
 * checks the state and records it; saldo a favor is credited when the shopper accepts.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { loadSales, type Sale, type SaleLine } from '~/data/buylist.ts';
import { markPaid, markReturned, receiveSale, reviewLine, sendOffer, splitLine } from '~/data/buylist-admin.ts';
import type { ActionAnswer } from '~/data/buylist.ts';
import { clabeBank } from '~/domain/clabe.ts';
import { formatCentavos } from '~/domain/money.ts';
import { CARD_CONDITIONS, CONDITION_LABELS, type CardCondition } from '~/domain/singles.ts';
import { ADMIN_PURCHASES_TEXT as TEXT, BUYLIST_PAYOUT_TEXT, BUYLIST_STATUS_TEXT } from '~/i18n/buylist.ts';
import { saleLineLabel } from '../buylist/sale-line.ts';
import { AdminTable, type Column } from './AdminTable.tsx';

const COLUMNS: Column[] = [
  { label: TEXT.columns.number },
  { label: TEXT.columns.date },
  { label: TEXT.columns.status },
  { label: TEXT.columns.payout },
  { label: TEXT.columns.total, num: true },
];
const SHORT = new Intl.DateTimeFormat('es-MX', { dateStyle: 'short', timeStyle: 'short', timeZone: 'America/Mexico_City' });
const STATUSES = Object.keys(BUYLIST_STATUS_TEXT) as (keyof typeof BUYLIST_STATUS_TEXT)[];
const statusLabel = (status: string) => (BUYLIST_STATUS_TEXT as Record<string, string>)[status] ?? status;

export default function PurchasesSection() {
  const [status, setStatus] = useState('');
  const [sales, setSales] = useState<Sale[] | null | 'failed'>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const load = useCallback(async () => setSales((await loadSales(status || null)) ?? 'failed'), [status]);
  useEffect(() => {
    void load();
  }, [load]);
  const open = sales && sales !== 'failed' ? sales.find((sale) => sale.id === openId) : undefined;

  return (
    <section className="card adm-section" aria-labelledby="adm-purchases-title">
      <h1 id="adm-purchases-title">{TEXT.title}</h1>
      <p className="muted">{TEXT.intro}</p>
      <label className="adm-inline-form">
        {TEXT.filter}
        <select value={status} onChange={(event) => setStatus(event.target.value)}>
          <option value="">{TEXT.all}</option>
          {STATUSES.map((code) => (
            <option key={code} value={code}>
              {BUYLIST_STATUS_TEXT[code]}
            </option>
          ))}
        </select>
      </label>
      {sales === 'failed' ? (
        <p className="acct-error" role="alert">
          {TEXT.loadFailed}
        </p>
      ) : sales === null ? (
        <p role="status">{TEXT.loading}</p>
      ) : sales.length === 0 ? (
        <p>{TEXT.empty}</p>
      ) : (
        <AdminTable label={TEXT.tableLabel} columns={COLUMNS}>
          {sales.map((sale) => (
            <tr key={sale.id} data-testid="purchase-row">
              <td data-label={TEXT.columns.number}>
                <button type="button" className="acct-link" aria-expanded={openId === sale.id} onClick={() => setOpenId(openId === sale.id ? null : sale.id)}>
                  {TEXT.open(sale.code)}
                </button>
              </td>
              <td data-label={TEXT.columns.date}>{SHORT.format(new Date(sale.createdAt))}</td>
              <td data-label={TEXT.columns.status}>{statusLabel(sale.status)}</td>
              <td data-label={TEXT.columns.payout}>{BUYLIST_PAYOUT_TEXT[sale.payout]}</td>
              <td data-label={TEXT.columns.total} className="num">
                {formatCentavos(sale.payout === 'saldo' ? sale.submittedCredit : sale.submittedCash)}
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
      {open && <PurchaseDetail key={open.id} sale={open} onChanged={load} />}
    </section>
  );
}

function PurchaseDetail({ sale, onChanged }: { sale: Sale; onChanged: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [reference, setReference] = useState('');
  const [tracking, setTracking] = useState('');
  const reviewing = sale.status === 'recibida' || sale.status === 'en_revision';

  async function run(step: () => Promise<ActionAnswer>) {
    setBusy(true);
    setMessage(null);
    const answer = await step();
    setBusy(false);
    setMessage(answer.ok ? { text: TEXT.done, error: false } : { text: answer.message ?? TEXT.failed, error: true });
    if (answer.ok) await onChanged();
  }

  return (
    <section className="adm-subsection" aria-labelledby="adm-purchase-title">
      <h2 id="adm-purchase-title">
        {TEXT.detail(sale.code)} · {statusLabel(sale.status)}
      </h2>
      <p>{TEXT.declared(formatCentavos(sale.payout === 'saldo' ? sale.submittedCredit : sale.submittedCash))}</p>
      {sale.offerCash !== null && <p>{TEXT.offer(formatCentavos((sale.payout === 'saldo' ? sale.offerCredit : sale.offerCash) ?? sale.offerCash))}</p>}
      {sale.clabe && <p>{TEXT.clabe(sale.clabe, clabeBank(sale.clabe) ?? '')}</p>}
      {(sale.status === 'por_recibir' || sale.status === 'vencida') && (
        <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void run(() => receiveSale(sale.id))}>
          {busy ? TEXT.sending : TEXT.receive}
        </button>
      )}
      <ul className="sell-lines">
        {sale.lines.map((line) => (
          <LineReview key={line.id} line={line} editable={reviewing} busy={busy} run={run} />
        ))}
      </ul>
      {reviewing && (
        <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void run(() => sendOffer(sale.id))}>
          {busy ? TEXT.sending : TEXT.sendOffer}
        </button>
      )}
      {sale.status === 'aceptada' && sale.payout === 'transferencia' && (
        <StepForm
          label={TEXT.reference}
          action={TEXT.markPaid}
          value={reference}
          onValue={setReference}
          busy={busy}
          onSubmit={() => run(() => markPaid(sale.id, reference))}
        />
      )}
      {(sale.status === 'por_devolver' ||
        (sale.status !== 'devuelta' && sale.lines.some((line) => line.rejected > 0) && ['aceptada', 'pagada'].includes(sale.status))) &&
        !sale.returnTracking && (
          <StepForm
            label={TEXT.tracking}
            action={TEXT.markReturned}
            value={tracking}
            onValue={setTracking}
            busy={busy}
            onSubmit={() => run(() => markReturned(sale.id, tracking))}
          />
        )}
      {sale.payout === 'saldo' && sale.status === 'oferta_ajustada' && <p className="muted">{TEXT.creditPaidOnAccept}</p>}
      {message && (
        <p className={message.error ? 'acct-error' : 'muted'} role={message.error ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
    </section>
  );
}

function StepForm(props: { label: string; action: string; value: string; onValue: (v: string) => void; busy: boolean; onSubmit: () => Promise<void> }) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void props.onSubmit();
  };
  return (
    <form className="acct-form adm-inline-form" onSubmit={submit} aria-label={props.action}>
      <label>
        {props.label}
        <input className="input" value={props.value} onChange={(event) => props.onValue(event.target.value)} required />
      </label>
      <button type="submit" className="btn btn-primary" disabled={props.busy}>
        {props.action}
      </button>
    </form>
  );
}

function LineReview({
  line,
  editable,
  busy,
  run,
}: {
  line: SaleLine;
  editable: boolean;
  busy: boolean;
  run: (step: () => Promise<ActionAnswer>) => Promise<void>;
}) {
  const [condition, setCondition] = useState<CardCondition>(line.finalCondition ?? line.condition);
  const [rejected, setRejected] = useState(line.rejected);
  const [reason, setReason] = useState(line.rejectReason ?? '');
  const name = saleLineLabel(line);
  const unit = line.finalUnitCash ?? line.unitCash;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(() => reviewLine(line.id, condition, rejected, rejected > 0 ? reason : null));
  };
  return (
    <li className="sell-line" data-testid="purchase-line">
      <p className="sell-line-name">
        {TEXT.line(line.position)}: {name} × {line.quantity} · {formatCentavos(unit)}{' '}
        {line.reviewed && <span className="badge badge-success">{TEXT.reviewed}</span>}
      </p>
      {editable && (
        <form className="acct-form adm-inline-form" onSubmit={submit} aria-label={TEXT.line(line.position)}>
          <label>
            {TEXT.condition}
            <select value={condition} onChange={(event) => setCondition(event.target.value as CardCondition)}>
              {CARD_CONDITIONS.map((code) => (
                <option key={code} value={code}>
                  {CONDITION_LABELS[code]}
                </option>
              ))}
            </select>
          </label>
          <label>
            {TEXT.rejected}
            <input
              className="input"
              type="number"
              min={0}
              max={line.quantity}
              value={rejected}
              onChange={(event) => setRejected(Number(event.target.value) || 0)}
            />
          </label>
          {rejected > 0 && (
            <label>
              {TEXT.reason}
              <input className="input" value={reason} onChange={(event) => setReason(event.target.value)} />
            </label>
          )}
          <button type="submit" className="btn btn-outline" disabled={busy}>
            {TEXT.saveReview}
          </button>
          {line.quantity > 1 && (
            <button type="button" className="btn btn-outline" disabled={busy} onClick={() => void run(() => splitLine(line.id, 1))}>
              {TEXT.split}
            </button>
          )}
        </form>
      )}
    </li>
  );
}
