/**
 * Step 1 of the checkout: the cart as a table (image, name, price, stock, quantity − / +, line
 * amount, Eliminar; on phones each line is a card, checkout.css), the coupon form, the amounts, the free-shipping progress and 'Continuar con el
 * envío'. A single card's line is one offer, its label ('LP · Inglés · Parallel') under the name;
 * two offers of one card are two lines. The numbers come from the same pricing module as the
 * database's create_order.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { centavos, formatCentavos } from '~/domain/money.ts';
import { computeOrderAmounts, freeShippingProgress, lineDiscountsCentavos, lineTotalCentavos, type OrderAmounts } from '~/domain/pricing.ts';
import { canIncrease } from '~/domain/products.ts';
import { IMAGE_SLOTS, resolveImage } from '~/domain/images.ts';
import { Picture } from '../ui/Picture.tsx';
import { supabaseUrl } from '~/data/supabase.ts';
import { CHECKOUT_MESSAGES } from '~/i18n/checkout.ts';
import { CART_COUPON_TEXT, CART_LINE_TEXT, CART_SUMMARY_TEXT, CART_TOTALS_TEXT, PRODUCT_MESSAGES } from '~/i18n/cart.ts';
import { PROMOTION_COUPON_TEXT } from '~/i18n/promotions.ts';
import { $cart, lineKey, removeFromCart, setQuantity, type CartItem } from '~/stores/cart.ts';
import { $couponCode, $promotion, appliedMessage, cartSignature, removeCoupon, submitCoupon } from '~/stores/checkout.ts';
import { useMounted } from '../prebuilt.ts';

interface Props {
  /** Changes after the page opened (removed products, new prices, clamped quantities). */
  notices: string[];
  /** Refusals from create_order, by product id. */
  lineErrors: Record<string, string>;
  /** The general message next to the continue button (sign-in needed, order errors). */
  error: { message: string; signIn: boolean } | null;
  busy: boolean;
  onContinue(): void;
}

/** The cart summary table, coupon form and totals. */
export default function CartSummary({ notices, lineErrors, error, busy, onContinue }: Props) {
  const items = useStore($cart);
  const checked = useStore($promotion);
  // Priced with the database's answer for the code; a line it was not asked about does not match yet.
  const lines = items.map((item) => ({ ...item, eligible: checked ? checked.eligible[lineKey(item)] === true : undefined }));
  const amounts = computeOrderAmounts(lines, checked?.promotion ?? null);
  const lineDiscounts = lineDiscountsCentavos(lines, checked?.promotion ?? null);
  const storage = supabaseUrl();

  // The cart lives in this browser's storage: the server drew a neutral panel, and so does the
  // first client render, or hydration would fail (src/islands/prebuilt.ts useMounted).
  const mounted = useMounted();
  if (!mounted) {
    return (
      <section className="checkout-panel" aria-labelledby="cart-title" aria-busy="true">
        <h2 id="cart-title">{CART_SUMMARY_TEXT.title}</h2>
        <p role="status">{CART_SUMMARY_TEXT.loading}</p>
      </section>
    );
  }

  if (items.length === 0) {
    return (
      <section className="checkout-panel" aria-labelledby="cart-title">
        <h2 id="cart-title">{CART_SUMMARY_TEXT.title}</h2>
        {notices.length > 0 && <Notices notices={notices} />}
        <p className="cart-empty">{CHECKOUT_MESSAGES.emptyCart}</p>
        <a className="btn btn-primary" href="/">
          {CART_SUMMARY_TEXT.continueShopping}
        </a>
      </section>
    );
  }

  return (
    <section className="checkout-panel" aria-labelledby="cart-title">
      <h2 id="cart-title">{CART_SUMMARY_TEXT.title}</h2>
      {notices.length > 0 && <Notices notices={notices} />}
      <div className="cart-table-wrap">
        <table className="cart-table table-cards">
          <caption className="visually-hidden">{CART_SUMMARY_TEXT.linesCaption}</caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">{CART_SUMMARY_TEXT.image}</span>
              </th>
              <th scope="col">{CART_SUMMARY_TEXT.product}</th>
              <th scope="col">{CART_SUMMARY_TEXT.price}</th>
              <th scope="col">{CART_SUMMARY_TEXT.stock}</th>
              <th scope="col">{CART_SUMMARY_TEXT.quantity}</th>
              <th scope="col">{CART_SUMMARY_TEXT.amount}</th>
              <th scope="col">
                <span className="visually-hidden">{CART_SUMMARY_TEXT.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((item, i) => (
              <CartLine
                key={lineKey(item)}
                item={item}
                refusal={lineErrors[item.id]}
                storage={storage}
                discount={
                  checked && (lineDiscounts[i] ?? 0) > 0 ? PROMOTION_COUPON_TEXT.lineDiscount(checked.promotion.code, formatCentavos(lineDiscounts[i]!)) : null
                }
              />
            ))}
          </tbody>
        </table>
      </div>

      <div className="cart-bottom">
        <CouponForm />

        <div className="cart-totals">
          <CartTotals amounts={amounts.centavos} />
          <p className="tax-note">{CART_SUMMARY_TEXT.taxNote}</p>
          {error && (
            <div className="alert alert-error" role="alert">
              <p>{error.message}</p>
              {error.signIn && (
                <a className="btn btn-primary" href="/auth?next=/checkout/summary">
                  {CART_SUMMARY_TEXT.signIn}
                </a>
              )}
            </div>
          )}
          <button type="button" className="btn btn-primary btn-block" onClick={onContinue} disabled={busy} aria-busy={busy}>
            {busy ? CART_SUMMARY_TEXT.creating : CART_SUMMARY_TEXT.continue}
          </button>
        </div>
      </div>
    </section>
  );
}

