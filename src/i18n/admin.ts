/** The back office: its sections, lists, dialogs and forms, and the admin endpoints' answers. */

/** The back office's frame (src/islands/admin/AdminApp.tsx): side navigation and who may enter. */
export const ADMIN_APP_TEXT = {
  summary: 'Resumen',
  orders: 'Pedidos',
  products: 'Productos',
  newsletter: 'Boletín',
  catalog: 'Catálogo',
  redirecting: 'Redirigiendo al inicio de sesión…',
  loading: 'Cargando…',
  forbiddenTitle: 'No tienes acceso',
  forbiddenBody: 'Solo los administradores de la tienda pueden entrar aquí.',
  backToAccount: 'Volver a mi cuenta',
  navLabel: 'Administración',
  navTitle: 'Administrar tienda',
} as const;

/** The back office pages' titles (src/pages/admin/). */
export const ADMIN_PAGE_TITLE_TEXT = {
  summary: 'Resumen · Administrar tienda',
  orders: 'Pedidos · Administrar tienda',
  products: 'Productos · Administrar tienda',
  newsletter: 'Boletín · Administrar tienda',
  catalog: 'Catálogo · Administrar tienda',
  add: 'Registrar nuevo producto',
} as const;

/** 'Catálogo' (src/islands/admin/CatalogSection.tsx): the catalogue's rebuild status and 'Reconstruir ahora'. */
export const ADMIN_CATALOG_TEXT = {
  statusIdle: 'En espera',
  statusBuilding: 'Reconstruyendo',
  statusQueued: 'Reconstruyendo (otra en cola)',
  statusFailed: 'Falló la última',
  phaseStarting: 'iniciando',
  phaseContent: 'leyendo el catálogo',
  phaseBundling: 'empaquetando',
  phasePages: 'escribiendo páginas',
  phasePublishing: 'publicando',
  loadFailed: 'No se pudo leer el estado del catálogo.',
  started: 'Reconstrucción iniciada.',
  startFailed: 'No se pudo iniciar la reconstrucción.',
  title: 'Catálogo',
  intro: 'Las páginas del catálogo se generan a partir de la base de datos. Un cambio de producto las reconstruye solo; aquí puedes verlo y forzarlo.',
  loading: 'Cargando estado…',
  status: 'Estado',
  start: 'Inicio',
  end: 'Fin',
  duration: 'Duración',
  lastSuccess: 'Última reconstrucción correcta',
  lastPages: 'Páginas de la última reconstrucción',
  lastError: 'Último error',
  noError: 'Ninguno',
  pagesWritten: 'Páginas escritas',
  /** 'n de m' pages written. */
  pagesOf: (done: number, total: number) => `${done} de ${total}`,
  rebuildNow: 'Reconstruir ahora',
} as const;

/** 'Boletín' (src/islands/admin/NewsletterSection.tsx): the subscribers, their search and the CSV export. */
export const ADMIN_NEWSLETTER_TEXT = {
  exportFailed: 'No se pudo exportar el CSV. Intenta de nuevo.',
  title: 'Boletín',
  loadFailed: 'No se pudo cargar la lista de suscriptores.',
  loading: 'Cargando suscriptores…',
  /** 'suscriptor' or 'suscriptores', after the count. */
  subscribers: (count: number) => (count === 1 ? 'suscriptor' : 'suscriptores'),
  search: 'Buscar correo',
  exportCsv: 'Exportar CSV',
  none: 'Aún no hay suscriptores.',
  noMatch: 'Ningún correo coincide.',
  /** 'Mostrando n de m'. */
  showing: (shown: number, total: number) => `Mostrando ${shown} de ${total}`,
  /** 'n coinciden'. */
  matching: (count: number) => `${count} coinciden`,
  listLabel: 'Lista de suscriptores',
  email: 'Correo',
  subscribedAt: 'Fecha de suscripción',
  showMore: 'Mostrar más',
} as const;

/** The back office's summary as src/data/admin/summary.ts reads it (a day's sales that is not an amount). */
export const ADMIN_SUMMARY_DATA_TEXT = {
  invalidAmount: 'Importe no válido.',
} as const;

/** The JSON errors and messages of the back office's order endpoints (src/server/admin/orders.ts). */
export const ADMIN_ORDERS_API_TEXT = {
  invalidOrder: 'El pedido no es válido.',
  invalidStatus: 'Estado no válido.',
  chooseCarrier: 'Elige la paquetería.',
  trackingNumber: 'Escribe el número de guía.',
  trackingNumberTooLong: 'Escribe el número de guía (hasta 100 caracteres).',
  noteTooLong: 'La nota no puede pasar de 500 caracteres.',
  orderNotFound: 'Pedido no encontrado.',
  forbidden: 'No tienes acceso',
  invalidRefundWay: 'Forma de reembolso no válida.',
  referenceTooLong: 'La referencia no puede pasar de 100 caracteres.',
  providerRefundFailed: 'El proveedor de pago no hizo el reembolso; queda en «Reembolsos por revisar» y se reintentará.',
  refundInProgress: 'El reembolso ya está en curso.',
} as const;

/** The JSON errors of POST and GET /api/admin/rebuild (src/server/admin/rebuild.ts). */
export const ADMIN_REBUILD_API_TEXT = {
  limitUnavailable: 'No se pudo registrar la petición. Intenta de nuevo.',
  notConfigured: 'Falta SUPABASE_SERVICE_ROLE_KEY en el servidor.',
  adminsOnly: 'Solo un administrador puede reconstruir el catálogo.',
  notAvailable: 'Este servidor no puede reconstruir el catálogo; inícialo con `npm start`.',
  accountCheckFailed: 'No se pudo verificar tu cuenta. Intenta de nuevo.',
  /** 'Ya pediste n reconstrucciones en la última hora; intenta de nuevo en m min.' */
  rateLimited: (limit: number, minutes: number) => `Ya pediste ${limit} reconstrucciones en la última hora; intenta de nuevo en ${minutes} min.`,
  requestFailed: 'No se pudo pedir la reconstrucción del catálogo. Intenta de nuevo.',
  statusFailed: 'No se pudo leer el estado de la reconstrucción. Intenta de nuevo.',
} as const;
