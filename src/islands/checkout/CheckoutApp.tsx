/**
 * The checkout in four steps (Resumen, Envío, Pago, Confirmación). The summary works from the
 * cart; from 'Continuar con el envío' on, everything shows the order the database created and
 * priced, at /checkout/{orderId}.
 */
import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { loadOrder, setOrderAddress, type CheckoutOrder } from '~/data/checkout.ts';
import { CHECKOUT_APP_TEXT, CHECKOUT_MESSAGES, CHECKOUT_ORDER_STEP_TEXT, CHECKOUT_VOUCHER_NOTICE_TEXT, MEXICAN_PAYMENT_MESSAGES } from '~/i18n/checkout.ts';
import { isOrderOpen as isOpen, ORDER_STATUS, orderDisplayId } from '~/domain/orders.ts';
import { $cart, clearCart, type CartItem } from '~/stores/cart.ts';
import { $addressGap, $couponCode, cancelPendingVoucher, forgetPendingOrder, placeOrder, reconcileCartWithLive, removeCoupon } from '~/stores/checkout.ts';
import { oxxoDeadline } from '~/domain/mexican-payments.ts';
import { centavos, formatCentavos } from '~/domain/money.ts';
import { $session, initSession } from '~/stores/session.ts';
import CartSummary from '../cart/CartSummary.tsx';
import ConfirmationStep from './ConfirmationStep.tsx';
import PaymentStep from './PaymentStep.tsx';
import PreorderOptions from './PreorderOptions.tsx';
import type { PaymentsPublicConfig } from '~/domain/payments-config.ts';
import ShippingStep from './ShippingStep.tsx';
import OrderAmounts from './OrderAmounts.tsx';
import Stepper, { type StepKey } from './Stepper.tsx';
import './checkout.css';

interface Props {
  /** Set on /checkout/{orderId}: the order to open. */
  orderId?: string | null;
  payments: PaymentsPublicConfig;
}

type OrderState = { kind: 'none' } | { kind: 'loading' } | { kind: 'ready'; order: CheckoutOrder } | { kind: 'missing' } | { kind: 'failed' };

/**
 * The order the checkout shows and the step it is at: /checkout/{orderId} opens its order once
 * the session is known, and back / forward move between the summary and the order's URL.
 */
