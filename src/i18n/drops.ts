/** Timed drops: the product page's countdown, the cards, the back office's drop time and schedule, checkout's refusal. */

/** When and how long: `parts` from src/domain/drops.ts (es-MX, Mexico City time). */
interface DropWhen {
  weekday: string;
  day: string;
  month: string;
  time: string;
}

/** The product page's notice above the buy box (src/components/catalog/DropCountdown.astro, src/scripts/drops.ts). */
export const DROP_PRODUCT_TEXT = {
  /** 'A la venta el viernes 11 de diciembre a las 10:00'. */
  onSaleAt: ({ weekday, day, month, time }: DropWhen) => `A la venta el ${weekday} ${day} de ${month} a las ${time}`,
  timeZone: 'Hora del centro de México.',
  /** 'Faltan 2 días 03:04:05', 'Falta 1 día 00:00:09', 'Faltan 03:04:05'; the clock already two-digit. */
  countdown: (days: number, clock: string) => (days === 0 ? `Faltan ${clock}` : days === 1 ? `Falta 1 día ${clock}` : `Faltan ${days} días ${clock}`),
  countdownLabel: 'Tiempo para que salga a la venta',
  onSaleNow: '¡Ya está a la venta!',
} as const;

/** A product card of a drop not yet on sale (src/components/catalog/ProductCard.astro). */
export const DROP_CARD_TEXT = {
  soon: 'Próximamente',
  /** The held button's name: 'Caja X: a la venta el viernes 11 de diciembre a las 10:00'. */
  soonLabel: (name: string, when: DropWhen) => `${name}: ${DROP_PRODUCT_TEXT.onSaleAt(when)}`,
} as const;

/** The back office's drop time field (src/islands/admin/ProductForm.tsx, ProductEditDialog.tsx). */
export const DROP_ADMIN_FIELD_TEXT = {
  onSaleAt: 'A la venta desde',
  hint: 'Fecha y hora del centro de México. Vacío: a la venta ya.',
  invalid: 'Escribe una fecha y hora válidas, o deja el campo vacío.',
} as const;

/** The back office's drop schedule (src/islands/admin/DropsSection.tsx). */
export const DROP_SCHEDULE_TEXT = {
  title: 'Lanzamientos',
  pageTitle: 'Lanzamientos · Administrar tienda',
  intro: 'Productos con hora de venta próxima (hora del centro de México), del más cercano al más lejano.',
  loading: 'Cargando lanzamientos',
  loadFailed: 'No se pudieron cargar los lanzamientos.',
  retry: 'Reintentar',
  empty: 'No hay lanzamientos programados.',
  tableLabel: 'Lanzamientos programados',
  product: 'Producto',
  when: 'A la venta',
  stock: 'Stock',
  limit: 'Límite por cliente y domicilio',
  available: 'Visible',
  yes: 'Sí',
  no: 'No',
} as const;

/** What checkout says when the database refuses a drop's address (src/data/checkout.ts). */
export const DROP_CHECKOUT_TEXT = {
  addressLimit:
    'Ya se alcanzó el límite de este lanzamiento para esta dirección de envío: otra cuenta ya compró las unidades permitidas para ese domicilio. Elige otra dirección o quita el producto del carrito.',
} as const;
