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

/** Publishing a new product from 'Registrar nuevo producto' (src/islands/admin/publish-product.ts, ProductForm.tsx): its steps and outcomes. */
export const ADMIN_PUBLISH_TEXT = {
  upload: 'Subiendo imagen…',
  insert: 'Guardando producto…',
  rebuild: 'Actualizando catálogo…',
  uploadFailed: 'No se pudo subir la imagen.',
  insertFailed: 'No se pudo guardar el producto.',
  printingFailed: 'No se pudieron guardar los datos de la carta; el producto no se publicó.',
  forbidden: 'No tienes acceso',
  rebuildMissing:
    'La actualización automática del catálogo no está disponible; la página del producto ya funciona y aparecerá en los listados en la próxima compilación.',
  rebuildFailed: 'No se pudo iniciar la actualización del catálogo; la página del producto ya funciona.',
  rebuildStarted: 'Actualización del catálogo en curso…',
  rebuildDone: 'Catálogo actualizado: el producto ya aparece en los listados.',
  done: 'Producto publicado',
} as const;

/** Editing a product in 'Productos' (src/islands/admin/product-edit.ts, ImageUpload.tsx): its own rules' messages and the save's outcomes. */
export const ADMIN_PRODUCT_EDIT_TEXT = {
  originalPrice: 'Precio original inválido: usa un número mayor que el precio, con hasta 2 decimales.',
  saved: 'Producto guardado.',
  savedRebuild: 'Producto guardado. El catálogo se está actualizando.',
  savedStock: 'Stock actualizado: ya se ve en la tienda.',
  saveFailed: 'No se pudo guardar el producto.',
  uploadFailed: 'No se pudo subir la imagen.',
  noImages: 'Agrega al menos una imagen del producto.',
  /** 'El inventario cambió mientras editabas: ahora hay 3. Revisa y guarda de nuevo.' */
  stockChanged: (stock: number) => `El inventario cambió mientras editabas: ahora hay ${stock}. Revisa y guarda de nuevo.`,
} as const;

/** Editing a single card's printing and offers (src/islands/admin/single-edit.ts): the fields' messages and the saves' outcomes. */
export const ADMIN_SINGLE_EDIT_TEXT = {
  collectorNumber: 'Escribe el número de colección como aparece en la carta (p. ej. OP05-119), hasta 40 caracteres.',
  setCode: 'El código de la expansión puede tener hasta 40 caracteres.',
  rarity: 'Selecciona la rareza de la carta.',
  cardName: 'El nombre puede tener hasta 200 caracteres.',
  condition: 'Selecciona la condición.',
  language: 'Selecciona el idioma.',
  finish: 'Selecciona el acabado.',
  price: 'El precio debe ser mayor que 0, con hasta 2 decimales.',
  originalPrice: 'El precio original debe ser mayor que el precio, con hasta 2 decimales.',
  stock: 'El stock debe ser un número entero mayor o igual a 0.',
  company: 'Selecciona la empresa que calificó la carta.',
  grade: 'La calificación va de 1 a 10, en pasos de 0.5.',
  certificate: 'Escribe el número de certificado de la calificación (hasta 40 caracteres).',
  duplicateOffer: 'Ya existe una oferta con esa condición, idioma y acabado.',
  duplicateCertificate: 'Ya existe una oferta con ese número de certificado.',
  forbidden: 'No tienes acceso: solo los administradores de la tienda pueden editar cartas.',
  printingSaved: 'Datos de la carta guardados. El catálogo se está actualizando.',
  printingFailed: 'No se pudieron guardar los datos de la carta.',
  offerAdded: 'Oferta agregada. El catálogo se está actualizando.',
  offerSaved: 'Oferta guardada. El catálogo se está actualizando.',
  offerStockSaved: 'Stock actualizado: ya se ve en la tienda.',
  offerUnchanged: 'Oferta guardada.',
  offerRemoved: 'Oferta quitada. El catálogo se está actualizando.',
  offerFailed: 'No se pudo guardar la oferta.',
  removeFailed: 'No se pudo quitar la oferta.',
} as const;