function useCheckoutOrder(initialOrderId: string | null, session: { loading: boolean; user: unknown }) {
  const [step, setStep] = useState<StepKey>(initialOrderId ? 'payment' : 'summary');
  const [orderId, setOrderId] = useState<string | null>(initialOrderId);
  const [orderState, setOrderState] = useState<OrderState>(initialOrderId ? { kind: 'loading' } : { kind: 'none' });

  const showOrder = useCallback(async (id: string, opening: boolean) => {
    setOrderState({ kind: 'loading' });
    try {
      const order = await loadOrder(id);
      if (!order) {
        setOrderState({ kind: 'missing' });
        return null;
      }
      setOrderState({ kind: 'ready', order });
      if (opening) {
        if (order.status !== ORDER_STATUS.pending) setStep('confirmation');
        else setStep(order.shipping_address_id ? 'payment' : 'shipping');
      }
      return order;
    } catch (error) {
      // The specification only logs a failed load; the page keeps saying it is loading.
      console.error('No se pudo cargar el pedido', error);
      setOrderState({ kind: 'failed' });
      return null;
    }
  }, []);

  // /checkout/{orderId}: opens once the session is known.
  const opened = useRef(false);
  useEffect(() => {
    if (!initialOrderId || opened.current || session.loading) return;
    if (!session.user) return;
    opened.current = true;
    void showOrder(initialOrderId, true);
  }, [initialOrderId, session.loading, session.user, showOrder]);

  // Back and forward between the summary and the order's URL.
  useEffect(() => {
    const onPop = () => {
      const match = /^\/checkout\/([0-9a-f-]{36})\/?$/i.exec(window.location.pathname);
      if (match) {
        setOrderId(match[1]!);
        void showOrder(match[1]!, true);
      } else {
        setStep('summary');
      }
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [showOrder]);

  // An order changed without a new step (part paid with the balance): shown again in place, with
  // no loading state, so the payment step keeps its tab.
  const reloadInPlace = useCallback(() => {
    if (!orderId) return;
    void loadOrder(orderId)
      .then((changed) => {
        if (changed) setOrderState({ kind: 'ready', order: changed });
      })
      .catch((error: unknown) => console.error('No se pudo cargar el pedido', error));
  }, [orderId]);

  return { step, setStep, orderId, setOrderId, orderState, setOrderState, showOrder, reloadInPlace };
}

/**
 * A payment refused the order's address as incomplete: back to the shipping step, where that
 * address opens for its missing parts; the order and the cart stay as they are. Answers the
 * server's message while the refusal stands for this order.
 */
function useRefusedAddress(orderId: string | null, setStep: (step: StepKey) => void): string | null {
  const gap = useStore($addressGap);
  const refused = gap && gap.orderId === orderId ? gap.message : null;
  useEffect(() => {
    if (refused) setStep('shipping');
  }, [refused, setStep]);
  return refused;
}

/** The cart meets the live catalogue once per page: gone products leave, prices and stock refresh. */
function useReconciledCart(): string[] {
  const [notices, setNotices] = useState<string[]>([]);
  const reconciled = useRef(false);
  useEffect(() => {
    if (reconciled.current) return;
    reconciled.current = true;
    if ($cart.get().length === 0) return;
    void reconcileCartWithLive().then(setNotices);
  }, []);
  return notices;
}

/** Moving between steps puts keyboard and screen-reader users at the top of the new step. */
function useFocusOnStepChange(step: StepKey, heading: RefObject<HTMLDivElement | null>): void {
  const firstStep = useRef(true);
  useEffect(() => {
    if (firstStep.current) {
      firstStep.current = false;
      return;
    }
    heading.current?.focus();
  }, [step, heading]);
}

/** The checkout island. */
export default function CheckoutApp({ orderId: initialOrderId = null, payments }: Props) {
  const session = useStore($session);
  const cart = useStore($cart);
  const coupon = useStore($couponCode);
  const { step, setStep, orderId, setOrderId, orderState, setOrderState, showOrder, reloadInPlace: onChanged } = useCheckoutOrder(initialOrderId, session);
  const notices = useReconciledCart();
  const refusedAddress = useRefusedAddress(orderId, setStep);
  const [busy, setBusy] = useState(false);
  const [shippingError, setShippingError] = useState<string | null>(null);
  const heading = useRef<HTMLDivElement>(null);

  useEffect(() => initSession(), []);

  useFocusOnStepChange(step, heading);
  const { voucherOrder, setVoucherOrder, voucherMessage, keepVoucher, dropVoucher } = useVoucherChoice({
    setBusy,
    open: (order, target) => {
      goToOrder(order);
      if (target === 'confirmation') void showOrder(order.id, false).then(() => setStep('confirmation'));
      else setStep(target);
    },
    retry: () => continueToShipping(),
  });

  const { lineErrors, summaryError, continueToShipping } = usePlaceOrder({ session, cart, coupon, setBusy, onPlaced: goToOrder, onVoucher: setVoucherOrder });

  function goToOrder(order: CheckoutOrder) {
    setOrderId(order.id);
    setOrderState({ kind: 'ready', order });
    const path = `/checkout/${order.id}`;
    if (window.location.pathname !== path) window.history.pushState({ orderId: order.id }, '', path);
    setStep('shipping');
  }

  async function chooseAddress(addressId: string) {
    if (!orderId) return;
    setBusy(true);
    setShippingError(null);
    const saved = await setOrderAddress(orderId, addressId);
    if (!saved.saved) {
      setBusy(false);
      setShippingError(saved.message ?? CHECKOUT_APP_TEXT.saveAddressFailed);
      return;
    }
    $addressGap.set(null);
    const order = await showOrder(orderId, false);
    setBusy(false);
    if (order) setStep('payment');
  }

  const onPaid = useCallback(() => {
    // The paid order took the cart and its coupon; the next cart starts without either.
    clearCart();
    removeCoupon();
    forgetPendingOrder();
    if (!orderId) return;
    void showOrder(orderId, false).then(() => setStep('confirmation'));
  }, [orderId, showOrder, setStep]);

  function selectStep(target: StepKey) {
    if (target === 'summary') {
      setStep('summary');
      if (window.location.pathname !== '/checkout/summary') window.history.pushState({}, '', '/checkout/summary');
      return;
    }
    setStep(target);
  }

  const order = orderState.kind === 'ready' ? orderState.order : null;
  const signedOut = !session.loading && !session.user;
  const body: ReactNode =
    step === 'summary' ? (
      <>
        {voucherOrder && (
          <OpenVoucherNotice
            order={voucherOrder}
            busy={busy}
            message={voucherMessage}
            onKeep={() => keepVoucher(voucherOrder)}
            onCancel={() => void dropVoucher(voucherOrder)}
          />
        )}
        <CartSummary
          notices={notices}
          lineErrors={lineErrors}
          error={summaryError}
          busy={busy || session.loading}
          onContinue={() => void continueToShipping()}
        />
        <PreorderOptions />
      </>
    ) : (
      <OrderStep
        step={step}
        signedOut={signedOut}
        orderState={orderState}
        userId={session.user?.id ?? ''}
        busy={busy}
        shippingError={shippingError}
        refusedAddress={refusedAddress}
        payments={payments}
        onUse={(addressId) => void chooseAddress(addressId)}
        onPaid={onPaid}
        onChanged={onChanged}
      />
    );

  const shownStep: StepKey = order && order.status === ORDER_STATUS.paid ? 'confirmation' : step;
  // The shipping and payment steps of an open order show the order beside them.
  const sideSummary = order !== null && isOpen(order) && (shownStep === 'shipping' || shownStep === 'payment') && !signedOut;
  const canGoBack = shownStep !== 'confirmation';
  return (
    <div className="checkout">
      <div ref={heading} tabIndex={-1} className="checkout-head">
        <h1>{shownStep === 'summary' ? CHECKOUT_APP_TEXT.cartTitle : CHECKOUT_APP_TEXT.title}</h1>
      </div>
      <Stepper current={shownStep} onSelect={canGoBack ? selectStep : undefined} />
      {sideSummary ? (
        // From 1024 px the order summary stands in a column beside the step (checkout.css).
        <div className="checkout-layout">
          <div className="checkout-main">{body}</div>
          <OrderAside order={order} />
        </div>
      ) : (
        body
      )}
    </div>
  );
}

/** The order beside the shipping and payment steps. */
function OrderAside({ order }: { order: CheckoutOrder }) {
  return (
    <aside className="checkout-panel checkout-aside" aria-labelledby="checkout-aside-title">
      <h2 id="checkout-aside-title">{CHECKOUT_APP_TEXT.asideTitle}</h2>
      <p className="checkout-aside-count">{CHECKOUT_APP_TEXT.items(order.lines.reduce((sum, line) => sum + line.quantity, 0))}</p>
      <OrderAmounts order={order} marked={false} />
    </aside>
  );
}

/** 'Continuar con el envío': the order the database creates from the cart, or why not. */
function usePlaceOrder({
  session,
  cart,
  coupon,
  setBusy,
  onPlaced,
  onVoucher,
}: {
  session: { loading: boolean; user: unknown };
  cart: CartItem[];
  coupon: string;
  setBusy(busy: boolean): void;
  onPlaced(order: CheckoutOrder): void;
  onVoucher(order: CheckoutOrder): void;
}) {
  const [lineErrors, setLineErrors] = useState<Record<string, string>>({});
  const [summaryError, setSummaryError] = useState<{ message: string; signIn: boolean } | null>(null);
  async function continueToShipping() {
    setSummaryError(null);
    setLineErrors({});
    if (session.loading) return;
    if (!session.user) {
      setSummaryError({ message: CHECKOUT_MESSAGES.signIn, signIn: true });
      return;
    }
    if (cart.length === 0) return;
    setBusy(true);
    const placed = await placeOrder(cart, coupon);
    setBusy(false);
    if (placed.ok) return onPlaced(placed.order);
    if (placed.voucherOrder) return onVoucher(placed.voucherOrder);
    setLineErrors(placed.lineErrors);
    setSummaryError({ message: placed.message, signIn: placed.signIn });
  }
  return { lineErrors, summaryError, continueToShipping };
}

/**
 * The choice offered when the cart changed while its order waits for an OXXO voucher: keep it
 * (back to that order's payment) or cancel it (only once Stripe cancelled it; then the new cart
 * becomes a new order; a voucher paid meanwhile opens the paid order).
 */
function useVoucherChoice({ setBusy, open, retry }: { setBusy(busy: boolean): void; open(order: CheckoutOrder, step: StepKey): void; retry(): Promise<void> }) {
  const [voucherOrder, setVoucherOrder] = useState<CheckoutOrder | null>(null);
  const [voucherMessage, setVoucherMessage] = useState<string | null>(null);
  function keepVoucher(order: CheckoutOrder) {
    setVoucherOrder(null);
    open(order, 'payment');
  }
  async function dropVoucher(order: CheckoutOrder) {
    setBusy(true);
    setVoucherMessage(null);
    const result = await cancelPendingVoucher(order.id);
    setBusy(false);
    if (result.ok) {
      setVoucherOrder(null);
      return retry();
    }
    setVoucherMessage(result.message);
    if (result.paid) {
      setVoucherOrder(null);
      open(order, 'confirmation');
    }
  }
  return { voucherOrder, setVoucherOrder, voucherMessage, keepVoucher, dropVoucher };
}

/**
 * The cart changed while its order waits for an OXXO voucher: the voucher may already be paid, so
 * nothing is cancelled until the shopper chooses. Cancelling is offered only while the voucher can
 * still be paid (before its deadline); after it, the order waits for Stripe's answer.
 */
function OpenVoucherNotice({
  order,
  busy,
  message,
  onKeep,
  onCancel,
}: {
  order: CheckoutOrder;
  busy: boolean;
  message: string | null;
  onKeep(): void;
  onCancel(): void;
}) {
  const voucher = order.oxxo_voucher;
  const cancellable = voucher ? Date.parse(voucher.expiresAt) > Date.now() : false;
  return (
    <div className="alert alert-info open-voucher" role="alert">
      <p>
        <strong>{MEXICAN_PAYMENT_MESSAGES.voucherOpen}</strong>
        {CHECKOUT_VOUCHER_NOTICE_TEXT.cartChanged(orderDisplayId(order.id), voucher ? formatCentavos(centavos(voucher.amount)) : null)}
      </p>
      {voucher && <p>{cancellable ? oxxoDeadline(voucher.expiresAt) : CHECKOUT_VOUCHER_NOTICE_TEXT.deadlinePassed}</p>}
      <div className="form-actions">
        <button type="button" className="btn btn-primary" disabled={busy} onClick={onKeep}>
          {CHECKOUT_VOUCHER_NOTICE_TEXT.keep}
        </button>
        {cancellable && (
          <button type="button" className="btn btn-outline" disabled={busy} onClick={onCancel}>
            {CHECKOUT_VOUCHER_NOTICE_TEXT.cancel}
          </button>
        )}
      </div>
      {message && <p>{message}</p>}
    </div>
  );
}

interface OrderStepProps {
  step: StepKey;
  signedOut: boolean;
  orderState: OrderState;
  userId: string;
  busy: boolean;
  shippingError: string | null;
  /** The server's message when a payment refused the order's address as incomplete. */
  refusedAddress: string | null;
  payments: PaymentsPublicConfig;
  onUse: (addressId: string) => void;
  onPaid: () => void;
  onChanged: () => void;
}

/** Every step after the summary: sign-in, no access, loading, closed order, shipping, payment, confirmation. */
function OrderStep({ step, signedOut, orderState, userId, busy, shippingError, refusedAddress, payments, onUse, onPaid, onChanged }: OrderStepProps) {
  const order = orderState.kind === 'ready' ? orderState.order : null;
  if (signedOut) {
    return (
      <div className="alert alert-error" role="alert">
        <p>{CHECKOUT_MESSAGES.signIn}</p>
        <a className="btn btn-primary" href={`/auth?next=${encodeURIComponent(window.location.pathname)}`}>
          {CHECKOUT_ORDER_STEP_TEXT.signIn}
        </a>
      </div>
    );
  }
  if (orderState.kind === 'missing') {
    return (
      <div className="alert alert-error" role="alert">
        <p>{CHECKOUT_ORDER_STEP_TEXT.noAccess}</p>
        <a href="/checkout/summary">{CHECKOUT_ORDER_STEP_TEXT.backToCart}</a>
      </div>
    );
  }
  if (!order) return <p role="status">{CHECKOUT_MESSAGES.loadingConfirmation}</p>;
  if (step === 'confirmation' || order.status !== ORDER_STATUS.pending) {
    if (order.status !== ORDER_STATUS.cancelled && order.status !== ORDER_STATUS.failed) return <ConfirmationStep order={order} />;
    return (
      <div className="alert alert-error" role="alert">
        <p>{order.payment_method === 'oxxo' ? CHECKOUT_ORDER_STEP_TEXT.oxxoCancelled : CHECKOUT_ORDER_STEP_TEXT.cancelled}</p>
        <a href="/checkout/summary">{CHECKOUT_ORDER_STEP_TEXT.backToCart}</a>
      </div>
    );
  }
  if (!isOpen(order)) {
    return (
      <div className="alert alert-error" role="alert">
        <p>{CHECKOUT_ORDER_STEP_TEXT.expired}</p>
        <a href="/checkout/summary">{CHECKOUT_ORDER_STEP_TEXT.backToCart}</a>
      </div>
    );
  }
  if (step === 'shipping') {
    return <ShippingStep userId={userId} selectedId={order.shipping_address_id} busy={busy} error={shippingError} refused={refusedAddress} onUse={onUse} />;
  }
  return <PaymentStep order={order} config={payments} onPaid={onPaid} onChanged={onChanged} />;
}
