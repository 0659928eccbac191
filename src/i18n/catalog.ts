/** The catalogue as the shopper browses it: home, listings, product pages, singles, /explore, the header search, sliders. */

/** A product listing page, by expansion or by type (src/components/catalog/ProductListing.astro). */
export const LISTING_TEXT = {
  /** 'Resultados (n) – FRANCHISE': the count grouped by thousands as es-MX writes it (1,234), the franchise's name given in capitals. */
  results: (count: number, franchise: string) => `Resultados (${count.toLocaleString('es-MX')}) – ${franchise}`,
  /** What the listing lists, before its name ('Expansión: Journey Together'). */
  kinds: { expansion: 'Expansión', type: 'Tipo de producto' },
  /** After the title of a page past the first. */
  pageSuffix: (page: number) => ` (página ${page})`,
  /** The page's description; `count` already formatted. */
  description: (name: string, franchise: string, count: string) =>
    `${name} de ${franchise}: ${count} productos con precios en pesos mexicanos y envío a todo México.`,
  filtersLabel: 'Filtrar cartas',
  /** Before the link to the whole listing on /explore. */
  filtersThisPage: 'Los filtros se aplican a esta página.',
  filterAll: (total: number) => `Filtrar las ${total} cartas en Explorar`,
  empty: 'No se encontraron productos.',
  productsOf: (name: string) => `Productos de ${name}`,
  pagesLabel: 'Páginas de resultados',
  page: (page: number) => `Página ${page}`,
} as const;

/** The singles' filters, on a listing page and on /explore (ProductListing.astro, ExploreFilters.astro). */
export const CATALOG_FACETS_TEXT = {
  rarity: 'Rareza',
  condition: 'Condición',
  language: 'Idioma',
  finish: 'Acabado',
  /** The first option of a select with a feminine name ('Rareza', 'Condición', 'Franquicia', 'Expansión'). */
  allFeminine: 'Todas',
  /** The first option of a select with a masculine name ('Idioma', 'Acabado', 'Tipo de producto'). */
  allMasculine: 'Todos',
  gradedOnly: 'Solo graduadas',
  clear: 'Limpiar filtros',
} as const;

/** The status line of a listing page's singles filters (src/islands/catalog/listing-filters.ts, a browser script). */
export const CATALOG_LISTING_FILTERS_TEXT = {
  none: 'Ninguna carta de esta página coincide con los filtros.',
  /** 'Mostrando n de m productos de esta página.'; counts already formatted, `one` when m is 1. */
  shown: (shown: string, total: string, one: boolean) => `Mostrando ${shown} de ${total} ${one ? 'producto' : 'productos'} de esta página.`,
} as const;

/** The expansion picker island of /franchise/{id}/expansions (src/islands/catalog/ExpansionPicker.tsx). */
export const EXPANSION_PICKER_TEXT = {
  searchLabel: 'Buscar expansión',
  searchPlaceholder: 'Buscar expansión...',
  loadFailed: 'No se pudieron cargar las expansiones. Intenta de nuevo.',
  loading: 'Cargando expansiones',
  /** 'Resultados: n'. */
  results: (count: number) => `Resultados: ${count}`,
  empty: 'No hay expansiones que coincidan con tu búsqueda.',
} as const;

/** The page around the expansion picker (src/pages/franchise/[franchiseId]/expansions/index.astro). */
export const CATALOG_EXPANSIONS_PAGE_TEXT = {
  title: (franchise: string) => `Expansiones – ${franchise}`,
  description: (franchise: string) => `Todas las expansiones de ${franchise} con su producto sellado y cartas.`,
  heading: 'Selecciona una expansión',
} as const;

/** The product-type picker of a franchise (src/pages/franchise/[franchiseId]/product-types/index.astro). */
export const CATALOG_TYPE_PICKER_TEXT = {
  title: (franchise: string) => `Tipos de producto – ${franchise}`,
  description: (franchise: string) => `Elige el tipo de producto de ${franchise}: cajas, sobres, mazos y más.`,
  heading: 'Selecciona un tipo de producto',
  /** After the franchise's name: 'Pokémon: 5 tipos de producto. ¿Buscas una expansión?'. */
  intro: (count: number) => `${count} tipos de producto. ¿Buscas una expansión?`,
  seeExpansions: 'Ver expansiones',
  empty: 'No hay productos para mostrar.',
  listLabel: 'Tipos de producto',
  productCount: (count: number) => `${count} productos`,
} as const;

