/**
 * The texts of the scripts every storefront page loads (the header's cart badge, the live stock of
 * cards and product pages): the shared browser file `tienda` (src/integrations/storefront-chunk.ts)
 * carries every text of each module those scripts import, so theirs live here, apart from
 * catalog.ts, whose texts other pages' scripts and islands use.
 */

/** The header's cart link as screen readers read it (src/scripts/cart-count.ts, a browser script; Header.astro). */
export const CATALOG_CART_COUNT_TEXT = {
  empty: 'Carrito',
  one: 'Carrito, 1 artículo',
  many: (count: number) => `Carrito, ${count} artículos`,
} as const;

/** The live stock's corrections of a product card (src/scripts/live-stock.ts, a browser script). */
export const CATALOG_LIVE_STOCK_TEXT = {
  soldOut: 'Agotado',
  add: 'Agregar',
} as const;
