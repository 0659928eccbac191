/**
 * The factura of a paid order, on the confirmation page and in the Orders tab: 'Solicitar factura'
 * until the end of the month it was paid in (Mexico City time) with the saved tax data, or a link
 * to fill them; then the factura's status and 'Descargar PDF' / 'Descargar XML'. The server and
 * the database decide; this only shows their answer.
 */
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { downloadInvoice, hasTaxProfile, loadOrderInvoice, requestInvoice, type OrderInvoice } from '~/data/invoices.ts';
import { invoiceWindowEnd } from '~/domain/invoices.ts';
import { orderDisplayId, ORDER_STATUS } from '~/domain/orders.ts';
import { INVOICE_ORDER_TEXT as TEXT } from '~/i18n/invoices.ts';

const PAID = new Set<string>([ORDER_STATUS.paid, ORDER_STATUS.processing, ORDER_STATUS.shipped, ORDER_STATUS.completed]);

const LAST_DAY = new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeZone: 'America/Mexico_City' });

interface Props {
  orderId: string;
  status: string;
  paidAt: string | null;
}

type State = { loading: true } | { loading: false; invoice: OrderInvoice | null; taxData: boolean; failed: boolean };

export default function InvoiceBlock({ orderId, status, paidAt }: Props) {
  const id = useId();
  const [state, setState] = useState<State>({ loading: true });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const key = useMemo(() => (typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${orderId}-${Date.now()}`), [orderId]);
  const paidMs = paidAt ? Date.parse(paidAt) : NaN;
  const windowEnd = Number.isNaN(paidMs) ? null : invoiceWindowEnd(paidMs);
  const open = PAID.has(status) && windowEnd !== null && Date.now() < windowEnd;

  const load = useCallback(async () => {
    try {
      const [invoice, taxData] = await Promise.all([loadOrderInvoice(orderId), hasTaxProfile()]);
      setState({ loading: false, invoice, taxData, failed: false });
    } catch {
      setState({ loading: false, invoice: null, taxData: false, failed: true });
    }
  }, [orderId]);

  useEffect(() => {
    void load();
  }, [load]);

  // A factura being issued is looked at again a few seconds later.
  const waiting = !state.loading && state.invoice !== null && ['pending', 'issuing', 'failed'].includes(state.invoice.status);
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => void load(), 5000);
    return () => clearTimeout(timer);
  }, [waiting, load]);

  if (state.loading || state.failed) return null;
  const { invoice, taxData } = state;
  if (!invoice && !open) return null;

  async function ask() {
    setBusy(true);
    setError(null);
    try {
      const answer = await requestInvoice(orderId, key);
      if (!answer.ok) setError(answer.message ?? TEXT.requestFailed);
      await load();
    } catch {
      setError(TEXT.requestFailed);
    } finally {
      setBusy(false);
    }
  }

  async function download(format: 'pdf' | 'xml') {
    if (!invoice) return;
    setError(null);
    const ok = await downloadInvoice(invoice.id, format, `factura-${orderDisplayId(orderId).slice(1)}`).catch(() => false);
    if (!ok) setError(TEXT.downloadFailed);
  }

  return (
    <section className="invoice-block" aria-labelledby={`${id}-title`} data-testid="invoice-block">
      <h4 id={`${id}-title`}>{TEXT.title}</h4>
      {invoice ? (
        <>
          <p role="status" data-testid="invoice-status">
            {TEXT.status[invoice.status]}
          </p>
          {invoice.cfdiUuid && invoice.status !== 'pending' && <p className="muted">{TEXT.folio(invoice.cfdiUuid)}</p>}
          {invoice.provider === 'simulated' && <p className="muted">{TEXT.testMode}</p>}
          {(invoice.status === 'issued' || invoice.status === 'cancelled' || invoice.status === 'cancelling') && invoice.cfdiUuid && (
            <div className="acct-actions">
              <button type="button" className="btn btn-outline" onClick={() => void download('pdf')}>
                {TEXT.downloadPdf}
              </button>
              <button type="button" className="btn btn-outline" onClick={() => void download('xml')}>
                {TEXT.downloadXml}
              </button>
            </div>
          )}
        </>
      ) : taxData ? (
        <>
          {windowEnd !== null && <p className="muted">{TEXT.until(LAST_DAY.format(new Date(windowEnd - 1)))}</p>}
          <button type="button" className="btn btn-primary" onClick={() => void ask()} disabled={busy} aria-busy={busy}>
            {busy ? TEXT.requesting : TEXT.request}
          </button>
        </>
      ) : (
        <>
          <p>{TEXT.needTaxData}</p>
          <a className="btn btn-outline" href="/account?tab=profile#acct-tax-title">
            {TEXT.fillTaxData}
          </a>
        </>
      )}
      {error && (
        <p className="acct-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
