/** An order's stored amounts (never recomputed in the browser: "one total"). */
import { formatCentavos } from '~/domain/money.ts';
import type { CheckoutOrder } from '~/data/checkout.ts';
import { CHECKOUT_AMOUNTS_TEXT } from '~/i18n/checkout.ts';

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
        <dt>{CHECKOUT_AMOUNTS_TEXT.subtotal}</dt>
        <dd data-amount={mark('subtotal')}>{formatCentavos(order.subtotalCentavos)}</dd>
      </div>
      <div>
        <dt>{CHECKOUT_AMOUNTS_TEXT.discount(order.coupon_code)}</dt>
        <dd data-amount={mark('discount')}>
          {order.discountCentavos > 0 ? `−${formatCentavos(order.discountCentavos)}` : formatCentavos(order.discountCentavos)}
        </dd>
      </div>
      <div>
        <dt>{CHECKOUT_AMOUNTS_TEXT.shipping}</dt>
        <dd data-amount={mark('shipping')}>{order.shippingCentavos === 0 ? CHECKOUT_AMOUNTS_TEXT.free : formatCentavos(order.shippingCentavos)}</dd>
      </div>
      <div className="amounts-total">
        <dt>{CHECKOUT_AMOUNTS_TEXT.total}</dt>
        <dd data-amount={mark('total')}>{formatCentavos(order.totalCentavos)}</dd>
      </div>
    </dl>
  );
}
