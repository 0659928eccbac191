/**
 * 'Facturas' of the back office: every factura with its status (issued, in progress, with an
 * error and its last error, cancelled), its receiver, total and folio fiscal, and its PDF and XML
 * (a credit note against a factura global shows as 'Nota de crédito' with its sale and global);
 * and the month's 'factura global' (the paid sales nobody invoiced, to público en general): a
 * preview of how many sales and their total first, then 'Emitir factura global'.
 */
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { downloadInvoice } from '~/data/invoices.ts';
import { issueGlobalInvoice, loadInvoices, previewGlobalInvoice, type AdminInvoice, type GlobalPreview } from '~/data/invoices-admin.ts';
import { formatMXN } from '~/domain/money.ts';
import { orderDisplayId } from '~/domain/orders.ts';
import { ADMIN_INVOICES_TEXT as TEXT } from '~/i18n/invoices.ts';
import { ADMIN_CREDIT_NOTES_TEXT as CREDIT_NOTE } from '~/i18n/credit-notes.ts';
import { AdminTable, type Column } from './AdminTable.tsx';

const COLUMNS: Column[] = [
  { label: TEXT.columns.date },
  { label: TEXT.columns.kind },
  { label: TEXT.columns.receiver },
  { label: TEXT.columns.total, num: true },
  { label: TEXT.columns.status },
  { label: TEXT.columns.folio },
];

const SHORT = new Intl.DateTimeFormat('es-MX', { dateStyle: 'short', timeStyle: 'short', timeZone: 'America/Mexico_City' });
const MONTH = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: 'numeric', timeZone: 'America/Mexico_City' });

/** The month before the current one in Mexico City: the one a factura global is usually issued for. */
function lastMonth(): { year: number; month: number } {
  const parts = Object.fromEntries(MONTH.formatToParts(new Date()).map((p) => [p.type, Number(p.value)]));
  const year = parts.year!;
  const month = parts.month!;
  return month === 1 ? { year: year - 1, month: 12 } : { year, month: month - 1 };
}

const pad = (month: number | null) => String(month ?? 0).padStart(2, '0');

