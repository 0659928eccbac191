/**
 * The hearts' texts (src/scripts/favorite-hearts.ts): the product page's heart, each product
 * card's and each offer's, and the header's heart with its count. A module of its own because the
 * header's script, on every page, carries it: the Favoritos tab's texts stay in ./account.ts.
 */

/** The hearts that keep a product or an offer in favorites; a heart's name says what a tap does. */
export const PRODUCT_FAVORITE_TEXT = {
  add: 'Agregar a favoritos',
  remove: 'Quitar de favoritos',
  /** A card's or an offer's heart, named for what it keeps ('Guardar', so no card has a second 'Agregar' beside its cart button). */
  addLabel: (name: string) => `Guardar ${name} en favoritos`,
  removeLabel: (name: string) => `Quitar ${name} de favoritos`,
  /** Tapped while signed out: the favorite is saved after signing in. */
  signIn: 'Inicia sesión para guardar tus favoritos.',
  failed: 'No se pudo actualizar tus favoritos. Intenta de nuevo.',
} as const;

/** The header's heart, named with the number of favorites. */
export const HEADER_FAVORITES_TEXT = {
  none: 'Favoritos',
  /** e.g. 'Favoritos (3)'. */
  count: (count: number) => `Favoritos (${count})`,
} as const;
