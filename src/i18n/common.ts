/** Texts several features share: retrying, the pager, an order's lines. */

/** The buttons and states every screen uses the same way. */
export const COMMON_TEXT = {
  retry: 'Reintentar',
} as const;

/** The one pager under a paged list (src/islands/ui/Pager.tsx, src/domain/pager.ts). */
export const PAGER_TEXT = {
  previous: 'Anteriores',
  next: 'Siguientes',
  /** 'Página x de y'. */
  page: (page: number, pages: number) => `Página ${page} de ${pages}`,
} as const;

/** A line of an order or of the cart, wherever it is listed. */
export const ORDER_LINE_TEXT = {
  /** 'Cantidad: n'. */
  quantity: (quantity: number) => `Cantidad: ${quantity}`,
} as const;
