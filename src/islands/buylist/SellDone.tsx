/** /vende after submitting: the submission's number, the packing slip's link and how to send the cards. */
import { useEffect, useRef } from 'react';
import { SELL_DONE_TEXT as TEXT } from '~/i18n/buylist.ts';
import ShippingSteps from './ShippingSteps.tsx';

export default function SellDone({ sale, days, onAnother }: { sale: { id: string; code: string }; days: number; onAnother: () => void }) {
  // The sale's number replaces the list the shopper was at the bottom of: it takes the focus (a
  // screen reader reads it) and is scrolled into view.
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    title.current?.focus();
    title.current?.scrollIntoView({ block: 'start' });
  }, [sale.id]);
  return (
    <section className="card sell-done" aria-labelledby="sell-done-title">
      <h2 id="sell-done-title" tabIndex={-1} ref={title}>
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
