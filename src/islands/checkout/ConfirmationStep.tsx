/** Step 4, 'Gracias por tu compra': the paid order, its address and products, and the e-mail note. */
import { useId } from 'react';
import { CHECKOUT_MESSAGES, type CheckoutOrder } from '~/data/checkout.ts';
import { formatOrderDate, orderDisplayId, ORDER_STATUS } from '~/domain/orders.ts';
import { paymentMethodText } from '~/domain/payment-methods.ts';
import OrderAmounts from './OrderAmounts.tsx';
import OrderLines from './OrderLines.tsx';

/** The confirmation step. */
export default function ConfirmationStep({ order }: { order: CheckoutOrder }) {
  const id = useId();
  return (
    <section className="checkout-panel" aria-labelledby={`${id}-title`}>
      {order.status === ORDER_STATUS.refunded ? (
        <>
          <h2 id={`${id}-title`}>Pedido reembolsado</h2>
          <p role="status">{CHECKOUT_MESSAGES.lateRefund}</p>
        </>
      ) : (
        <>
          <h2 id={`${id}-title`}>Gracias por tu compra</h2>
          <p className="mail-note">Te enviaremos un correo electrónico con los detalles de tu compra.</p>
        </>
      )}
      <div className="confirm-grid">
        <div>
          <h3>Detalles del pedido</h3>
          <dl className="order-facts">
            <div>
              <dt>Pedido</dt>
              <dd data-order-number>{orderDisplayId(order.id)}</dd>
            </div>
            <div>
              <dt>Fecha</dt>
              <dd>{formatOrderDate(order.paid_at ?? order.created_at)}</dd>
            </div>
            <div>
              <dt>Estado</dt>
              <dd data-order-status>{order.status}</dd>
            </div>
            {paymentMethodText(order) && (
              <div>
                <dt>Forma de pago</dt>
                <dd data-payment-method>{paymentMethodText(order)}</dd>
              </div>
            )}
          </dl>
          <OrderAmounts order={order} />
        </div>
        <div>
          <h3>Dirección de envío</h3>
          {order.address ? (
            <address>
              {order.address.label && (
                <>
                  {order.address.label}
                  <br />
                </>
              )}
              {order.address.street}
              <br />
              {[order.address.city, order.address.state].filter(Boolean).join(', ')}
              {order.address.zip ? `, C.P. ${order.address.zip}` : ''}
              <br />
              {order.address.country}
            </address>
          ) : (
            <p>No has registrado dirección.</p>
          )}
          <h3>Productos</h3>
          <OrderLines lines={order.lines} />
        </div>
      </div>
      <a className="btn btn-outline" href="/">
        Seguir comprando
      </a>
    </section>
  );
}
