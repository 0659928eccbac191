/** Shop identity shown in the header, footer, page titles and Open Graph tags. */
export const BRAND = {
  name: 'Cartas Mx',
  tagline: 'Tu tienda de cartas coleccionables en México',
  description:
    'Sobres, cajas de booster, Elite Trainer Box y preventas de Pokémon, One Piece y Riftbound con envío a todo México.',
} as const;

/** Route of a franchise's product-type picker. */
export function franchiseHref(franchiseId: string): string {
  return `/franchise/${franchiseId}/product-types`;
}