function Notices({ notices }: { notices: string[] }) {
  return (
    <div className="alert alert-info" role="status">
      <p>{CART_SUMMARY_TEXT.noticesIntro}</p>
      <ul>
        {notices.map((n) => (
          <li key={n}>{n}</li>
        ))}
      </ul>
    </div>
  );
}

/** A line as its buttons name it: the product, and the offer of a single card. */
function lineName(item: CartItem): string {
  return item.offerLabel ? `${item.name}, ${item.offerLabel}` : item.name;
}

/** One line of the cart: product (and offer), price, stock, quantity buttons, amount and 'Eliminar'. */
function CartLine({ item, refusal, storage, discount }: { item: CartItem; refusal: string | undefined; storage: string; discount: string | null }) {
  const atMax = !canIncrease(item.quantity, item.stock);
  const key = lineKey(item);
  const name = lineName(item);
  return (
    <tr data-product-id={item.id} data-offer-id={item.offerId}>
      <td className="cart-image">
        {item.image ? <Picture src={resolveImage(item.image, storage)} frame={IMAGE_SLOTS.thumb64} box={[64, 64]} alt="" loading="lazy" /> : null}
      </td>
      <th scope="row" className="cart-name">
        <a href={`/product/${encodeURIComponent(item.id)}`}>{item.name}</a>
        {item.offerLabel && <span className="cart-offer">{item.offerLabel}</span>}
        {refusal && (
          <p className="field-error" role="alert">
            {refusal}
          </p>
        )}
      </th>
      <td className="cart-price" data-label={CART_LINE_TEXT.price}>
        {formatCentavos(item.priceCentavos)}
      </td>
      <td className="cart-stock" data-label={CART_LINE_TEXT.stock}>
        {item.stock === null ? CART_LINE_TEXT.available : item.stock}
      </td>
      <td className="cart-qty">
        <div className="qty" role="group" aria-label={CART_LINE_TEXT.quantityOf(name)}>
          <button
            type="button"
            className="qty-btn"
            aria-label={CART_LINE_TEXT.removeOne(name)}
            disabled={item.quantity <= 1}
            onClick={() => setQuantity(key, item.quantity - 1)}
          >
            −
          </button>
          <output aria-live="polite" aria-label={CART_LINE_TEXT.quantityOf(name)}>
            {item.quantity}
          </output>
          <button
            type="button"
            className="qty-btn"
            aria-label={CART_LINE_TEXT.addOne(name)}
            disabled={atMax}
            onClick={() => setQuantity(key, item.quantity + 1)}
          >
            +
          </button>
        </div>
        {atMax && <p className="qty-max">{PRODUCT_MESSAGES.maxStock}</p>}
      </td>
      <td className="cart-amount" data-label={CART_LINE_TEXT.amount}>
        {formatCentavos(lineTotalCentavos(item))}
        {discount && <span className="cart-line-discount">{discount}</span>}
      </td>
      <td className="cart-remove">
        <button type="button" className="btn btn-outline btn-sm" onClick={() => removeFromCart(key)} aria-label={CART_LINE_TEXT.removeLine(name)}>
          {CART_LINE_TEXT.remove}
        </button>
      </td>
    </tr>
  );
}

