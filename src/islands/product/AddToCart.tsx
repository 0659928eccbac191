/**
 * Price, stock, quantity and the add-to-cart button of the product page. The page is prebuilt, so
 * on hydration the island asks Supabase for the live price and stock and shows those: a stale page
 * never sells what is gone.
 */
import { useState } from 'react';
import { fetchLiveProduct } from '~/data/products.ts';
import type { Centavos } from '~/domain/money.ts';
import { clampQuantity, discountPercent, isSoldOut } from '~/domain/products.ts';
import { PRODUCT_MESSAGES } from '~/i18n/cart.ts';
import { addToCart } from '~/stores/cart.ts';
import { showAddOutcome } from '~/stores/toast.ts';
import { useLiveRead } from './use-live-read.ts';
import { useQuantityField } from './use-quantity-field.ts';
import { BuyBox } from './BuyBox.tsx';
import { settleWithin } from './buy-box.ts';

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
  /** A timed drop's instant (ISO); null: on sale now. */
  onSaleAt?: string | null;
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

  const field = useQuantityField(stock, setNote);

  const add = async () => {
    // A click replayed right after hydration may beat the live check; wait briefly for it.
    const current = state === 'checking' && liveRequest.current ? ((await settleWithin(liveRequest.current)) ?? null) : live;
    const finalStock = current ? current.stock : stock;
    if (isSoldOut({ stock: finalStock }) || (current && !current.available)) return;
    const wanted = clampQuantity(field.quantity, finalStock);
    field.commit();
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
    <BuyBox
      checking={state === 'checking'}
      price={{ priceCentavos, originalPriceCentavos, percent, preorder }}
      stock={stock}
      soldOut={soldOut}
      soldOutText={PRODUCT_MESSAGES.soldOutDetail}
      field={field}
      onAdd={() => void add()}
      note={note}
      onSaleAt={live ? live.onSaleAt : product.onSaleAt}
    />
  );
}
