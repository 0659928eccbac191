/** /vende after submitting: the submission's number, the packing slip's link and how to send the cards. */
import { SELL_DONE_TEXT as TEXT } from '~/i18n/buylist.ts';
import ShippingSteps from './ShippingSteps.tsx';

export default function SellDone({ sale, days, onAnother }: { sale: { id: string; code: string }; days: number; onAnother: () => void }) {
  return (
    <section className="card sell-done" aria-labelledby="sell-done-title">
      <h2 id="sell-done-title" tabIndex={-1}>
        {TEXT.title(sale.code)}
      </h2>
      <p>{TEXT.intro(days)}</p>
      <p className="acct-actions">
        <a className="btn btn-primary" href={`/vende/guia?id=${encodeURIComponent(sale.id)}`}>
          {TEXT.slip}
        </a>
        <a className="btn btn-outline" href="/account?tab=sales">
          {TEXT.account}
        </a>
        <button type="button" className="btn btn-outline" onClick={onAnother}>
          {TEXT.another}
        </button>
      </p>
      <ShippingSteps />
    </section>
  );
}