/** The franchise picker, /franquicias (src/pages/franquicias.astro). */
export const CATALOG_FRANCHISE_PICKER_TEXT = {
  title: 'Franquicias',
  description: 'Elige una franquicia: Pokémon, One Piece o Riftbound.',
  heading: 'Selecciona una franquicia',
  listLabel: 'Franquicias',
  productCount: (count: number) => `${count} productos`,
} as const;

/** Breadcrumb trails: the trail's name and the steps every trail shares (Breadcrumbs.astro, HelpLayout.astro, the listing and picker pages, the product page). */
export const CATALOG_BREADCRUMBS_TEXT = {
  label: 'Ruta de navegación',
  home: 'Inicio',
  franchises: 'Franquicias',
  expansions: 'Expansiones',
} as const;

/** A product card in a grid or slider (src/components/catalog/ProductCard.astro). */
export const CATALOG_PRODUCT_CARD_TEXT = {
  /** Before the price of a single sold at several prices (the space is part of it). */
  from: 'Desde ',
  /** Read before the struck-out price (the space is part of it). */
  was: 'Antes ',
  choose: 'Elegir',
  chooseLabel: (name: string) => `Elegir condición e idioma de ${name}`,
  add: 'Agregar',
  addLabel: (name: string) => `Agregar ${name} al carrito`,
} as const;

/** A product page's body (src/components/catalog/ProductDetail.astro). */
export const CATALOG_PRODUCT_DETAIL_TEXT = {
  /** A single's price in the page's description when its copies differ in price; `price` already formatted. */
  priceFrom: (price: string) => `desde ${price}`,
  expansion: 'Expansión',
  collectorNumber: 'Número de colección',
  rarity: 'Rareza',
  nameEnglish: 'Nombre en inglés',
  nameSpanish: 'Nombre en español',
  releaseDate: 'Fecha estimada de lanzamiento',
  rewardPoints: 'Puntos de recompensa',
  /** `points` already formatted. */
  earnPoints: (points: string) => `Gana ${points} puntos con esta compra (1 punto por cada peso).`,
  paymentsHeading: 'Formas de pago',
  card: 'Tarjeta de crédito o débito (Visa, Mastercard, American Express)',
  /** `method` is the method's label, `min` already formatted. */
  installments: (method: string, min: string) => `${method} con tarjeta de crédito, en compras desde ${min}`,
  /** `method` is the method's label, amounts already formatted. */
  oxxo: (method: string, min: string, max: string) => `${method}, en compras de ${min} a ${max}`,
  paymentsNote: 'Pago seguro. Envío gratis en compras desde $2,999.00.',
  descriptionHeading: 'Descripción',
  noDescription: 'Sin descripción por ahora.',
} as const;

/** The page of a product that does not exist or could not be read (src/components/catalog/ProductNotFound.astro, src/pages/product/[...slug].astro). */
export const CATALOG_PRODUCT_NOT_FOUND_TEXT = {
  hint: 'Puede que el enlace esté mal escrito o que el producto ya no se venda.',
  explore: 'Explorar el catálogo',
  loadFailed: 'No se pudo cargar el producto. Intenta de nuevo.',
} as const;

/** /explore's filters form (src/components/catalog/explore/ExploreFilters.astro). */
export const CATALOG_EXPLORE_FILTERS_TEXT = {
  /** The sort options, by their value in the address. */
  sorts: {
    relevancia: 'Relevancia',
    'precio-asc': 'Precio: menor a mayor',
    'precio-desc': 'Precio: mayor a menor',
    nuevos: 'Más nuevos',
    nombre: 'Nombre (A-Z)',
  },
  franchise: 'Franquicia',
  type: 'Tipo de producto',
  expansion: 'Expansión',
  inStockOnly: 'Solo disponibles',
  preorder: 'Preventa',
  sale: 'En oferta',
  /** The price range of the results; amounts already formatted. */
  priceRange: (min: string, max: string) => `De ${min} a ${max}`,
  search: 'Buscar',
  searchPlaceholder: 'Nombre del producto',
  filters: 'Filtros',
  /** The filters button with how many filters are chosen. */
  filtersActive: (count: number) => `Filtros (${count})`,
  price: 'Precio (MXN)',
  minimum: 'Mínimo',
  maximum: 'Máximo',
  sortBy: 'Ordenar por',
  availability: 'Disponibilidad',
  showResults: 'Ver resultados',
} as const;

/** /explore's results (src/components/catalog/explore/ExploreResults.astro). */
export const CATALOG_EXPLORE_RESULTS_TEXT = {
  heading: 'Resultados',
  empty: 'No se encontraron productos.',
  listLabel: 'Productos',
  more: 'Ver más',
} as const;

