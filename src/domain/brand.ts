/**
 * The shop's identity, in one place: the header, footer, page titles and Open Graph tags, the
 * screens that name the shop, the server's pages and e-mails and the local stack's auth e-mails
 * all read it here.
 */
export const BRAND = {
  name: 'Cartas Mx',
  tagline: 'Tu tienda de cartas coleccionables en México',
  description: 'Sobres, cajas de booster, Elite Trainer Box y preventas de Pokémon, One Piece y Riftbound con envío a todo México.',
} as const;
