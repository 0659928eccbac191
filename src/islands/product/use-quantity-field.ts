/** The buy box's quantity field, shared by the buy box of a sealed product and of a single card. */
import { useEffect, useRef, useState } from 'react';
import { clampQuantity } from '~/domain/products.ts';
import { PRODUCT_MESSAGES } from '~/i18n/cart.ts';
import { usePrebuiltInput } from '../prebuilt.ts';

/**
 * The quantity field: its text is free while the shopper edits it; the number it stands for is
 * clamped to 1…stock on blur, Enter, the +/- buttons and the add, and follows the stock (null: not
 * tracked) as it changes, unless the shopper is editing it. A quantity typed before hydration stays (src/islands/prebuilt.ts).
 */
export function useQuantityField(stock: number | null, setNote: (note: string) => void) {
  const [text, setText] = useState('1');
  const inputRef = useRef<HTMLInputElement>(null);
  usePrebuiltInput(inputRef, text, setText);
  const typed = Number.parseInt(text, 10);
  const quantity = clampQuantity(Number.isFinite(typed) ? typed : 1, stock);
  useEffect(() => {
    if (document.activeElement === inputRef.current) return;
    setText((current) => {
      const n = Number.parseInt(current, 10);
      const clamped = clampQuantity(Number.isFinite(n) ? n : 1, stock);
      return Number.isFinite(n) && n === clamped ? current : String(clamped);
    });
  }, [stock]);
  const change = (next: number) => {
    setNote(next > (stock ?? Infinity) ? PRODUCT_MESSAGES.maxStock : '');
    setText(String(clampQuantity(next, stock)));
  };
  return {
    inputRef,
    text,
    quantity,
    change,
    commit: () => change(Number.isFinite(typed) ? typed : 1),
    type: (value: string) => {
      setNote('');
      setText(value);
    },
  };
}
