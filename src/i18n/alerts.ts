/**
 * Restock alerts ('Avísame cuando llegue'), price-drop alerts on favorites, the account's
 * Configuración tab, the alert e-mails, the page their cancel link opens and the back office's
 * demand view.
 */

/** The buy box's button on a sold-out product or offer (src/islands/product/RestockAlertButton.tsx). */
export const RESTOCK_ALERT_BUTTON_TEXT = {
  ask: 'Avísame cuando llegue',
  asked: 'Te avisaremos cuando llegue',
  cancel: 'Ya no avisarme',
  hint: 'Te enviaremos un correo cada vez que vuelva a haber existencias, hasta que canceles el aviso.',
  signIn: 'Inicia sesión para que te avisemos cuando llegue.',
  added: 'Listo: te avisaremos por correo cuando llegue.',
  cancelled: 'Ya no te avisaremos de este producto.',
  inStock: 'Ya hay existencias: agrégalo al carrito.',
  failed: 'No pudimos guardar tu aviso. Intenta de nuevo.',
  offerGone: 'Esa opción ya no está a la venta.',
} as const;

/** The account's Configuración tab (src/islands/account/SettingsPanel.tsx). */
export const ACCOUNT_SETTINGS_TEXT = {
  title: 'Configuración',
  emailsHeading: 'Correos que quieres recibir',
  restock: 'Avisos de existencias ("Avísame cuando llegue")',
  price: 'Avisos de bajas de precio en tus favoritos',
  newsletter: 'Boletín de novedades y promociones',
  preorders: 'Correos sobre tus preventas',
  saved: 'Guardamos tu configuración.',
  saveFailed: 'No pudimos guardar tu configuración. Intenta de nuevo.',
  loadFailed: 'No pudimos cargar tu configuración.',
  loading: 'Cargando configuración…',
  alertsHeading: 'Tus avisos de existencias',
  noAlerts: 'No tienes avisos pendientes. En un producto agotado, toca "Avísame cuando llegue".',
  since: (date: string) => `Desde el ${date}`,
  cancel: 'Cancelar aviso',
  cancelLabel: (name: string) => `Cancelar aviso de ${name}`,
  cancelled: 'Cancelamos tu aviso.',
  cancelFailed: 'No pudimos cancelar tu aviso. Intenta de nuevo.',
} as const;

/** The Favoritos tab's price-alert switch (src/islands/account/FavoritesPanel.tsx). */
export const FAVORITE_PRICE_ALERT_TEXT = {
  label: 'Avísame si baja de precio',
  on: 'Te avisaremos si baja de precio.',
  off: 'Ya no te avisaremos de bajas de precio.',
  failed: 'No pudimos guardar el aviso de precio. Intenta de nuevo.',
} as const;

/** The e-mail of a restock alert (src/server/mail/templates/restock-alert.ts). */
export const MAIL_RESTOCK_ALERT_TEXT = {
  subject: (name: string) => `Ya llegó: ${name}`,
  heading: 'Ya hay existencias',
  back: (name: string) => `${name} volvió a estar disponible en la tienda.`,
  units: (units: number) => (units === 1 ? 'Llegó 1 pieza y se agota rápido.' : `Llegaron ${units} piezas y se agotan rápido.`),
  fewer: 'Avisamos a más personas que piezas llegaron: compra pronto para asegurar la tuya.',
  buy: 'Ver producto',
  buyLine: (link: string) => `Ver producto: ${link}`,
  cancelLine: (link: string) => `¿Ya no quieres avisos de este producto? ${link}`,
  cancel: 'Cancelar este aviso',
  untilCancelled: 'Te avisaremos cada vez que vuelva a llegar, hasta que canceles este aviso.',
} as const;

/** The e-mail of a price drop on a favorite (src/server/mail/templates/price-drop.ts). */
export const MAIL_PRICE_DROP_TEXT = {
  subject: (name: string) => `Bajó de precio: ${name}`,
  heading: 'Bajó de precio',
  dropped: (name: string, before: string, now: string) => `${name}, que tienes en favoritos, bajó de ${before} a ${now}.`,
  buy: 'Ver producto',
  buyLine: (link: string) => `Ver producto: ${link}`,
  settingsLine: (link: string) => `Puedes dejar de recibir estos avisos en tu cuenta, en Favoritos o en Configuración: ${link}`,
  settings: 'Cambiar mis avisos',
  cancelLine: (link: string) => `¿Ya no quieres avisos de precio de este producto? ${link}`,
  cancel: 'Cancelar este aviso',
} as const;

/** The page the cancel link of a restock e-mail opens (src/pages/avisos/cancelar.astro). */
export const ALERT_CANCEL_PAGE_TEXT = {
  title: 'Cancelar aviso',
  heading: 'Cancelar tu aviso de existencias',
  about: (name: string) => `Aviso de existencias de: ${name}`,
  /** The same for a favorite's 'Avísame si baja de precio'. */
  priceHeading: 'Cancelar tu aviso de baja de precio',
  priceAbout: (name: string) => `Aviso de baja de precio de: ${name}`,
  confirm: 'Ya no quiero este aviso',
  cancelling: 'Cancelando…',
  done: 'Listo: cancelamos tu aviso. No te enviaremos más correos de este producto.',
  already: 'Este aviso ya estaba cancelado; no te enviaremos más correos de él.',
  unknown: 'Este enlace no es válido o el aviso ya no existe.',
  failed: 'No pudimos cancelar tu aviso. Intenta de nuevo.',
  toShop: 'Volver a la tienda',
} as const;

/** POST /api/avisos/cancelar's answers (src/server/alerts/cancel.ts). */
export const ALERT_CANCEL_API_TEXT = {
  badToken: 'El enlace para cancelar el aviso no es válido.',
  unknown: 'Este enlace no es válido o el aviso ya no existe.',
  failed: 'No pudimos cancelar el aviso. Intenta de nuevo en unos minutos.',
} as const;

/** The back office's demand view (src/islands/admin/DemandSection.tsx). */
export const ADMIN_DEMAND_TEXT = {
  pageTitle: 'Demanda de productos agotados',
  heading: 'Demanda',
  intro: 'Cuántas personas esperan cada producto o cada opción de una carta, de la más pedida a la menos.',
  product: 'Producto',
  offer: 'Opción',
  wholeProduct: 'Cualquiera',
  waiting: 'Personas esperando',
  since: 'Esperando desde',
  stock: 'Existencias',
  hidden: 'Oculto',
  empty: 'Nadie espera productos agotados por ahora.',
  loading: 'Cargando demanda…',
  failed: 'No pudimos cargar la demanda.',
  retry: 'Reintentar',
  nav: 'Demanda',
} as const;
