/**
 * The packing slip of a submission (/vende/guia?id=…), to print and put in the package (or show at
 * the counter): the number, the seller, the lines and the offer, and how to send the cards.
 */
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { loadSale, type Sale } from '~/data/buylist.ts';
import { formatCentavos } from '~/domain/money.ts';
import { $session, initSession } from '~/stores/session.ts';
import { BUYLIST_PAYOUT_TEXT, SELL_SLIP_TEXT as TEXT } from '~/i18n/buylist.ts';
import { Loading } from '../ui/AsyncState.tsx';
import ShippingSteps from './ShippingSteps.tsx';
import { saleLineLabel } from './sale-line.ts';
import './buylist.css';

const DATE = new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeZone: 'America/Mexico_City' });

export default function SlipApp() {
  const session = useStore($session);
  const [sale, setSale] = useState<Sale | null | 'loading'>('loading');
  const userId = session.user?.id ?? null;

  useEffect(() => initSession(), []);
  useEffect(() => {
    if (session.loading) return;
    if (!userId) {
      window.location.replace(`/auth?next=${encodeURIComponent(`${location.pathname}${location.search}`)}`);
      return;
    }
    const id = new URLSearchParams(location.search).get('id') ?? '';
    void loadSale(id).then(setSale);
  }, [session.loading, userId]);

  if (sale === 'loading') return <Loading text={TEXT.loading} />;
  if (!sale)
    return (
      <p className="acct-error" role="alert">
        {TEXT.notFound}
      </p>
    );
  const profile = session.profile;
  const seller = [profile?.name, profile?.lastname].filter(Boolean).join(' ');
  return (
    <article className="card sell-slip" aria-labelledby="slip-title">
      <h1 id="slip-title">
        {TEXT.title} · {TEXT.heading(sale.code)}
      </h1>
      <dl className="acct-dl">
        <dt>{TEXT.seller}</dt>
        <dd>{seller || session.user?.email}</dd>
        <dt>{TEXT.email}</dt>
        <dd>{session.user?.email}</dd>
        <dt>{TEXT.date}</dt>
        <dd>{DATE.format(new Date(sale.createdAt))}</dd>
        <dt>{TEXT.payout}</dt>
        <dd>{BUYLIST_PAYOUT_TEXT[sale.payout]}</dd>
      </dl>
      <table>
        <caption>{TEXT.linesLabel}</caption>
        <thead>
          <tr>
            <th scope="col">{TEXT.card}</th>
            <th scope="col">{TEXT.quantity}</th>
            <th scope="col">{TEXT.offer}</th>
          </tr>
        </thead>
        <tbody>
          {sale.lines.map((line) => (
            <tr key={line.id}>
              <td>{saleLineLabel(line)}</td>
              <td>{line.quantity}</td>
              <td>{formatCentavos(sale.payout === 'saldo' ? line.unitCredit : line.unitCash)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        <strong>{TEXT.total}:</strong> {formatCentavos(sale.payout === 'saldo' ? sale.submittedCredit : sale.submittedCash)}
      </p>
      <ShippingSteps level={2} />
      <p className="acct-actions sell-no-print">
        <button type="button" className="btn btn-primary" onClick={() => window.print()}>
          {TEXT.print}
        </button>
        <a className="btn btn-outline" href="/vende">
          {TEXT.back}
        </a>
      </p>
    </article>
  );
}
