/**
 * The checkout in four steps (Resumen, Envío, Pago, Confirmación). The summary works from the
 * cart; from 'Continuar con el envío' on, everything shows the order the database created and
 * priced, at /checkout/{orderId}.
 */
import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { cancelOrder, CHECKOUT_MESSAGES, createOrder, fetchCartProducts, loadOrder, setOrderAddress, type CheckoutOrder } from '../../data/checkout.ts';
import { $cart, clearCart, refreshCartLine, removeFromCart } from '../../stores/cart.ts';
import { $couponCode, $pendingOrder, cartSignature, forgetPendingOrder, rememberPendingOrder, removeCoupon } from '../../stores/checkout.ts';
import { $session, initSession } from '../../stores/session.ts';
import CartSummary from '../cart/CartSummary.tsx';
import { reconcileCart } from '../../domain/cart-reconcile.ts';
import ConfirmationStep from './ConfirmationStep.tsx';
import PaymentStep, { type PaymentsConfig } from './PaymentStep.tsx';
import ShippingStep from './ShippingStep.tsx';
import OrderAmounts from './OrderAmounts.tsx';
import Stepper, { type StepKey } from './Stepper.tsx';
import './checkout.css';
import { ORDER_STATUS } from '../../domain/orders.ts';

interface Props {
  /** Set on /checkout/{orderId}: the order to open. */
  orderId?: string | null;
  payments: PaymentsConfig;
}

type OrderState = { kind: 'none' } | { kind: 'loading' } | { kind: 'ready'; order: CheckoutOrder } | { kind: 'missing' } | { kind: 'failed' };

/** '1 producto', '3 productos'. */
function itemsLabel(count: number): string {
  return count === 1 ? '1 producto' : `${count} productos`;
}

function isOpen(order: CheckoutOrder): boolean {
  return order.status === ORDER_STATUS.pending && (order.expires_at === null || Date.parse(order.expires_at) > Date.now());
}

