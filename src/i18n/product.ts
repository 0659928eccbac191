/** The product page's buy box, offers and singles, and the product's own texts (SEO, brand, images). */

/** The shop's tagline and description, beside its name (src/domain/brand.ts): header, footer, page titles, Open Graph. */
export const PRODUCT_BRAND_TEXT = {
  tagline: 'Tu tienda de cartas coleccionables en México',
  description: 'Sobres, cajas de booster, Elite Trainer Box y preventas de Pokémon, One Piece y Riftbound con envío a todo México.',
} as const;

/** A product row that does not parse (src/domain/product-schema.ts). */
export const PRODUCT_SCHEMA_TEXT = {
  invalidPrice: 'Precio no válido.',
} as const;

/** A product page's meta description (src/domain/product-seo.ts); `price` already formatted. */
export const PRODUCT_SEO_TEXT = {
  /** What a product without a description says of itself. */
  buyOnline: (name: string) => `Compra ${name} en línea.`,
  /** 'Name por $price. Description' (cut near 155 characters after). */
  metaDescription: (name: string, price: string, description: string) => `${name} por ${price}. ${description}`,
} as const;

/** A card's condition: its Spanish name, with the code shops use everywhere (src/domain/singles.ts). */
export const PRODUCT_CONDITION_TEXT = {
  NM: 'Casi nueva (NM)',
  LP: 'Poco jugada (LP)',
  MP: 'Jugada (MP)',
  HP: 'Muy jugada (HP)',
  DMG: 'Dañada (DMG)',
} as const;

/** The Spanish name of every language code the shop stores (src/domain/singles.ts). */
export const PRODUCT_LANGUAGE_TEXT = {
  es: 'Español',
  en: 'Inglés',
  ja: 'Japonés',
  fr: 'Francés',
  de: 'Alemán',
  it: 'Italiano',
  pt: 'Portugués',
  ko: 'Coreano',
  zh: 'Chino',
} as const;

/** The name of every finish code the shop stores (src/domain/singles.ts). */
export const PRODUCT_FINISH_TEXT = {
  normal: 'Normal',
  holo: 'Holo',
  'reverse-holo': 'Reverse holo',
  parallel: 'Parallel',
  manga: 'Manga',
  foil: 'Foil',
} as const;

/**
 * The name of each rarity code, per franchise, as the game prints it (src/domain/singles.ts):
 * Pokémon with the names of its Spanish cards, One Piece with the printed letters and their English
 * names, Riftbound with its English names.
 */
export const PRODUCT_RARITY_TEXT = {
  pokemon: {
    common: 'Común',
    uncommon: 'Poco común',
    rare: 'Rara',
    'holo-rare': 'Rara holo',
    'double-rare': 'Doble rara',
    'ultra-rare': 'Ultra rara',
    'illustration-rare': 'Ilustración rara',
    'special-illustration-rare': 'Ilustración rara especial',
    'hyper-rare': 'Hiper rara',
    'ace-spec': 'ACE SPEC',
  },
  'one-piece': {
    C: 'C · Common',
    UC: 'UC · Uncommon',
    R: 'R · Rare',
    SR: 'SR · Super Rare',
    SEC: 'SEC · Secret Rare',
    L: 'L · Leader',
    SP: 'SP · Special',
    TR: 'TR · Treasure Rare',
  },
  riftbound: {
    common: 'Common',
    uncommon: 'Uncommon',
    rare: 'Rare',
    epic: 'Epic',
    showcase: 'Showcase',
  },
} as const;

/** The buy box of a product page, sealed or single (src/islands/product/BuyBox.tsx, buy-box.ts, OfferPicker.tsx). */
export const PRODUCT_BUY_BOX_TEXT = {
  add: 'Agregar al carrito',
  /** Read before the price (the space is part of it). */
  price: 'Precio: ',
  /** Read before the struck-out price (the space is part of it). */
  originalPrice: 'Precio original: ',
  quantity: 'Cantidad',
  decrease: 'Disminuir cantidad',
  increase: 'Aumentar cantidad',
  /** The stock line when the stock is not counted. */
  available: 'Disponible',
  /** 'Disponibles: n'. */
  availableCount: (stock: number) => `Disponibles: ${stock}`,
} as const;

/** The product page's images and their full-screen viewer (src/islands/product/Gallery.tsx). */
export const PRODUCT_GALLERY_TEXT = {
  noImage: 'Sin imagen',
  open: (image: number, count: number) => `Ver imagen ${image} de ${count} en pantalla completa`,
  thumbnails: 'Miniaturas',
  show: (image: number, count: number) => `Mostrar imagen ${image} de ${count}`,
  viewer: (name: string) => `Galería de ${name}`,
  counter: (image: number, count: number) => `Imagen ${image} de ${count}`,
  alt: (name: string, image: number, count: number) => `${name}, imagen ${image} de ${count}`,
  previous: 'Imagen anterior',
  next: 'Imagen siguiente',
  close: 'Cerrar galería',
} as const;

/** A single card's offers to choose from (src/islands/product/OfferPicker.tsx). */
export const PRODUCT_OFFER_PICKER_TEXT = {
  gone: 'Esta opción ya no está disponible. Elige otra.',
  guide: 'Guía de condiciones',
  /** Read before the chosen offer's name (the space is part of it). */
  chosen: 'Opción elegida: ',
  rawHeading: 'Condición, idioma y acabado',
  slabHeading: 'Cartas graduadas',
  certificate: (certificate: string) => `Certificado ${certificate}`,
  verify: (company: string) => `Verificar en ${company}`,
  /** Read after 'Verificar en PSA' (the leading space is part of it). */
  verifyHint: (certificate: string) => ` el certificado ${certificate} (se abre en una pestaña nueva)`,
  /** A slab's photo: 'Name PSA 10, foto 1 de 3'. */
  photoAlt: (name: string, grade: string, photo: number, count: number) => `${name} ${grade}, foto ${photo} de ${count}`,
} as const;
