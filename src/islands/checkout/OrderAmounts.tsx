/** An order's stored amounts (never recomputed in the browser: "one total"). */
import { formatCentavos } from '~/domain/money.ts';
import type { CheckoutOrder } from '~/data/checkout.ts';

/** Subtotal, discount, shipping and total of a stored order. */
export default function OrderAmounts({
  order,
  marked = true,
}: {
  order: Pick<CheckoutOrder, 'subtotalCentavos' | 'discountCentavos' | 'shippingCentavos' | 'totalCentavos' | 'coupon_code'>;
  /** Adds the data-amount hooks; the side summary beside a step repeats the amounts without them. */
  marked?: boolean;
}) {
  const mark = (name: string) => (marked ? name : undefined);
  return (
    <dl className="amounts">
      <div>
        <dt>Subtotal</dt>
        <dd data-amount={mark('subtotal')}>{formatCentavos(order.subtotalCentavos)}</dd>
      </div>
      <div>
        <dt>Descuento{order.coupon_code ? ` (${order.coupon_code})` : ''}</dt>
        <dd data-amount={mark('discount')}>
          {order.discountCentavos > 0 ? `−${formatCentavos(order.discountCentavos)}` : formatCentavos(order.discountCentavos)}
        </dd>
      </div>
      <div>
        <dt>Envío</dt>
        <dd data-amount={mark('shipping')}>{order.shippingCentavos === 0 ? 'Gratis' : formatCentavos(order.shippingCentavos)}</dd>
      </div>
      <div className="amounts-total">
        <dt>Total</dt>
        <dd data-amount={mark('total')}>{formatCentavos(order.totalCentavos)}</dd>
      </div>
    </dl>
  );
}
