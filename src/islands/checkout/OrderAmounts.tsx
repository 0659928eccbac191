/** An order's stored amounts (never recomputed in the browser: "one total"). */
import { formatMXN } from '../../domain/money.ts';
import type { CheckoutOrder } from '../../data/checkout.ts';

/** Subtotal, discount, shipping and total of a stored order. */
export default function OrderAmounts({ order }: { order: Pick<CheckoutOrder, 'subtotal' | 'discount' | 'shipping' | 'total' | 'coupon_code'> }) {
  return (
    <dl className="amounts">
      <div>
        <dt>Subtotal</dt>
        <dd data-amount="subtotal">{formatMXN(order.subtotal)}</dd>
      </div>
      <div>
        <dt>Descuento{order.coupon_code ? ` (${order.coupon_code})` : ''}</dt>
        <dd data-amount="discount">{order.discount > 0 ? `−${formatMXN(order.discount)}` : formatMXN(0)}</dd>
      </div>
      <div>
        <dt>Envío</dt>
        <dd data-amount="shipping">{order.shipping === 0 ? 'Gratis' : formatMXN(order.shipping)}</dd>
      </div>
      <div className="amounts-total">
        <dt>Total</dt>
        <dd data-amount="total">{formatMXN(order.total)}</dd>
      </div>
    </dl>
  );
}
