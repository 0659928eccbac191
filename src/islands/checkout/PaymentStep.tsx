/**
 * Step 3, 'Confirmar tu pago': tabs Tarjeta, Google / Apple Pay and PayPal, the collapsible order
 * summary with the order's stored amounts, the card brands, and a plain note in test mode. In
 * simulated mode every method is the simulated provider; in live mode a provider the server has
 * no keys for says it is unavailable.
 */
import { lazy, Suspense, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { CheckoutOrder } from '~/data/checkout.ts';
import { CHECKOUT_MESSAGES, CHECKOUT_PAYMENT_TEXT } from '~/i18n/checkout.ts';
import { formatCentavos } from '~/domain/money.ts';
import type { PaymentsPublicConfig } from '~/domain/payments-config.ts';
import OrderAmounts from './OrderAmounts.tsx';
import OrderLines from './OrderLines.tsx';
import OxxoPayment from './OxxoPayment.tsx';
import SimulatedCard from './SimulatedCard.tsx';
import SimulatedPayPal from './SimulatedPayPal.tsx';
import StoreCreditPayment from './StoreCreditPayment.tsx';

const StripePayments = lazy(() => import('./StripePayments.tsx'));
const PayPalPayments = lazy(() => import('./PayPalPayments.tsx'));

type Tab = 'card' | 'gpay' | 'paypal' | 'oxxo' | 'credit';
const TABS: Array<{ key: Tab; label: string }> = [
  { key: 'card', label: CHECKOUT_PAYMENT_TEXT.tabs.card },
  { key: 'gpay', label: CHECKOUT_PAYMENT_TEXT.tabs.gpay },
  { key: 'paypal', label: CHECKOUT_PAYMENT_TEXT.tabs.paypal },
  { key: 'oxxo', label: CHECKOUT_PAYMENT_TEXT.tabs.oxxo },
  { key: 'credit', label: CHECKOUT_PAYMENT_TEXT.tabs.credit },
];

interface Props {
  order: CheckoutOrder;
  config: PaymentsPublicConfig;
  onPaid(): void;
  /** The order changed without being paid (part of it paid with the balance): show it again. */
  onChanged(): void;
}

/** The payment step. */
export default function PaymentStep({ order, config, onPaid, onChanged }: Props) {
  // An order waiting for its OXXO payment opens on its voucher.
  const [tab, setTab] = useState<Tab>(order.payment_method === 'oxxo' && order.oxxo_voucher ? 'oxxo' : 'card');
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const id = useId();

  function onTabKey(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const move = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (event.key === 'Home' || event.key === 'End' || move !== 0) {
      event.preventDefault();
      const next = event.key === 'Home' ? 0 : event.key === 'End' ? TABS.length - 1 : (index + move + TABS.length) % TABS.length;
      setTab(TABS[next]!.key);
      tabRefs.current[next]?.focus();
    }
  }

  const loading = <p role="status">{CHECKOUT_PAYMENT_TEXT.loading}</p>;
  return (
    <section className="checkout-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{CHECKOUT_PAYMENT_TEXT.title}</h2>
      {config.testMode && (
        <p className="test-mode" role="note">
          {CHECKOUT_PAYMENT_TEXT.testMode}
        </p>
      )}
      <details className="order-summary">
        <summary>
          {CHECKOUT_PAYMENT_TEXT.summary} <strong data-amount="summary-total">{formatCentavos(order.totalCentavos)}</strong>
        </summary>
        <OrderLines lines={order.lines} />
        <OrderAmounts order={order} />
      </details>
      {order.creditCentavos > 0 && (
        <p className="credit-applied" role="status">
          {CHECKOUT_PAYMENT_TEXT.creditApplied(formatCentavos(order.creditCentavos))} <strong>{formatCentavos(order.dueCentavos)}</strong>
        </p>
      )}
      {order.lines.length === 0 && <p>{CHECKOUT_MESSAGES.emptyCart}</p>}

      <div role="tablist" aria-label={CHECKOUT_PAYMENT_TEXT.tabsLabel} className="pay-tabs">
        {TABS.map((t, i) => (
          <button
            key={t.key}
            ref={(el) => {
              tabRefs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${t.key}`}
            aria-selected={tab === t.key}
            aria-controls={`${id}-panel-${t.key}`}
            tabIndex={tab === t.key ? 0 : -1}
            onClick={() => setTab(t.key)}
            onKeyDown={(e) => onTabKey(e, i)}
          >
            {t.label}
          </button>
        ))}
      </div>

      <div role="tabpanel" id={`${id}-panel-${tab}`} aria-labelledby={`${id}-tab-${tab}`} className="pay-panel">
        {tab === 'card' && (
          <>
            <ul className="card-brands" aria-label={CHECKOUT_PAYMENT_TEXT.cardBrands}>
              <li className="brand-visa">VISA</li>
              <li className="brand-mastercard">Mastercard</li>
              <li className="brand-amex">American Express</li>
            </ul>
            {config.card === 'stripe' && config.stripePublishableKey ? (
              <Suspense fallback={loading}>
                <StripePayments publishableKey={config.stripePublishableKey} orderId={order.id} totalCentavos={order.dueCentavos} mode="card" onPaid={onPaid} />
              </Suspense>
            ) : config.card === 'simulated' ? (
              <SimulatedCard orderId={order.id} totalCentavos={order.dueCentavos} onPaid={onPaid} />
            ) : (
              <p role="alert">{CHECKOUT_MESSAGES.cardUnavailable}</p>
            )}
          </>
        )}
        {tab === 'gpay' &&
          (config.card === 'stripe' && config.stripePublishableKey ? (
            <Suspense fallback={loading}>
              <StripePayments publishableKey={config.stripePublishableKey} orderId={order.id} totalCentavos={order.dueCentavos} mode="wallet" onPaid={onPaid} />
            </Suspense>
          ) : (
            <p role="status">{CHECKOUT_MESSAGES.walletUnavailable}</p>
          ))}
        {tab === 'paypal' &&
          (config.paypal === 'paypal' ? (
            config.paypalClientId ? (
              <Suspense fallback={loading}>
                <PayPalPayments clientId={config.paypalClientId} orderId={order.id} onPaid={onPaid} />
              </Suspense>
            ) : (
              <p role="alert">{CHECKOUT_MESSAGES.paypalNotConfigured}</p>
            )
          ) : config.paypal === 'simulated' ? (
            <SimulatedPayPal orderId={order.id} totalCentavos={order.dueCentavos} onPaid={onPaid} />
          ) : (
            <p role="alert">{CHECKOUT_MESSAGES.paypalNotConfigured}</p>
          ))}
        {tab === 'credit' && <StoreCreditPayment order={order} onPaid={onPaid} onChanged={onChanged} />}
        {tab === 'oxxo' && <OxxoPayment order={order} simulated={config.card === 'simulated'} available={config.card !== 'unavailable'} onPaid={onPaid} />}
      </div>
    </section>
  );
}
