/**
 * The one buy box of the product page, for a sealed product (AddToCart) and for a single card's
 * chosen offer (OfferPicker): the price line, the stock, the quantity, 'Agregar al carrito' and the
 * note under them. What is particular to each (the offers to choose from) goes inside.
 */
import type { ReactNode, Ref, RefObject } from 'react';
import { type Centavos, formatCentavos } from '~/domain/money.ts';
import { canIncrease } from '~/domain/products.ts';
import { PRODUCT_MESSAGES } from '~/i18n/cart.ts';
import { PRODUCT_BUY_BOX_TEXT as TEXT } from '~/i18n/product.ts';
import { stockText } from './buy-box.ts';
import RestockAlertButton from './RestockAlertButton.tsx';
import { useDropLocked } from './drop-lock.ts';
import type { useQuantityField } from './use-quantity-field.ts';

/** The price shown, the price it was, its discount and whether it is a pre-order. */
export interface BuyBoxPrice {
  priceCentavos: Centavos;
  originalPriceCentavos: Centavos | null;
  percent: number | null;
  preorder: boolean;
}

interface Props {
  /** 'buy-box' plus the box's own class, if any. */
  className?: string;
  boxRef?: Ref<HTMLDivElement>;
  /** While the live price and stock are being read. */
  checking: boolean;
  price: BuyBoxPrice;
  /** null: the stock is not counted. */
  stock: number | null;
  soldOut: boolean;
  /** What a sold-out box says. */
  soldOutText: string;
  field: ReturnType<typeof useQuantityField>;
  onAdd: () => void;
  note: string;
  /** Before the price (the chosen offer's name). */
  heading?: ReactNode;
  /** Between the stock and the quantity (the offers to choose from). */
  children?: ReactNode;
  /** A timed drop's instant: the add button is held until then. */
  onSaleAt?: string | null | undefined;
}

/** Price, stock, quantity and the add button. */
export function BuyBox({ className, boxRef, checking, price, stock, soldOut, soldOutText, field, onAdd, note, heading, children, onSaleAt }: Props) {
  const dropLocked = useDropLocked(onSaleAt);
  return (
    <div className={className ? `buy-box ${className}` : 'buy-box'} ref={boxRef} aria-busy={checking}>
      {heading}
      <PriceLine {...price} preorder={price.preorder && !soldOut} />
      {soldOut ? (
        <p className="stock stock-out" role="status">
          {soldOutText}
        </p>
      ) : (
        <p className="stock">
          {stockText(stock)}
          {checking && <span className="skeleton-inline" aria-hidden="true" />}
        </p>
      )}
      {children}
      <div className="buy-actions">
        <QuantityStepper
          inputRef={field.inputRef}
          text={field.text}
          quantity={field.quantity}
          stock={stock}
          soldOut={soldOut}
          onChange={field.change}
          onText={field.type}
          onCommit={field.commit}
        />
        <button type="button" className="btn btn-primary add-btn" disabled={soldOut || dropLocked} data-drop-at={onSaleAt ?? undefined} onClick={onAdd}>
          {TEXT.add}
        </button>
      </div>
      {soldOut && <RestockAlertButton />}
      {note && (
        <p className="field-error" role="status">
          {note}
        </p>
      )}
    </div>
  );
}

/** The price, the price it was and its discount badge, and 'Preventa'. */
export function PriceLine({ priceCentavos, originalPriceCentavos, percent, preorder }: BuyBoxPrice) {
  return (
    <div className="buy-price">
      <p className="price-now">
        <span className="visually-hidden">{TEXT.price}</span>
        {formatCentavos(priceCentavos)}
      </p>
      {percent !== null && originalPriceCentavos !== null && (
        <>
          <p className="price-was">
            <span className="visually-hidden">{TEXT.originalPrice}</span>
            <s>{formatCentavos(originalPriceCentavos)}</s>
          </p>
          <span className="badge badge-danger">-{percent}%</span>
        </>
      )}
      {preorder && <span className="badge badge-info">{PRODUCT_MESSAGES.preorder}</span>}
    </div>
  );
}

export interface StepperProps {
  inputRef: RefObject<HTMLInputElement | null>;
  text: string;
  quantity: number;
  stock: number | null;
  soldOut: boolean;
  onChange: (quantity: number) => void;
  onText: (text: string) => void;
  onCommit: () => void;
}

/** − / the quantity field / +, clamped to the stock. */
export function QuantityStepper({ inputRef, text, quantity, stock, soldOut, onChange, onText, onCommit }: StepperProps) {
  return (
    <div className="qty" role="group" aria-label={TEXT.quantity}>
      <button type="button" className="qty-btn" aria-label={TEXT.decrease} disabled={soldOut || quantity <= 1} onClick={() => onChange(quantity - 1)}>
        −
      </button>
      <input
        ref={inputRef}
        className="qty-input"
        type="number"
        inputMode="numeric"
        aria-label={TEXT.quantity}
        min={1}
        max={stock ?? undefined}
        value={text}
        disabled={soldOut}
        onChange={(event) => onText(event.currentTarget.value)}
        onBlur={onCommit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') onCommit();
        }}
      />
      <button
        type="button"
        className="qty-btn"
        aria-label={TEXT.increase}
        disabled={soldOut || !canIncrease(quantity, stock)}
        onClick={() => onChange(quantity + 1)}
      >
        +
      </button>
    </div>
  );
}
