/** Step 4, 'Gracias por tu compra': the paid order, its address and products, and the e-mail note. */
import { useId } from 'react';
import type { CheckoutOrder } from '~/data/checkout.ts';
import { CHECKOUT_CONFIRMATION_TEXT } from '~/i18n/checkout.ts';
import { REFUND_MESSAGES } from '~/i18n/orders.ts';
import { formatOrderDate, orderDisplayId, ORDER_STATUS } from '~/domain/orders.ts';
import { paymentMethodText } from '~/domain/payment-methods.ts';
import OrderAmounts from './OrderAmounts.tsx';
import OrderLines from './OrderLines.tsx';
import InvoiceBlock from '../account/InvoiceBlock.tsx';
import { AddressLines } from '../ui/AddressLines.tsx';

/** The confirmation step. */
export default function ConfirmationStep({ order }: { order: CheckoutOrder }) {
  const id = useId();
  return (
    <section className="checkout-panel" aria-labelledby={`${id}-title`}>
      {order.status === ORDER_STATUS.refunded ? (
        <>
          <h2 id={`${id}-title`}>{CHECKOUT_CONFIRMATION_TEXT.refunded}</h2>
          <p role="status">{REFUND_MESSAGES.late_payment}</p>
        </>
      ) : (
        <>
          <h2 id={`${id}-title`}>{CHECKOUT_CONFIRMATION_TEXT.thanks}</h2>
          <p className="mail-note">{CHECKOUT_CONFIRMATION_TEXT.mailNote}</p>
        </>
      )}
      <div className="confirm-grid">
        <div>
          <h3>{CHECKOUT_CONFIRMATION_TEXT.details}</h3>
          <dl className="order-facts">
            <div>
              <dt>{CHECKOUT_CONFIRMATION_TEXT.order}</dt>
              <dd data-order-number>{orderDisplayId(order.id)}</dd>
            </div>
            <div>
              <dt>{CHECKOUT_CONFIRMATION_TEXT.date}</dt>
              <dd>{formatOrderDate(order.paid_at ?? order.created_at)}</dd>
            </div>
            <div>
              <dt>{CHECKOUT_CONFIRMATION_TEXT.status}</dt>
              <dd data-order-status>{order.status}</dd>
            </div>
            {paymentMethodText(order) && (
              <div>
                <dt>{CHECKOUT_CONFIRMATION_TEXT.paidWith}</dt>
                <dd data-payment-method>{paymentMethodText(order)}</dd>
              </div>
            )}
          </dl>
          <OrderAmounts order={order} />
        </div>
        <div>
          <h3>{CHECKOUT_CONFIRMATION_TEXT.address}</h3>
          {order.address ? (
            <address>
              {order.address.label && (
                <>
                  {order.address.label}
                  <br />
                </>
              )}
              <AddressLines inline address={order.address} />
            </address>
          ) : (
            <p>{CHECKOUT_CONFIRMATION_TEXT.noAddress}</p>
          )}
          <h3>{CHECKOUT_CONFIRMATION_TEXT.products}</h3>
          <OrderLines lines={order.lines} />
        </div>
      </div>
      <InvoiceBlock orderId={order.id} status={order.status} paidAt={order.paid_at} />
      <a className="btn btn-outline" href="/">
        {CHECKOUT_CONFIRMATION_TEXT.continueShopping}
      </a>
    </section>
  );
}
