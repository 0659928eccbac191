/** An order's stored amounts (never recomputed in the browser: "one total"). */
import { formatMXN } from '../../domain/money.ts';
import type { CheckoutOrder } from '../../data/checkout.ts';

/** Subtotal, discount, shipping and total of a stored order. */
export default function OrderAmounts({
  order,
  marked = true,
}: {
  order: Pick<CheckoutOrder, 'subtotal' | 'discount' | 'shipping' | 'total' | 'coupon_code'>;
  /** Adds the data-amount hooks; the side summary beside a step repeats the amounts without them. */
  marked?: boolean;
}) {
  const mark = (name: string) => (marked ? name : undefined);
  return (
    <dl className="amounts">
      <div>
        <dt>Subtotal</dt>
        <dd data-amount={mark('subtotal')}>{formatMXN(order.subtotal)}</dd>
      </div>
      <div>
        <dt>Descuento{order.coupon_code ? ` (${order.coupon_code})` : ''}</dt>
        <dd data-amount={mark('discount')}>{order.discount > 0 ? `−${formatMXN(order.discount)}` : formatMXN(0)}</dd>
      </div>
      <div>
        <dt>Envío</dt>
        <dd data-amount={mark('shipping')}>{order.shipping === 0 ? 'Gratis' : formatMXN(order.shipping)}</dd>
      </div>
      <div className="amounts-total">
        <dt>Total</dt>
        <dd data-amount={mark('total')}>{formatMXN(order.total)}</dd>
      </div>
    </dl>
  );
}
