import { describe, expect, it } from 'vitest';
import { canIncrease, clampQuantity, isSoldOut, quantityBounds, showPreorderBadge } from '~/domain/cart-rules.ts';
import { PRODUCT_MESSAGES } from '~/i18n/cart.ts';
import * as products from '~/domain/products.ts';

describe('badges', () => {
  it('is sold out only at stock 0', () => {
    expect(isSoldOut({ stock: 0 })).toBe(true);
    expect(isSoldOut({ stock: 1 })).toBe(false);
    expect(isSoldOut({ stock: null })).toBe(false);
  });

  it("shows 'Preventa' only for preorder products in stock", () => {
    expect(showPreorderBadge({ preorder: true, stock: 3 })).toBe(true);
    expect(showPreorderBadge({ preorder: true, stock: 0 })).toBe(false);
    expect(showPreorderBadge({ preorder: false, stock: 3 })).toBe(false);
  });
});

describe('quantity', () => {
  it('is bounded by 1 and by the stock when known', () => {
    expect(quantityBounds(5)).toEqual({ min: 1, max: 5 });
    expect(quantityBounds(null)).toEqual({ min: 1, max: null });
    expect(clampQuantity(0, 5)).toBe(1);
    expect(clampQuantity(7, 5)).toBe(5);
    expect(clampQuantity(3.7, 5)).toBe(3);
    expect(clampQuantity(Number.NaN, 5)).toBe(1);
    expect(clampQuantity(40, undefined)).toBe(40);
  });

  it('allows increasing only below the stock', () => {
    expect(canIncrease(4, 5)).toBe(true);
    expect(canIncrease(5, 5)).toBe(false);
    expect(canIncrease(1, 0)).toBe(false);
    expect(canIncrease(99, null)).toBe(true);
  });
});

describe('where the rules are read', () => {
  it('are the same functions through the product rules module', () => {
    expect(products.isSoldOut).toBe(isSoldOut);
    expect(products.clampQuantity).toBe(clampQuantity);
  });

  it("speaks the shop's Spanish messages", () => {
    expect(PRODUCT_MESSAGES.soldOut).toBe('Agotado');
    expect(PRODUCT_MESSAGES.maxStock).toBe('Máximo disponible en stock.');
  });
});