/** The /explore page around its filters and results (src/pages/explore.astro). */
export const CATALOG_EXPLORE_PAGE_TEXT = {
  title: 'Explorar el catálogo',
  description:
    'Todo el catálogo de Pokémon, One Piece y Riftbound: busca y filtra por franquicia, expansión, tipo, rareza, condición, idioma, acabado, precio, disponibilidad, preventa y ofertas.',
  heading: 'Explorar el catálogo',
  /** Before the link to the franchises; `count` already formatted. */
  intro: (count: string) => `${count} productos. ¿Prefieres ir por franquicia?`,
  franchisesLink: 'Selecciona una franquicia',
  indexHeading: 'Todo el catálogo',
  expansions: 'Expansiones',
  types: 'Tipos de producto',
  /** Read after a type with no product (the space is part of it). */
  noProducts: ' (sin productos)',
} as const;

/** /explore's script: a change of filters whose results could not be read (src/scripts/explore.ts, a browser script). */
export const CATALOG_EXPLORE_SCRIPT_TEXT = {
  loadFailed: 'No se pudieron cargar los resultados. Revisa tu conexión e intenta de nuevo.',
} as const;

/** The home page's hero carousel (src/components/catalog/home/HeroCarousel.astro). */
export const CATALOG_HERO_CAROUSEL_TEXT = {
  label: 'Destacados',
  roleDescription: 'carrusel',
  slideRoleDescription: 'diapositiva',
  /** A slide's name: 'n de m'. */
  slideLabel: (slide: number, slides: number) => `${slide} de ${slides}`,
  explore: 'Explorar catálogo',
} as const;

/** The home page's hero slides, promo tiles and sliders (src/components/catalog/home/HomeSections.astro). */
export const CATALOG_HOME_SECTIONS_TEXT = {
  heroJourneyTogether: {
    eyebrow: 'Nuevo: Journey Together',
    title: 'Las cartas que buscas, con envío a todo México',
    text: 'Producto sellado de Pokémon, One Piece y Riftbound. Preventas, ofertas y las expansiones más recientes con precios en pesos.',
    cta: 'Ver Journey Together',
  },
  heroDestinedRivals: {
    eyebrow: 'Nueva expansión',
    title: 'Destined Rivals ya está aquí',
    text: 'Elite Trainer Box, sobres y displays del Team Rocket con envío a todo México.',
    cta: 'Ver Destined Rivals',
  },
  heroBoosterBox: {
    title: 'Caja de sobres Journey Together',
    text: '36 sobres para abrir con amigos o completar tu colección.',
    cta: 'Comprar Journey Together',
  },
  promoPreorder: {
    eyebrow: 'Preventa',
    title: 'Aparta lo nuevo antes que nadie',
    text: 'Asegura tus cajas y sobres de los próximos lanzamientos.',
  },
  promoSale: {
    eyebrow: 'Ofertas',
    title: 'Descuentos de temporada',
    text: 'Producto sellado con descuento, mientras haya existencias.',
  },
  promoExpansion: {
    eyebrow: 'Expansión',
    text: 'Sobres, mini latas y colecciones de la expansión de parejas.',
  },
  promosHeading: 'Promociones',
  specialOffers: 'Ofertas Especiales',
  newArrivals: 'Novedades',
} as const;

/** A titled row of product cards (src/components/catalog/home/ProductSlider.astro). */
export const CATALOG_PRODUCT_SLIDER_TEXT = {
  seeAll: 'Ver todo',
  /** Read after 'Ver todo' (the space is part of it). */
  seeAllOf: (title: string) => ` de ${title}`,
  previous: (title: string) => `Anteriores de ${title}`,
  next: (title: string) => `Siguientes de ${title}`,
} as const;

/** A promotional tile of the home page (src/components/catalog/home/PromoTile.astro). */
export const CATALOG_PROMO_TILE_TEXT = {
  cta: 'Ver productos',
} as const;

/** The home page's perks and shop-by-franchise cards (src/pages/index.astro). */
export const CATALOG_HOME_PAGE_TEXT = {
  /** Each franchise's card, by franchise id. */
  franchiseBlurbs: {
    pokemon: 'Elite Trainer Box, booster boxes, sobres, colecciones y cartas sueltas.',
    'one-piece': 'Starter decks, booster boxes y promos de torneo del juego pirata.',
    riftbound: 'Sobres y mazos del nuevo juego de fantasía.',
  },
  perksLabel: 'Por qué comprar con nosotros',
  perkShipping: { title: 'Envío gratis', text: 'En compras desde $2,999.00' },
  perkPayment: { title: 'Pago seguro', text: 'Tarjeta, meses sin intereses, OXXO y PayPal' },
  perkOriginal: { title: '100% original', text: 'Producto sellado de distribuidores oficiales' },
  perkPreorder: { title: 'Preventas', text: 'Aparta los lanzamientos que vienen' },
  franchisesHeading: 'Compra por franquicia',
  seeAll: 'Ver todo',
  exploreName: 'Explorar',
  exploreText: 'Descubre todo el catálogo: expansiones, tipos de producto y novedades.',
} as const;