/**
 * 'Cupón de descuento': the database checks the code and says what it gives or why not; the
 * applied code is asked about again whenever the cart changes (its lines, a minimum, the scope).
 */
function CouponForm() {
  const couponCode = useStore($couponCode);
  const items = useStore($cart);
  const checked = useStore($promotion);
  const [couponInput, setCouponInput] = useState(couponCode);
  const [couponMessage, setCouponMessage] = useState(() => (checked ? appliedMessage(checked.promotion) : ''));
  const [checking, setChecking] = useState(false);
  const asked = useRef(0);
  const couponId = useId();

  async function check(code: string) {
    const ask = ++asked.current;
    setChecking(true);
    const message = await submitCoupon(code, $cart.get());
    // Only the latest question's answer is shown.
    if (ask !== asked.current) return;
    setChecking(false);
    setCouponMessage(message);
  }

  const signature = couponCode ? cartSignature(items, couponCode) : '';
  useEffect(() => {
    if (signature && checked?.signature !== signature) void check(couponCode);
    // The check runs again when the cart (or the code) changes, not on every answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signature]);

  function apply(event: FormEvent) {
    event.preventDefault();
    void check(couponInput);
  }

  function remove() {
    asked.current += 1;
    setChecking(false);
    removeCoupon();
    setCouponInput('');
    setCouponMessage('');
  }

  return (
    <form className="coupon-form" onSubmit={apply} aria-label={CART_COUPON_TEXT.title}>
      <label htmlFor={couponId}>{CART_COUPON_TEXT.title}</label>
      <div className="coupon-row">
        <input
          id={couponId}
          className="input"
          name="coupon"
          autoComplete="off"
          value={couponInput}
          onChange={(e) => setCouponInput(e.target.value)}
          placeholder={CART_COUPON_TEXT.placeholder}
        />
        <button type="submit" className="btn btn-outline" disabled={checking} aria-busy={checking}>
          {CART_COUPON_TEXT.apply}
        </button>
        {couponCode && (
          <button type="button" className="btn btn-outline" onClick={remove}>
            {CART_COUPON_TEXT.remove}
          </button>
        )}
      </div>
      <p className="coupon-message" role="status" aria-live="polite">
        {checking ? PROMOTION_COUPON_TEXT.checking : couponMessage}
      </p>
    </form>
  );
}

/** Subtotal, discount, shipping and total in centavos, and how far free shipping is. */
function CartTotals({ amounts }: { amounts: OrderAmounts['centavos'] }) {
  const progress = freeShippingProgress(amounts.subtotal);
  return (
    <>
      <dl className="amounts">
        <div>
          <dt>{CART_TOTALS_TEXT.subtotal}</dt>
          <dd data-amount="subtotal">{formatCentavos(amounts.subtotal)}</dd>
        </div>
        <div>
          <dt>{CART_TOTALS_TEXT.discount}</dt>
          <dd data-amount="discount">{amounts.discount > 0 ? `−${formatCentavos(amounts.discount)}` : formatCentavos(centavos(0))}</dd>
        </div>
        <div>
          <dt>{CART_TOTALS_TEXT.shipping}</dt>
          <dd data-amount="shipping">{amounts.shipping === 0 ? CART_TOTALS_TEXT.free : formatCentavos(amounts.shipping)}</dd>
        </div>
        <div className="amounts-total">
          <dt>{CART_TOTALS_TEXT.total}</dt>
          <dd data-amount="total">{formatCentavos(amounts.total)}</dd>
        </div>
      </dl>
      <div className="free-shipping">
        <p id="free-shipping-label">
          {progress.reached ? CART_TOTALS_TEXT.freeShipping : CART_TOTALS_TEXT.toFreeShipping(formatCentavos(progress.remainingCentavos))}
        </p>
        <progress max={100} value={progress.percent} aria-labelledby="free-shipping-label">
          {progress.percent}%
        </progress>
      </div>
    </>
  );
}