/** 'Registrar nuevo producto' (src/islands/admin/ProductForm.tsx): the form, who may use it and what was published. */
export const ADMIN_PRODUCT_FORM_TEXT = {
  publishFailed: 'No se pudo publicar el producto. Intenta de nuevo.',
  loading: 'Cargando…',
  forbiddenBody: 'Solo los administradores de la tienda pueden registrar productos.',
  backToAccount: 'Volver a mi cuenta',
  signIn: 'Iniciar sesión',
  backLink: '← Volver a mi cuenta',
  title: 'Registrar nuevo producto',
  cardData: 'Datos de la carta',
  cardDataHint: 'Cada copia en venta (condición, idioma y acabado, o un slab) lleva su precio y su stock: agrégalas después de publicar.',
  /** 'Identificador: id'. */
  identifier: (id: string) => `Identificador: ${id}`,
  publish: 'Publicar producto',
  addOffers: 'Agrega las ofertas de la carta: cada condición, idioma y acabado con su precio y su stock, o un slab calificado.',
  choose: 'Selecciona…',
  franchise: 'Franquicia',
  collection: 'Colección',
  expansion: 'Expansión',
  productType: 'Tipo de producto',
  name: 'Nombre',
  price: 'Precio (MXN)',
  stock: 'Stock',
  limitPerCustomer: 'Límite por cliente',
  image: 'Imagen',
  description: 'Descripción',
  releaseDate: 'Fecha de lanzamiento',
  tags: 'Etiquetas (separadas por comas)',
  preorder: 'Preventa',
  available: 'Disponible para la venta',
} as const;

/** A single card's 'Datos de la carta' and the 'Carta y ofertas' dialog (src/islands/admin/SinglesEditor.tsx). */
export const ADMIN_SINGLES_EDITOR_TEXT = {
  setCode: 'Código de la expansión',
  collectorNumber: 'Número de colección',
  rarity: 'Rareza',
  choose: 'Selecciona…',
  nameEn: 'Nombre de la carta en inglés',
  nameEs: 'Nombre de la carta en español',
  cardData: 'Datos de la carta',
  saveCardData: 'Guardar datos de la carta',
  dialogTitle: 'Carta y ofertas',
  loading: 'Cargando carta…',
  loadFailed: 'No se pudo cargar la carta.',
  close: 'Cerrar',
} as const;

/** 'Editar producto' (src/islands/admin/ProductEditDialog.tsx): prices, stock, flags, description and images. */
export const ADMIN_PRODUCT_EDIT_DIALOG_TEXT = {
  title: 'Editar producto',
  addImage: 'Agregar imagen',
  save: 'Guardar cambios',
  price: 'Precio (MXN)',
  originalPrice: 'Precio original (MXN)',
  badge: 'Insignia en la tienda:',
  noBadge: 'Sin insignia de descuento.',
  stock: 'Stock',
  limitPerCustomer: 'Límite por cliente',
  releaseDate: 'Fecha de lanzamiento',
  available: 'Disponible',
  preorder: 'Preventa',
  description: 'Descripción',
  images: 'Imágenes',
  /** 'Imagen n', an image's alternative text and its name in the list. */
  image: (position: number) => `Imagen ${position}`,
  main: 'Principal',
  /** 'imagen n', after the button's verb for screen readers. */
  imageOf: (position: number) => `imagen ${position}`,
  moveUp: 'Subir',
  moveDown: 'Bajar',
  remove: 'Quitar',
} as const;