/** The checkout island. */
export default function CheckoutApp({ orderId: initialOrderId = null, payments }: Props) {
  const session = useStore($session);
  const cart = useStore($cart);
  const coupon = useStore($couponCode);
  const [step, setStep] = useState<StepKey>(initialOrderId ? 'payment' : 'summary');
  const [orderId, setOrderId] = useState<string | null>(initialOrderId);
  const [orderState, setOrderState] = useState<OrderState>(initialOrderId ? { kind: 'loading' } : { kind: 'none' });
  const [notices, setNotices] = useState<string[]>([]);
  const [lineErrors, setLineErrors] = useState<Record<string, string>>({});
  const [summaryError, setSummaryError] = useState<{ message: string; signIn: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [shippingError, setShippingError] = useState<string | null>(null);
  const reconciled = useRef(false);
  const heading = useRef<HTMLDivElement>(null);

  useEffect(() => initSession(), []);

  // The cart meets the live catalogue once per page: gone products leave, prices and stock refresh.
  useEffect(() => {
    if (reconciled.current) return;
    reconciled.current = true;
    const items = $cart.get();
    if (items.length === 0) return;
    fetchCartProducts(items.map((i) => i.id))
      .then((live) => {
        const changes = reconcileCart(items, live);
        const messages: string[] = [];
        for (const change of changes) {
          if (change.kind === 'remove') {
            removeFromCart(change.id);
            messages.push(change.notice);
            continue;
          }
          refreshCartLine(change.id, change);
          messages.push(...change.notices);
        }
        setNotices(messages);
      })
      .catch(() => {
        // Offline or the backend is down: the stored cart stays; create_order checks everything anyway.
      });
  }, []);

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

  // Moving between steps puts keyboard and screen-reader users at the top of the new step.
  const firstStep = useRef(true);
  useEffect(() => {
    if (firstStep.current) {
      firstStep.current = false;
      return;
    }
    heading.current?.focus();
  }, [step]);

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
    try {
      const signature = cartSignature(cart, coupon);
      const pending = $pendingOrder.get();
      if (pending) {
        const existing = await loadOrder(pending.orderId).catch(() => null);
        if (existing && isOpen(existing) && pending.signature === signature) {
          goToOrder(existing);
          return;
        }
        // The cart changed since: the old reservation goes back to the shelf.
        if (existing && existing.status === ORDER_STATUS.pending) await cancelOrder(existing.id).catch(() => undefined);
        forgetPendingOrder();
      }
      const result = await createOrder(
        cart.map((i) => ({ product_id: i.id, quantity: i.quantity })),
        coupon || null,
      );
      if (!result.ok) {
        if (result.line) setLineErrors({ [result.line.productId]: result.line.message });
        setSummaryError({ message: result.message, signIn: result.message === CHECKOUT_MESSAGES.signIn });
        return;
      }
      rememberPendingOrder(result.orderId, signature);
      const order = await loadOrder(result.orderId);
      if (!order) {
        setSummaryError({ message: CHECKOUT_MESSAGES.createProblem, signIn: false });
        return;
      }
      goToOrder(order);
    } catch {
      setSummaryError({ message: CHECKOUT_MESSAGES.createProblem, signIn: false });
    } finally {
      setBusy(false);
    }
  }

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
    if (!saved) {
      setBusy(false);
      setShippingError('No se pudo guardar la dirección en tu pedido. Intenta de nuevo.');
      return;
    }
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
  }, [orderId, showOrder]);

  function selectStep(target: StepKey) {
    if (target === 'summary') {
      setStep('summary');
      if (window.location.pathname !== '/checkout/summary') window.history.pushState({}, '', '/checkout/summary');
      return;
    }
    setStep(target);
  }

  const order = orderState.kind === 'ready' ? orderState.order : null;
  let body: ReactNode;
  if (step === 'summary') {
    body = <CartSummary notices={notices} lineErrors={lineErrors} error={summaryError} busy={busy || session.loading} onContinue={() => void continueToShipping()} />;
  } else if (!session.loading && !session.user) {
    body = (
      <div className="alert alert-error" role="alert">
        <p>{CHECKOUT_MESSAGES.signIn}</p>
        <a className="btn btn-primary" href={`/auth?next=${encodeURIComponent(window.location.pathname)}`}>
          Iniciar sesión
        </a>
      </div>
    );
  } else if (orderState.kind === 'missing') {
    body = (
      <div className="alert alert-error" role="alert">
        <p>No tienes acceso a este pedido.</p>
        <a href="/checkout/summary">Volver al carrito</a>
      </div>
    );
  } else if (!order) {
    body = <p role="status">{CHECKOUT_MESSAGES.loadingConfirmation}</p>;
  } else if (step === 'confirmation' || order.status !== ORDER_STATUS.pending) {
    body =
      order.status === ORDER_STATUS.cancelled || order.status === ORDER_STATUS.failed ? (
        <div className="alert alert-error" role="alert">
          <p>{order.payment_method === 'oxxo' ? 'Este pedido se canceló: su ficha de pago de OXXO venció sin pago.' : 'Este pedido fue cancelado o su reserva de 30 minutos expiró.'}</p>
          <a href="/checkout/summary">Volver al carrito</a>
        </div>
      ) : (
        <ConfirmationStep order={order} />
      );
  } else if (!isOpen(order)) {
    body = (
      <div className="alert alert-error" role="alert">
        <p>La reserva de este pedido expiró. Vuelve al carrito para crear uno nuevo.</p>
        <a href="/checkout/summary">Volver al carrito</a>
      </div>
    );
  } else if (step === 'shipping') {
    body = <ShippingStep userId={session.user!.id} selectedId={order.shipping_address_id} busy={busy} error={shippingError} onUse={(a) => void chooseAddress(a)} />;
  } else {
    body = <PaymentStep order={order} config={payments} onPaid={onPaid} />;
  }

  const shownStep: StepKey = order && order.status === ORDER_STATUS.paid ? 'confirmation' : step;
  // The shipping and payment steps of an open order show the order beside them.
  const sideSummary = order !== null && isOpen(order) && (shownStep === 'shipping' || shownStep === 'payment') && !(!session.loading && !session.user);
  const canGoBack = shownStep !== 'confirmation';
  return (
    <div className="checkout">
      <div ref={heading} tabIndex={-1} className="checkout-head">
        <h1>{shownStep === 'summary' ? 'Tu carrito' : 'Finalizar compra'}</h1>
      </div>
      <Stepper current={shownStep} onSelect={canGoBack ? selectStep : undefined} />
      {sideSummary ? (
        // From 1024 px the order summary stands in a column beside the step (checkout.css).
        <div className="checkout-layout">
          <div className="checkout-main">{body}</div>
          <aside className="checkout-panel checkout-aside" aria-labelledby="checkout-aside-title">
            <h2 id="checkout-aside-title">Tu pedido</h2>
            <p className="checkout-aside-count">{itemsLabel(order!.lines.reduce((sum, line) => sum + line.quantity, 0))}</p>
            <OrderAmounts order={order!} marked={false} />
          </aside>
        </div>
      ) : (
        body
      )}
    </div>
  );
}
