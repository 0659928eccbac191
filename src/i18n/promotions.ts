/** Promotions: the coupon form's answers in the cart, a line's discount, and the back office's 'Promociones'. */

/** The cart's coupon form once the database accepted a code (src/islands/cart/CartSummary.tsx). */
export const PROMOTION_COUPON_TEXT = {
  /** '🎉 Cupón aplicado: 15% de descuento.' */
  appliedPercent: (percent: number) => `🎉 Cupón aplicado: ${percent}% de descuento.`,
  /** '🎉 Cupón aplicado: $200.00 de descuento.' */
  appliedFixed: (amount: string) => `🎉 Cupón aplicado: ${amount} de descuento.`,
  checking: 'Revisando el cupón…',
  checkFailed: 'No pudimos revisar el cupón. Revisa tu conexión e intenta de nuevo.',
  /** Under a line the coupon discounts: 'Cupón BUENFIN15: −$284.85'. */
  lineDiscount: (code: string, amount: string) => `Cupón ${code}: −${amount}`,
} as const;