/** 'Cancelar y reembolsar' (src/islands/admin/RefundDialog.tsx): the ways the money goes back and the outcome. */
export const ADMIN_REFUND_DIALOG_TEXT = {
  referenceRequired: 'Escribe la referencia de la transferencia (de 4 a 100 caracteres).',
  failed: 'No se pudo reembolsar el pedido. Intenta de nuevo.',
  inProgress: 'El reembolso ya está en curso.',
  loading: 'Consultando las formas de reembolso…',
  wayProvider: 'Reembolsar a la tarjeta',
  wayPaypal: 'Reembolsar a PayPal',
  wayStoreCredit: 'Abonar al saldo a favor',
  wayBankTransfer: 'Registrar transferencia bancaria',
  hintProvider: 'El banco del cliente lo verá en su estado de cuenta en unos días.',
  hintPaypal: 'El cliente lo recibe en su cuenta de PayPal.',
  hintStoreCredit: 'El cliente puede usarlo de inmediato en su próxima compra.',
  hintBankTransfer: 'La tienda ya transfirió el dinero al cliente; aquí solo se registra.',
  doneProvider: 'Pedido reembolsado. Avisamos al cliente por correo.',
  doneStoreCredit: 'Pedido reembolsado al saldo a favor del cliente. Avisamos al cliente por correo.',
  doneBankTransfer: 'Transferencia registrada y pedido reembolsado. Avisamos al cliente por correo.',
  /** '¿Cancelar y reembolsar el pedido #…?'. */
  title: (orderId: string) => `¿Cancelar y reembolsar el pedido ${orderId}?`,
  amount: 'Importe a reembolsar',
  paymentMethod: 'Forma de pago',
  noPayment: 'Sin pago registrado',
  warning: 'El cliente recibirá un correo. No se puede deshacer.',
  refunding: 'Reembolsando…',
  confirm: 'Sí, cancelar y reembolsar',
  back: 'No, volver',
  howBack: '¿Cómo se devuelve el dinero?',
  reference: 'Referencia de la transferencia',
  referenceHint: 'La clave de rastreo SPEI o la referencia que dio el banco (de 4 a 100 caracteres).',
  restocked: 'Los productos del pedido volverán a estar a la venta.',
  returned: 'Los productos regresaron al inventario',
  returnedHint: 'Márcalo solo si el cliente devolvió los productos: volverán a estar a la venta. Si no, el pedido se reembolsa sin devolverlos al inventario.',
} as const;

/** 'Pedidos' (src/islands/admin/OrdersSection.tsx): the order list, its filters and its table. */
export const ADMIN_ORDERS_TEXT = {
  order: 'Pedido',
  date: 'Fecha',
  customer: 'Cliente',
  total: 'Total',
  paymentMethod: 'Forma de pago',
  status: 'Estado',
  title: 'Pedidos',
  loadFailed: 'No se pudieron cargar los pedidos.',
  loading: 'Cargando pedidos…',
  none: 'No hay pedidos con esos filtros.',
  /** '1 pedido' or 'n pedidos'. */
  count: (total: number) => (total === 1 ? '1 pedido' : `${total} pedidos`),
  pagerLabel: 'Páginas de pedidos',
  searchLabel: 'Buscar pedidos',
  search: 'Buscar',
  searchPlaceholder: '#A1B2C3, correo o nombre',
  all: 'Todos',
  from: 'Desde',
  to: 'Hasta',
  filter: 'Filtrar',
  clear: 'Limpiar',
  listLabel: 'Lista de pedidos',
  noName: 'Sin nombre',
} as const;

/** One order in 'Pedidos' (src/islands/admin/OrderDetail.tsx): its parties, lines, history and actions. */
export const ADMIN_ORDER_DETAIL_TEXT = {
  bySystem: 'La tienda (sistema)',
  byCustomer: 'Cliente',
  byAdmin: 'Administrador',
  changeFailed: 'No se pudo cambiar el pedido. Intenta de nuevo.',
  back: '← Volver a pedidos',
  loadFailed: 'No se pudo cargar el pedido.',
  loading: 'Cargando pedido…',
  /** 'Pedido #…'. */
  title: (number: string) => `Pedido ${number}`,
  /** 'Creado el <fecha>'. */
  created: (date: string) => `Creado el ${date}`,
  chooseCarrier: 'Elige la paquetería.',
  trackingNumberRequired: 'Escribe el número de guía.',
  markShipped: 'Marcar como enviado',
  carrier: 'Paquetería',
  choose: 'Selecciona…',
  trackingNumber: 'Número de guía',
  customer: 'Cliente',
  name: 'Nombre',
  noName: 'Sin nombre',
  email: 'Correo',
  shipTo: 'Envío a',
  noAddress: 'Sin dirección registrada',
  paymentAndShipping: 'Pago y envío',
  paymentMethod: 'Forma de pago',
  noPayment: 'Sin pago',
  reference: 'Referencia',
  paid: 'Pagado',
  refund: 'Reembolso',
  products: 'Productos',
  linesLabel: 'Productos del pedido',
  product: 'Producto',
  quantity: 'Cantidad',
  pricePaid: 'Precio pagado',
  amount: 'Importe',
  productGone: 'Producto no disponible',
  subtotal: 'Subtotal',
  discount: 'Descuento',
  shipping: 'Envío',
  free: 'Gratis',
  total: 'Total',
  history: 'Historial',
  /** 'Creado: <estado>', the order's first event. */
  createdAs: (status: string) => `Creado: ${status}`,
  actions: 'Acciones',
  shipped: 'Pedido marcado como enviado. Avisamos al cliente por correo.',
  completed: 'Pedido marcado como completado.',
  markCompleted: 'Marcar como completado',
  cancelAndRefund: 'Cancelar y reembolsar',
  cancel: 'Cancelar',
  /** '¿Cancelar el pedido #…?'. */
  cancelTitle: (number: string) => `¿Cancelar el pedido ${number}?`,
  confirmCancel: 'Sí, cancelar el pedido',
  cancelled: 'Pedido cancelado; el stock volvió a la venta.',
  cancelBody: 'El pedido aún no está pagado. Sus productos volverán a estar a la venta.',
} as const;

