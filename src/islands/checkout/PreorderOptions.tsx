/**
 * Checkout's preorder choices, under the cart when it holds a product in an open preorder
 * campaign: 'Si no alcanza, mantenerme en lista de espera' (sent with create_order), and, when the
 * cart mixes preorders with products in stock, that the whole order ships when the preorder arrives.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { openPreorderStock } from '~/data/preorders.ts';
import { openPreorderOffers } from '~/data/preorder-offers.ts';
import { PREORDER_CHECKOUT_TEXT as TEXT } from '~/i18n/preorders.ts';
import { $cart } from '~/stores/cart.ts';
import { $preorderWaitlist } from '~/stores/preorders.ts';

/**
 * The cart's lines that are preorders now, by product id (a sealed product) or offer id (a
 * single's offer): read live; none while reading or offline.
 */
function usePreorderIds(ids: readonly string[], singles: readonly string[]): ReadonlySet<string> {
  const [preorders, setPreorders] = useState<ReadonlySet<string>>(new Set());
  const key = ids.join(',');
  const singlesKey = singles.join(',');
  useEffect(() => {
    let current = true;
    Promise.all([openPreorderStock(key === '' ? [] : key.split(',')), openPreorderOffers(singlesKey === '' ? [] : singlesKey.split(','))])
      .then(([open, offers]) => current && setPreorders(new Set([...open.keys(), ...offers.keys()])))
      .catch(() => current && setPreorders(new Set()));
    return () => {
      current = false;
    };
  }, [key, singlesKey]);
  return preorders;
}

export default function PreorderOptions() {
  const cart = useStore($cart);
  const waitlist = useStore($preorderWaitlist);
  const ids = [...new Set(cart.filter((item) => !item.offerId).map((item) => item.id))].sort();
  const singles = [...new Set(cart.filter((item) => item.offerId).map((item) => item.id))].sort();
  const preorders = usePreorderIds(ids, singles);
  const isPreorder = (item: (typeof cart)[number]) => preorders.has(item.offerId ?? item.id);
  if (!cart.some(isPreorder)) return null;
  const mixed = cart.some((item) => !isPreorder(item));
  return (
    <section className="card preorder-options">
      <label className="checkbox">
        <input type="checkbox" checked={waitlist} onChange={(event) => $preorderWaitlist.set(event.target.checked)} aria-describedby="preorder-waitlist-help" />{' '}
        {TEXT.waitlist}
      </label>
      <p id="preorder-waitlist-help" className="muted">
        {TEXT.waitlistHelp}
      </p>
      {mixed && (
        <p className="badge badge-info" role="note">
          {TEXT.mixedNote}
        </p>
      )}
    </section>
  );
}