/** What Swiper reads out on the home page's carousels (src/scripts/swiper-enhance.ts, a browser script). */
export const CATALOG_CAROUSEL_SCRIPT_TEXT = {
  heroPrevious: 'Anterior',
  heroNext: 'Siguiente',
  /** Swiper puts the bullet's number for {{index}}. */
  heroBullet: 'Ir a la diapositiva {{index}}',
  sliderPrevious: 'Productos anteriores',
  sliderNext: 'Productos siguientes',
} as const;

/** The help pages' shell (src/components/help/HelpLayout.astro). */
export const CATALOG_HELP_LAYOUT_TEXT = {
  menuHeading: 'Centro de ayuda',
} as const;

/** The site's header (src/components/layout/Header.astro). */
export const CATALOG_HEADER_TEXT = {
  /** The logo's link. */
  home: (shop: string) => `${shop}, ir al inicio`,
  favorites: 'Favoritos',
  account: 'Mi cuenta',
  navLabel: 'Principal',
  explore: 'Explorar',
  preorders: 'Preventas',
  sale: 'Ofertas',
} as const;

/** The site's footer (src/components/layout/Footer.astro). */
export const CATALOG_FOOTER_TEXT = {
  /** After the shop's tagline. */
  tagline: (tagline: string) => `${tagline}. Producto sellado y original, enviado desde México.`,
  catalogHeading: 'Catálogo',
  helpHeading: 'Ayuda',
  /** The help pages' links, by path. */
  help: {
    faq: 'Preguntas frecuentes',
    shipping: 'Envíos',
    returns: 'Devoluciones',
    payments: 'Formas de pago',
    privacy: 'Aviso de privacidad',
    terms: 'Términos y condiciones',
    contact: 'Contacto',
  },
  newsletterHeading: 'Boletín',
  newsletterText: 'Recibe lanzamientos, preventas y ofertas antes que nadie.',
  paymentsLabel: 'Formas de pago aceptadas',
  payments: ['Visa', 'Mastercard', 'American Express', 'Meses sin intereses', 'Efectivo en OXXO', 'PayPal', 'Apple Pay', 'Google Pay'],
  copyright: (year: number, shop: string) => `© ${year} ${shop}. Todos los derechos reservados. Precios en pesos mexicanos (MXN).`,
} as const;

/** Every page's shell (src/layouts/BaseLayout.astro). */
export const CATALOG_BASE_LAYOUT_TEXT = {
  skipLink: 'Saltar al contenido',
} as const;

/** The page of an unknown address (src/pages/404.astro). */
export const CATALOG_NOT_FOUND_PAGE_TEXT = {
  title: 'Página no encontrada',
  text: 'La página que buscas no existe o cambió de lugar. Revisa la dirección o sigue explorando el catálogo.',
  home: 'Ir al inicio',
  explore: 'Explorar catálogo',
} as const;

/** The address form of the account and the checkout (src/islands/ui/AddressForm.tsx). */
export const CATALOG_ADDRESS_FORM_TEXT = {
  label: 'Etiqueta (opcional)',
  street: 'Calle',
  city: 'Ciudad',
  state: 'Estado',
  zip: 'Código Postal',
  makeDefault: 'Usar como dirección predeterminada',
  saving: 'Guardando…',
} as const;

/** The country picker of the address forms (src/islands/ui/Field.tsx). */
export const CATALOG_FIELD_TEXT = {
  country: 'País',
} as const;

/** A form's buttons (src/islands/ui/FormActions.tsx). */
export const CATALOG_FORM_ACTIONS_TEXT = {
  cancel: 'Cancelar',
} as const;

/** A confirmation dialog's way back (src/islands/ui/ConfirmDialog.tsx). */
export const CATALOG_CONFIRM_DIALOG_TEXT = {
  cancel: 'No, volver',
} as const;

/** The toasts' close buttons (src/islands/ui/Toaster.tsx). */
export const CATALOG_TOASTER_TEXT = {
  /** The account and auth screens' notices. */
  closeNotice: 'Cerrar aviso',
  /** The catalogue's toasts. */
  closeToast: 'Cerrar notificación',
} as const;
