/**
 * Price, stock, quantity and the add-to-cart button of the product page. The page is prebuilt, so
 * on hydration the island asks Supabase for the live price and stock and shows those: a stale page
 * never sells what is gone.
 */
import { useState, type RefObject } from 'react';
import { fetchLiveProduct } from '~/data/products.ts';
import { type Centavos, formatCentavos } from '~/domain/money.ts';
import { canIncrease, clampQuantity, discountPercent, isSoldOut, PRODUCT_MESSAGES } from '~/domain/products.ts';
import { addToCart } from '~/stores/cart.ts';
import { showAddOutcome } from '~/stores/toast.ts';
import { useLiveRead } from './use-live-read.ts';
import { useQuantityField } from './use-quantity-field.ts';

/** What the prebuilt page knows about the product. */
export interface AddToCartProduct {
  id: string;
  name: string;
  priceCentavos: Centavos;
  originalPriceCentavos: Centavos | null;
  preorder: boolean;
  stock: number | null;
  image: string;
  images: string[];
}

interface Props {
  product: AddToCartProduct;
}

/** The buy box of the product page. */
export default function AddToCart({ product }: Props) {
  const { live, state, liveRequest } = useLiveRead(product.id, fetchLiveProduct);
  const [note, setNote] = useState('');

  const priceCentavos = live?.priceCentavos ?? product.priceCentavos;
  const originalPriceCentavos = live ? live.originalPriceCentavos : product.originalPriceCentavos;
  const stock = state === 'gone' ? 0 : live ? live.stock : product.stock;
  const preorder = live?.preorder ?? product.preorder;
  const soldOut = isSoldOut({ stock });
  const percent = discountPercent({ priceCentavos, originalPriceCentavos });

  const { inputRef, text, quantity, change, commit, type } = useQuantityField(stock, setNote);

  const add = async () => {
    // A click replayed right after hydration may beat the live check; wait briefly for it.
    let current = live;
    if (state === 'checking' && liveRequest.current) {
      current = await Promise.race([liveRequest.current.catch(() => null), new Promise<null>((resolve) => setTimeout(() => resolve(null), 1500))]);
    }
    const finalStock = current ? current.stock : stock;
    if (isSoldOut({ stock: finalStock }) || (current && !current.available)) return;
    const wanted = clampQuantity(quantity, finalStock);
    commit();
    const outcome = addToCart(
      {
        id: product.id,
        name: product.name,
        priceCentavos: current?.priceCentavos ?? priceCentavos,
        stock: finalStock,
        image: product.image,
        images: product.images,
      },
      wanted,
    );
    // The same messages as the product cards: 'Agregado al carrito' only when units were added.
    showAddOutcome(product.name, outcome);
  };

  return (
    <div className="buy-box" aria-busy={state === 'checking'}>
      <PriceLine priceCentavos={priceCentavos} originalPriceCentavos={originalPriceCentavos} percent={percent} preorder={preorder && !soldOut} />

      {soldOut ? (
        <p className="stock stock-out" role="status">
          {PRODUCT_MESSAGES.soldOutDetail}
        </p>
      ) : (
        <p className="stock">
          {stock === null ? 'Disponible' : `Disponibles: ${stock}`}
          {state === 'checking' && <span className="skeleton-inline" aria-hidden="true" />}
        </p>
      )}

      <div className="buy-actions">
        <QuantityStepper
          inputRef={inputRef}
          text={text}
          quantity={quantity}
          stock={stock}
          soldOut={soldOut}
          onChange={change}
          onText={type}
          onCommit={commit}
        />
        <button type="button" className="btn btn-primary add-btn" disabled={soldOut} onClick={() => void add()}>
          Agregar al carrito
        </button>
      </div>
      {note && (
        <p className="field-error" role="status">
          {note}
        </p>
      )}
    </div>
  );
}

/** The price, the price it was and its discount badge, and 'Preventa'. */
export function PriceLine({
  priceCentavos,
  originalPriceCentavos,
  percent,
  preorder,
}: {
  priceCentavos: Centavos;
  originalPriceCentavos: Centavos | null;
  percent: number | null;
  preorder: boolean;
}) {
  return (
    <div className="buy-price">
      <p className="price-now">
        <span className="visually-hidden">Precio: </span>
        {formatCentavos(priceCentavos)}
      </p>
      {percent !== null && originalPriceCentavos !== null && (
        <>
          <p className="price-was">
            <span className="visually-hidden">Precio original: </span>
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
    <div className="qty" role="group" aria-label="Cantidad">
      <button type="button" className="qty-btn" aria-label="Disminuir cantidad" disabled={soldOut || quantity <= 1} onClick={() => onChange(quantity - 1)}>
        −
      </button>
      <input
        ref={inputRef}
        className="qty-input"
        type="number"
        inputMode="numeric"
        aria-label="Cantidad"
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
        aria-label="Aumentar cantidad"
        disabled={soldOut || !canIncrease(quantity, stock)}
        onClick={() => onChange(quantity + 1)}
      >
        +
      </button>
    </div>
  );
}
