/**
 * The product rules the cart, the product cards and the buy box need (stock and quantity limits;
 * their texts are PRODUCT_MESSAGES in src/i18n/cart.ts), in a module of their own with no catalogue
 * data: these load on every page, before any interaction. ./products.ts re-exports them with the
 * rest of the product rules.
 */

/** What the stock rules need of a product. */
export interface StockInfo {
  stock?: number | null;
}

/** Whether a product is sold out (stock 0; an untracked stock is never sold out). */
export function isSoldOut(product: StockInfo): boolean {
  return typeof product.stock === 'number' && product.stock <= 0;
}

/** Whether the 'Preventa' badge shows: a preorder product that is in stock. */
export function showPreorderBadge(product: StockInfo & { preorder?: boolean | null }): boolean {
  return product.preorder === true && !isSoldOut(product);
}

/** Allowed quantity range for a product: at least 1, at most its stock when stock is a number. */
export function quantityBounds(stock: number | null | undefined): { min: number; max: number | null } {
  return { min: 1, max: typeof stock === 'number' && Number.isFinite(stock) ? Math.max(1, Math.floor(stock)) : null };
}

/** A quantity forced into the allowed range (whole, ≥ 1, ≤ stock when known); junk becomes 1. */
export function clampQuantity(quantity: number, stock: number | null | undefined): number {
  const { min, max } = quantityBounds(stock);
  const whole = Number.isFinite(quantity) ? Math.floor(quantity) : min;
  const bounded = Math.max(min, whole);
  return max === null ? bounded : Math.min(max, bounded);
}

/** Whether the '+' button may add one more ('Máximo disponible en stock.' otherwise). */
export function canIncrease(quantity: number, stock: number | null | undefined): boolean {
  const { max } = quantityBounds(stock);
  return !isSoldOut({ stock }) && (max === null || quantity < max);
}