/** 'Resumen' (src/islands/admin/SummarySection.tsx): the counters, the refunds to review, the sales and the low stock. */
export const ADMIN_SUMMARY_TEXT = {
  chartTitle: 'Ventas de los últimos 30 días',
  /** 'n pedidos pagados por $x en total.' */
  chartTotals: (orders: number, total: string) => `${orders} pedidos pagados por ${total} en total.`,
  /** ' El mejor día fue el d, con $x.' (after chartTotals, hence the leading space). */
  chartBest: (day: string, total: string) => ` El mejor día fue el ${day}, con ${total}.`,
  /** 'd: n pedidos, $x', a bar's tooltip. */
  chartBar: (day: string, orders: number, total: string) => `${day}: ${orders} pedidos, ${total}`,
  title: 'Resumen',
  loadFailed: 'No se pudo cargar el resumen.',
  loading: 'Cargando resumen…',
  countersLabel: 'Pendientes',
  toShip: 'Por enviar',
  pendingPayment: 'Pendientes de pago',
  refundsToReview: 'Reembolsos por revisar',
  lowStockCounter: 'Con poco stock (3 o menos)',
  salesTitle: 'Ventas de los últimos 30 días',
  salesHint: 'Pedidos pagados por día, total en MXN.',
  lowStockTitle: 'Productos con poco stock',
  noLowStock: 'Ningún producto tiene 3 unidades o menos.',
  /** 'sin stock', '1 unidad' or 'n unidades'. */
  units: (stock: number) => (stock === 0 ? 'sin stock' : `${stock} ${stock === 1 ? 'unidad' : 'unidades'}`),
  /** 'Ver los n productos con poco stock'. */
  seeLowStock: (count: string) => `Ver los ${count} productos con poco stock`,
  refundsLoading: 'Cargando reembolsos…',
  refundsFailed: 'No se pudieron cargar los reembolsos por revisar.',
  refundsNone: 'Todos los reembolsos se completaron.',
  order: 'Pedido',
  /** 'Pedido #…', the link to the order. */
  orderLink: (number: string) => `Pedido ${number}`,
  customer: 'Cliente',
  amount: 'Importe',
  paymentMethod: 'Forma de pago',
  attempts: 'Intentos',
  status: 'Estado',
  noName: 'Sin nombre',
  noEmail: 'Sin correo',
  decisionFailed: 'No se pudo guardar la decisión.',
  chargeback: 'Contracargo: saldo retenido',
  returnCredit: 'Devolver el saldo a favor',
  keepCredit: 'Conservar el saldo',
  manual: 'Requiere atención manual',
  retrying: 'Reintentando',
  /** 'Próximo intento: <fecha>'. */
  nextAttempt: (date: string) => `Próximo intento: ${date}`,
  seeTable: 'Ver los datos como tabla',
  salesByDay: 'Ventas por día',
  salesCaption: 'Ventas por día de los últimos 30 días',
  day: 'Día',
  paidOrders: 'Pedidos pagados',
  total: 'Total',
} as const;