export default function InvoicesSection() {
  const [invoices, setInvoices] = useState<AdminInvoice[] | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async () => {
    try {
      setInvoices(await loadInvoices());
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section className="card adm-section" aria-labelledby="adm-invoices-title">
      <h1 id="adm-invoices-title">{TEXT.title}</h1>
      <p className="muted">{TEXT.intro}</p>
      <GlobalInvoiceForm onIssued={load} />
      {failed ? (
        <p className="acct-error" role="alert">
          {TEXT.loadFailed}
        </p>
      ) : invoices === null ? (
        <p role="status">{TEXT.loading}</p>
      ) : invoices.length === 0 ? (
        <p>{TEXT.empty}</p>
      ) : (
        <AdminTable label={TEXT.tableLabel} columns={COLUMNS}>
          {invoices.map((invoice) => (
            <InvoiceRow key={invoice.id} invoice={invoice} />
          ))}
        </AdminTable>
      )}
    </section>
  );
}

function InvoiceKind({ invoice }: { invoice: AdminInvoice }) {
  if (invoice.kind === 'credit_note') {
    return (
      <>
        {CREDIT_NOTE.kind}
        <br />
        <span className="muted">{CREDIT_NOTE.detail(orderDisplayId(invoice.orderId), pad(invoice.periodMonth), invoice.periodYear ?? 0)}</span>
      </>
    );
  }
  return (
    <>{invoice.kind === 'global' ? TEXT.kind.global(pad(invoice.periodMonth), invoice.periodYear ?? 0) : TEXT.kind.order(orderDisplayId(invoice.orderId))}</>
  );
}

function InvoiceRow({ invoice }: { invoice: AdminInvoice }) {
  const name = invoice.orderId ? orderDisplayId(invoice.orderId).slice(1) : `global-${invoice.periodYear}-${pad(invoice.periodMonth)}`;
  const file = `${invoice.kind === 'credit_note' ? 'nota-credito' : 'factura'}-${name}`;
  const files = invoice.cfdiUuid && ['issued', 'cancelling', 'cancelled'].includes(invoice.status);
  return (
    <tr data-testid="invoice-row">
      <td data-label={TEXT.columns.date}>{SHORT.format(new Date(invoice.createdAt))}</td>
      <td data-label={TEXT.columns.kind}>
        <InvoiceKind invoice={invoice} />
      </td>
      <td data-label={TEXT.columns.receiver}>
        {invoice.receiver}
        <br />
        <span className="muted">{invoice.rfc}</span>
      </td>
      <td data-label={TEXT.columns.total} className="num">
        {formatMXN(invoice.total)}
      </td>
      <td data-label={TEXT.columns.status}>
        {TEXT.status[invoice.status]}
        {invoice.lastError && invoice.status === 'failed' && (
          <>
            <br />
            <span className="muted">{TEXT.lastError(invoice.lastError)}</span>
          </>
        )}
      </td>
      <td data-label={TEXT.columns.folio}>
        {invoice.cfdiUuid ?? '-'}
        {files && (
          <span className="acct-actions">
            <button type="button" className="acct-link" onClick={() => void downloadInvoice(invoice.id, 'pdf', file)}>
              {TEXT.downloadPdf}
            </button>
            <button type="button" className="acct-link" onClick={() => void downloadInvoice(invoice.id, 'xml', file)}>
              {TEXT.downloadXml}
            </button>
          </span>
        )}
      </td>
    </tr>
  );
}

function GlobalInvoiceForm({ onIssued }: { onIssued: () => Promise<void> }) {
  const id = useId();
  const initial = lastMonth();
  const [year, setYear] = useState(initial.year);
  const [month, setMonth] = useState(initial.month);
  const [preview, setPreview] = useState<GlobalPreview | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  async function onPreview(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      setPreview(await previewGlobalInvoice(year, month));
    } catch {
      setMessage({ text: TEXT.loadFailed, error: true });
    } finally {
      setBusy(false);
    }
  }

  async function onIssue() {
    setBusy(true);
    setMessage(null);
    try {
      const answer = await issueGlobalInvoice(year, month);
      setMessage(answer.ok ? { text: TEXT.issued, error: false } : { text: answer.message ?? TEXT.issueFailed, error: true });
      if (answer.ok) {
        setPreview(null);
        await onIssued();
      }
    } catch {
      setMessage({ text: TEXT.issueFailed, error: true });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby={`${id}-title`} className="adm-subsection">
      <h2 id={`${id}-title`}>{TEXT.globalTitle}</h2>
      <p className="muted">{TEXT.globalIntro}</p>
      <form className="acct-form adm-inline-form" onSubmit={(e) => void onPreview(e)} aria-label={TEXT.globalTitle}>
        <label>
          {TEXT.month}
          <select
            value={month}
            onChange={(e) => {
              setMonth(Number(e.target.value));
              setPreview(null);
            }}
          >
            {Array.from({ length: 12 }, (_, i) => i + 1).map((m) => (
              <option key={m} value={m}>
                {pad(m)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {TEXT.year}
          <input
            type="number"
            inputMode="numeric"
            min={2022}
            max={2100}
            value={year}
            onChange={(e) => {
              setYear(Number(e.target.value));
              setPreview(null);
            }}
          />
        </label>
        <button type="submit" className="btn btn-outline" disabled={busy}>
          {busy && !preview ? TEXT.previewLoading : TEXT.preview}
        </button>
      </form>
      {preview && (
        <div role="status">
          {preview.issued ? (
            <p>{TEXT.previewIssued}</p>
          ) : preview.orders === 0 ? (
            <p>{TEXT.previewNone}</p>
          ) : (
            <>
              <p>{TEXT.previewLine(preview.orders, formatMXN(preview.total))}</p>
              <button type="button" className="btn btn-primary" onClick={() => void onIssue()} disabled={busy}>
                {busy ? TEXT.issuing : TEXT.issue}
              </button>
            </>
          )}
        </div>
      )}
      {message && (
        <p className={message.error ? 'acct-error' : 'muted'} role={message.error ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
    </section>
  );
}
