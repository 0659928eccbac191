/**
 * How an order of the Orders tab is paid: 'Pago pendiente en OXXO' with a link back to its voucher
 * while it waits for the store payment, or the 'meses sin intereses' plan of a paid card order.
 */
import { MEXICAN_PAYMENT_MESSAGES } from '~/i18n/checkout.ts';
import { ACCOUNT_ORDER_PAYMENT_TEXT } from '~/i18n/account.ts';
import { paymentMethodText } from '~/domain/payment-methods.ts';
import { ORDER_STATUS } from '~/domain/orders.ts';
import type { Centavos } from '~/domain/money.ts';

interface Props {
  order: { id: string; status: string; totalCentavos: Centavos | null; payment_method?: string | null; installments?: number | null };
}

/** The note under an order's status; nothing for ordinary payments. */
export default function OrderPaymentNote({ order }: Props) {
  if (order.status === ORDER_STATUS.pending && order.payment_method === 'oxxo') {
    return (
      <span className="order-payment-note" data-testid="oxxo-pending">
        <br />
        <small>{MEXICAN_PAYMENT_MESSAGES.oxxoPending}</small>{' '}
        <a className="acct-link" href={`/checkout/${order.id}`}>
          {ACCOUNT_ORDER_PAYMENT_TEXT.voucher}
        </a>
      </span>
    );
  }
  if (order.status === ORDER_STATUS.pending || order.totalCentavos === null) return null;
  const text = order.installments ? paymentMethodText({ totalCentavos: order.totalCentavos, installments: order.installments }) : null;
  if (!text) return null;
  return (
    <span className="order-payment-note" data-testid="order-installments">
      <br />
      <small>{text}</small>
    </span>
  );
}