/** 'Productos' (src/islands/admin/ProductsSection.tsx): the product list, its filters and its table. */
export const ADMIN_PRODUCTS_TEXT = {
  product: 'Producto',
  price: 'Precio',
  stock: 'Stock',
  status: 'Estado',
  actions: 'Acciones',
  all: 'Todos',
  allFeminine: 'Todas',
  flagNoStock: 'Sin stock',
  flagLowStock: 'Poco stock (3 o menos)',
  flagPreorder: 'Preventa',
  flagUnavailable: 'No disponible',
  title: 'Productos',
  add: 'Registrar nuevo producto',
  loadFailed: 'No se pudieron cargar los productos.',
  loading: 'Cargando productos…',
  none: 'No hay productos con esos filtros.',
  /** '1 producto' or 'n productos' (n already formatted). */
  count: (total: number, formatted: string) => (total === 1 ? '1 producto' : `${formatted} productos`),
  pagerLabel: 'Páginas de productos',
  searchLabel: 'Buscar productos',
  search: 'Buscar por nombre, id o número de carta',
  franchise: 'Franquicia',
  type: 'Tipo',
  expansion: 'Expansión',
  show: 'Mostrar',
  filter: 'Filtrar',
  listLabel: 'Lista de productos',
  inOffers: 'en ofertas',
  unavailable: 'No disponible',
  preorder: 'Preventa',
  noStock: 'Sin stock',
  onSale: 'A la venta',
  edit: 'Editar',
  singleOffers: 'Carta y ofertas',
  /** 'de <producto>', after 'Carta y ofertas' for screen readers. */
  ofProduct: (name: string) => `de ${name}`,
  noOffers: 'Sin ofertas',
  /** Before a single's cheapest price when it has several offers (the price follows the space). */
  fromPrice: 'Desde ',
  /** '1 oferta' or 'n ofertas'. */
  offers: (count: number) => (count === 1 ? '1 oferta' : `${count} ofertas`),
} as const;

/** 'Ofertas' of a single card (src/islands/admin/OffersGrid.tsx): the offers, their form and a slab's photos. */
export const ADMIN_OFFERS_TEXT = {
  title: 'Ofertas',
  none: 'Esta carta aún no tiene ofertas.',
  add: 'Agregar oferta',
  removeTitle: 'Quitar oferta',
  confirmRemove: 'Sí, quitar',
  /** '¿Quitar la oferta «…»? Los pedidos que ya la vendieron la conservan.' */
  removeBody: (offer: string) => `¿Quitar la oferta «${offer}»? Los pedidos que ya la vendieron la conservan.`,
  listLabel: 'Lista de ofertas',
  offer: 'Oferta',
  price: 'Precio',
  stock: 'Stock',
  actions: 'Acciones',
  /** 'Certificado n', after a slab's label. */
  certificate: (number: string) => `Certificado ${number}`,
  noStock: 'Sin stock',
  edit: 'Editar',
  remove: 'Quitar',
  /** 'Editar oferta …', the form's title for an existing offer. */
  editTitle: (offer: string) => `Editar oferta ${offer}`,
  newTitle: 'Nueva oferta',
  save: 'Guardar oferta',
  addThis: 'Agregar esta oferta',
  kindRaw: 'Carta sin calificar',
  kindSlab: 'Carta calificada (slab)',
  choose: 'Selecciona…',
  kind: 'Tipo de oferta',
  condition: 'Condición',
  company: 'Empresa calificadora',
  grade: 'Calificación',
  certificateNumber: 'Número de certificado',
  language: 'Idioma',
  finish: 'Acabado',
  priceMxn: 'Precio (MXN)',
  originalPrice: 'Precio original (MXN)',
  photos: 'Fotos del slab',
  /** 'Foto n del slab', a photo's alternative text. */
  photoAlt: (position: number) => `Foto ${position} del slab`,
  /** 'foto n', after 'Quitar' for screen readers. */
  photoOf: (position: number) => `foto ${position}`,
  addPhoto: 'Agregar foto',
  uploadingPhoto: 'Subiendo foto…',
} as const;
