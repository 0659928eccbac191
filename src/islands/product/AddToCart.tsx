/**
 * Price, stock, quantity and the add-to-cart button of the product page. The page is prebuilt, so
 * on hydration the island asks Supabase for the live price and stock and shows those: a stale page
 * never sells what is gone.
 */
import { useEffect, useRef, useState } from 'react';
import { fetchLiveProduct, type LiveProduct } from '../../data/products.ts';
import { formatMXN } from '../../domain/money.ts';
import { canIncrease, clampQuantity, discountPercent, isSoldOut, PRODUCT_MESSAGES } from '../../domain/products.ts';
import { addToCart } from '../../stores/cart.ts';
import { showAddedToCart } from '../../stores/toast.ts';

/** What the prebuilt page knows about the product. */
export interface AddToCartProduct {
  id: string;
  name: string;
  price: number;
  original_price: number | null;
  preorder: boolean;
  stock: number | null;
  image: string;
  images: string[];
}

interface Props {
  product: AddToCartProduct;
}

type LiveState = 'checking' | 'live' | 'stale' | 'gone';

/** The buy box of the product page. */
export default function AddToCart({ product }: Props) {
  const [live, setLive] = useState<LiveProduct | null>(null);
  // 'idle' until hydrated: the prebuilt HTML must not show a check that has not started.
  const [state, setState] = useState<LiveState | 'idle'>('idle');
  const [quantity, setQuantity] = useState(1);
  const [note, setNote] = useState('');
  const liveRequest = useRef<Promise<LiveProduct | null> | null>(null);

  useEffect(() => {
    let cancelled = false;
    setState('checking');
    const request = fetchLiveProduct(product.id);
    liveRequest.current = request;
    request.then(
      (row) => {
        if (cancelled) return;
        setLive(row);
        setState(row && row.available ? 'live' : 'gone');
      },
      () => {
        // Offline or backend down: keep selling from the prebuilt data.
        if (!cancelled) setState('stale');
      },
    );
    return () => {
      cancelled = true;
    };
  }, [product.id]);

  const price = live?.price ?? product.price;
  const originalPrice = live ? live.original_price : product.original_price;
  const stock = state === 'gone' ? 0 : live ? live.stock : product.stock;
  const preorder = live?.preorder ?? product.preorder;
  const soldOut = isSoldOut({ stock });
  const percent = discountPercent({ price, original_price: originalPrice });

  useEffect(() => {
    setQuantity((current) => clampQuantity(current, stock));
  }, [stock]);

  const change = (next: number) => {
    setNote(next > (stock ?? Infinity) ? PRODUCT_MESSAGES.maxStock : '');
    setQuantity(clampQuantity(next, stock));
  };

  const add = async () => {
    // A click replayed right after hydration may beat the live check; wait briefly for it.
    let current = live;
    if (state === 'checking' && liveRequest.current) {
      current = await Promise.race([
        liveRequest.current.catch(() => null),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 1500)),
      ]);
    }
    const finalStock = current ? current.stock : stock;
    if (isSoldOut({ stock: finalStock }) || (current && !current.available)) return;
    addToCart(
      {
        id: product.id,
        name: product.name,
        price: current?.price ?? price,
        stock: finalStock,
        image: product.image,
        images: product.images,
      },
      clampQuantity(quantity, finalStock),
    );
    showAddedToCart(product.name);
  };

  return (
    <div className="buy-box" aria-busy={state === 'checking'}>
      <div className="buy-price">
        <p className="price-now">
          <span className="visually-hidden">Precio: </span>
          {formatMXN(price)}
        </p>
        {percent !== null && originalPrice !== null && (
          <>
            <p className="price-was">
              <span className="visually-hidden">Precio original: </span>
              <s>{formatMXN(originalPrice)}</s>
            </p>
            <span className="badge badge-danger">-{percent}%</span>
          </>
        )}
        {preorder && !soldOut && <span className="badge badge-info">{PRODUCT_MESSAGES.preorder}</span>}
      </div>

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
        <div className="qty" role="group" aria-label="Cantidad">
          <button
            type="button"
            className="qty-btn"
            aria-label="Disminuir cantidad"
            disabled={soldOut || quantity <= 1}
            onClick={() => change(quantity - 1)}
          >
            −
          </button>
          <input
            className="qty-input"
            type="number"
            inputMode="numeric"
            aria-label="Cantidad"
            min={1}
            max={stock ?? undefined}
            value={quantity}
            disabled={soldOut}
            onChange={(event) => change(Number(event.currentTarget.value))}
          />
          <button
            type="button"
            className="qty-btn"
            aria-label="Aumentar cantidad"
            disabled={soldOut || !canIncrease(quantity, stock)}
            onClick={() => change(quantity + 1)}
          >
            +
          </button>
        </div>
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
