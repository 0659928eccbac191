/** The cart and its summary: the cart table, coupons as the cart shows them, quantity limits. */

/**
 * A product's stock and the cart as every page that sells it says them: the product cards, the
 * buy box, the toast and the cart (src/domain/cart-rules.ts).
 */
export const PRODUCT_MESSAGES = {
  soldOut: 'Agotado',
  soldOutDetail: 'Producto agotado',
  preorder: 'Preventa',
  maxStock: 'Máximo disponible en stock.',
  addedToCart: 'Agregado al carrito',
  viewCart: 'Ver carrito',
  notFound: 'Producto no encontrado',
  unavailableLine: 'Producto no disponible',
} as const;

/** What the coupon form answers (src/domain/pricing.ts applyCoupon, the cart summary). */
export const COUPON_MESSAGES = {
  percent: '🎉 Cupón aplicado: 10% de descuento.',
  shipping: '🚚 Envío gratis aplicado.',
  invalid: '⚠️ Cupón no válido.',
} as const;

/**
 * Why a cart line left or changed when the cart met the live catalogue; `title` is the line as
 * «name» or «name, offer» (src/domain/cart-reconcile.ts).
 */
export const CART_RECONCILE_TEXT = {
  unavailable: (title: string) => `${title} ya no está disponible y se quitó de tu carrito.`,
  soldByOffer: (title: string) => `${title} ahora se vende por condición, idioma y acabado: elige uno en su página.`,
  soldOut: (title: string) => `${title} se agotó y se quitó de tu carrito.`,
  offerGone: (title: string) => `${title} ya no está a la venta y se quitó de tu carrito.`,
  /** 'El precio de «X» cambió de $1.00 a $2.00.' */
  priceChanged: (title: string, before: string, after: string) => `El precio de ${title} cambió de ${before} a ${after}.`,
  quantityClamped: (stock: number | null, title: string) => `Solo quedan ${stock} unidad(es) de ${title}; ajustamos la cantidad.`,
} as const;

/** The cart summary, step 1 of the checkout (src/islands/cart/CartSummary.tsx). */
export const CART_SUMMARY_TEXT = {
  title: 'Resumen de tu carrito',
  loading: 'Cargando tu carrito…',
  continueShopping: 'Seguir comprando',
  linesCaption: 'Productos en tu carrito',
  image: 'Imagen',
  product: 'Producto',
  price: 'Precio',
  stock: 'Stock',
  quantity: 'Cantidad',
  amount: 'Importe',
  actions: 'Acciones',
  taxNote: 'Los impuestos, si aplican, se calcularán más adelante.',
  signIn: 'Iniciar sesión',
  creating: 'Creando tu pedido…',
  continue: 'Continuar con el envío',
  noticesIntro: 'Actualizamos tu carrito con los datos más recientes:',
} as const;

/** One line of the cart summary: its stock, quantity buttons and 'Eliminar' (src/islands/cart/CartSummary.tsx). */
export const CART_LINE_TEXT = {
  price: 'Precio',
  stock: 'Stock',
  amount: 'Importe',
  /** The stock of a product that does not count it. */
  available: 'Disponible',
  quantityOf: (name: string) => `Cantidad de ${name}`,
  removeOne: (name: string) => `Quitar uno de ${name}`,
  addOne: (name: string) => `Agregar uno de ${name}`,
  remove: 'Eliminar',
  removeLine: (name: string) => `Eliminar ${name}`,
} as const;

/** The cart's coupon form (src/islands/cart/CartSummary.tsx). */
export const CART_COUPON_TEXT = {
  title: 'Cupón de descuento',
  placeholder: 'Escribe tu cupón',
  apply: 'Aplicar',
  remove: 'Quitar cupón',
} as const;

/** The cart's amounts and the free-shipping progress (src/islands/cart/CartSummary.tsx). */
export const CART_TOTALS_TEXT = {
  subtotal: 'Subtotal',
  discount: 'Descuento',
  shipping: 'Envío',
  free: 'Gratis',
  total: 'Total',
  freeShipping: '¡Tu pedido tiene envío gratis!',
  /** 'Te faltan $200.00 para obtener envío gratis.' */
  toFreeShipping: (remaining: string) => `Te faltan ${remaining} para obtener envío gratis.`,
} as const;
