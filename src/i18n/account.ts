/** The account area: profile, addresses, orders, saved cards, balance, the header's user menu, the newsletter. */

/** The account page's frame (src/islands/account/AccountApp.tsx): loading, the sidebar, the tabs. */
export const ACCOUNT_APP_TEXT = {
  loading: 'Cargando tu cuenta…',
  signIn: 'Iniciar sesión',
  productForm: 'Registrar producto',
  loadingForm: 'Cargando formulario…',
  sidebarLabel: 'Tu cuenta',
  noName: 'Sin nombre',
  noLastname: 'Sin apellido',
  backToAccount: 'Ver mi cuenta',
  tabsLabel: 'Secciones de la cuenta',
  adminPanel: 'Panel de administración',
  signOut: 'Cerrar sesión',
} as const;

/** The account page's tabs (src/islands/account/tabs.ts). */
/** The Favoritos tab (src/islands/account/FavoritesPanel.tsx). */
export const ACCOUNT_FAVORITES_TEXT = {
  title: 'Favoritos',
  loading: 'Cargando favoritos…',
  loadFailed: 'No se pudieron cargar tus favoritos.',
  /** Replaces the specification's 'Pronto podrás ver y gestionar tus favoritos aquí.' now that favorites exist. */
  empty: 'Aún no tienes favoritos. Toca el corazón en un producto para guardarlo aquí.',
  remove: 'Quitar',
  removeLabel: (name: string) => `Quitar ${name} de favoritos`,
  removed: 'Quitado de favoritos',
  removeFailed: 'No se pudo quitar de favoritos.',
} as const;

export const ACCOUNT_TABS_TEXT = {
  profile: 'Mi perfil',
  favorites: 'Favoritos',
  orders: 'Pedidos',
  addresses: 'Direcciones',
  settings: 'Configuración',
} as const;

/** The account pages' titles (src/pages/account/). */
export const ACCOUNT_PAGE_TEXT = {
  account: 'Mi cuenta',
  addProduct: 'Registrar producto',
} as const;

/** Saving the profile, the verification e-mail and the password change (src/stores/account.ts, ProfilePanel). */
export const ACCOUNT_PROFILE_MESSAGES = {
  saveFailed: '❌ Error al guardar. Intenta de nuevo.',
  saved: '✅ Datos guardados',
  resent: 'Correo de verificación reenviado',
  resendFailed: 'No se pudo reenviar el correo.',
  passwordSaved: 'Contraseña actualizada',
} as const;

/** 'Mi perfil' (src/islands/account/ProfilePanel.tsx): the profile as read, its actions and its edit form. */
export const ACCOUNT_PROFILE_TEXT = {
  title: 'Mi perfil',
  username: 'Usuario',
  name: 'Nombre',
  noName: 'Sin nombre',
  lastname: 'Apellido',
  noLastname: 'Sin apellido',
  phone: 'Teléfono',
  email: 'Correo',
  verified: 'Verificado',
  resend: 'Reenviar correo de verificación',
  memberSince: 'Miembro desde',
  edit: 'Editar datos',
  changePassword: 'Cambiar contraseña',
  signOut: 'Cerrar sesión',
  /** The edit form's own labels (the others are above). */
  usernameField: 'Username',
  mainAddress: 'Dirección principal',
  street: 'Calle',
  city: 'Ciudad',
  state: 'Estado',
  zip: 'Código Postal',
  save: 'Guardar',
  saving: 'Guardando…',
} as const;

/** 'Resumen' of the profile panel (src/islands/account/ProfilePanel.tsx). */
export const ACCOUNT_SUMMARY_TEXT = {
  title: 'Resumen',
  loading: 'Cargando resumen…',
  unavailable: 'El resumen no está disponible por ahora.',
  orders: 'Pedidos',
  points: 'Puntos de recompensa',
  coupons: 'Cupones',
  recentOrders: 'Pedidos en los últimos 30 días',
} as const;

/** 'Dirección principal' of the profile panel (src/islands/account/ProfilePanel.tsx). */
export const ACCOUNT_MAIN_ADDRESS_TEXT = {
  title: 'Dirección principal',
  loading: 'Cargando dirección…',
  none: 'No has registrado dirección.',
  manage: 'Gestionar direcciones',
} as const;

/** The address book's notices and states (src/stores/account.ts, AddressesPanel, src/data/addresses.ts). */
export const ACCOUNT_ADDRESS_MESSAGES = {
  empty: 'Aún no has agregado direcciones.',
  loadFailed: 'No se pudieron cargar tus direcciones.',
  updateFailed: 'No se pudo actualizar.',
  defaultFailed: 'No se pudo actualizar la dirección predeterminada.',
  saveFailed: 'No se pudo guardar la dirección.',
  deleteFailed: 'No se pudo eliminar.',
  updated: 'Dirección actualizada',
  defaultDone: 'Predeterminada actualizada',
  saved: 'Dirección guardada',
  deleted: 'Dirección eliminada',
  /** Also the database's refusal to delete the user's only address, matched in its error. */
  lastAddress: 'Debes tener al menos una dirección',
} as const;

/** 'Mis direcciones' (src/islands/account/AddressesPanel.tsx): the list, its actions and forms. */
export const ACCOUNT_ADDRESSES_TEXT = {
  title: 'Mis direcciones',
  loading: 'Cargando direcciones…',
  addTitle: 'Agregar nueva dirección',
  addSubmit: 'Guardar dirección',
  confirmDelete: '¿Eliminar esta dirección?',
  confirmYes: 'Sí, eliminar',
  cancel: 'Cancelar',
  editTitle: 'Editar dirección',
  editSubmit: 'Guardar cambios',
  isDefault: 'Predeterminada',
  edit: 'Editar',
  makeDefault: 'Hacer predeterminada',
  deleting: 'Eliminando…',
  delete: 'Eliminar',
} as const;

/** The order history's states (src/islands/account/OrdersPanel.tsx). */
export const ACCOUNT_ORDER_MESSAGES = {
  empty: 'No tienes pedidos aún.',
  loadFailed: 'No se pudieron cargar tus pedidos.',
  linesFailed: 'No se pudieron cargar los productos. Intenta de nuevo.',
  /** The short heading the specification also gives the failure. */
  linesFailedTitle: 'Error al cargar productos',
  noLines: 'No hay productos disponibles para este pedido.',
  missingProduct: 'Producto no disponible',
} as const;

/** 'Mis pedidos' (src/islands/account/OrdersPanel.tsx): the table and an open order. */
export const ACCOUNT_ORDERS_TEXT = {
  title: 'Mis pedidos',
  loading: 'Cargando pedidos…',
  id: 'ID',
  date: 'Fecha',
  total: 'Total',
  status: 'Estado',
  details: 'Detalles',
  pagerLabel: 'Páginas de pedidos',
  hide: 'Ocultar',
  show: 'Ver detalles',
  /** After 'Ver detalles' / 'Ocultar', for screen readers only: ' del pedido #A1B2C3'. */
  ofOrder: (order: string) => ` del pedido ${order}`,
  /** 'Envío a: Calle 1, Puebla, …'. */
  shipTo: (address: string) => `Envío a: ${address}`,
  /** 'Forma de pago: Tarjeta'. */
  paidWith: (method: string) => `Forma de pago: ${method}`,
  loadingLines: 'Cargando productos…',
} as const;

/** An open order's shipping and history (src/islands/account/OrderTracking.tsx). */
export const ACCOUNT_ORDER_TRACKING_TEXT = {
  carrier: 'Paquetería',
  trackingNumber: 'Número de guía',
  /** After the tracking number's link, for screen readers only. */
  trackLink: (carrier: string) => ` (rastrear en ${carrier}, se abre en otra pestaña)`,
  history: 'Historial',
} as const;

/** The note under a pending OXXO order's status (src/islands/account/OrderPaymentNote.tsx). */
export const ACCOUNT_ORDER_PAYMENT_TEXT = {
  voucher: 'Ver ficha de pago',
} as const;

/** 'Métodos de pago guardados' of the profile panel (src/islands/account/SavedCards.tsx, src/data/account.ts). */
export const ACCOUNT_SAVED_CARDS_TEXT = {
  title: 'Métodos de pago guardados',
  settingDefault: 'Estableciendo predeterminado...',
  defaultDone: 'Predeterminado actualizado ✅',
  defaultFailed: 'No se pudo actualizar ❌',
  removing: 'Eliminando método...',
  removed: 'Método eliminado ✅',
  removeFailed: 'No se pudo eliminar el método ❌',
  empty: 'No tienes tarjetas guardadas.',
  noCustomer: 'Aún no tienes un cliente de Stripe asociado.',
  loadFailed: 'No se pudieron cargar tus tarjetas.',
  /** The payment endpoints answered something that is not a list of cards. */
  unexpectedAnswer: 'Respuesta inesperada del servidor.',
  loading: 'Cargando tarjetas…',
  /** A card of an unknown brand. */
  card: 'Tarjeta',
  isDefault: 'Predeterminada',
  /** 'Vence 04/2027'. */
  expires: (month: string, year: number) => `Vence ${month}/${year}`,
  makeDefault: 'Usar como predeterminada',
  /** 'Usar Visa •••• 4242 como predeterminada'. */
  makeDefaultLabel: (card: string) => `Usar ${card} como predeterminada`,
  remove: 'Eliminar',
  /** 'Eliminar Visa •••• 4242'. */
  removeLabel: (card: string) => `Eliminar ${card}`,
} as const;

/** The balance ('saldo a favor') of the profile panel (src/stores/store-credit.ts, StoreCreditSection, src/data/store-credit.ts). */
export const ACCOUNT_STORE_CREDIT_TEXT = {
  title: 'Movimientos de tu saldo a favor',
  empty: 'Aún no tienes movimientos.',
  loading: 'Cargando tu saldo a favor…',
  loadingMovements: 'Cargando movimientos…',
  unavailable: 'Tu saldo a favor no está disponible por ahora.',
  loadFailed: 'No se pudieron cargar los movimientos de tu saldo a favor.',
  /** After a movement's label: ' · Pedido #A1B2C3'. */
  order: (order: string) => ` · Pedido ${order}`,
  /** 'Saldo: $350.00', the balance after a movement. */
  balanceAfter: (amount: string) => `Saldo: ${amount}`,
  /** The database answered a balance that is not whole centavos. */
  invalidBalance: (value: string) => `Saldo a favor no válido: ${value}`,
} as const;

/** The header's user menu (src/islands/account/UserMenu.tsx). */
export const ACCOUNT_USER_MENU_TEXT = {
  toggle: 'Menú de usuario',
  loading: 'Cargando…',
  signIn: 'Iniciar sesión',
  adminPanel: 'Panel de administración',
  signOut: 'Cerrar sesión',
} as const;

/** The footer's newsletter form (src/islands/newsletter/NewsletterForm.tsx); its invalid e-mail message is VALIDATION_MESSAGES.newsletterEmail. */
export const ACCOUNT_NEWSLETTER_TEXT = {
  label: 'Correo electrónico',
  placeholder: 'tucorreo@ejemplo.com',
  submit: 'Suscribirme',
  sending: 'Enviando…',
  failure: 'No pudimos suscribirte. Intenta más tarde.',
  success: '¡Gracias! Te suscribiste al boletín.',
} as const;

/** The browser's client of the shop's /api endpoints (src/data/api.ts). */
export const ACCOUNT_API_MESSAGES = {
  unreachable: 'No se pudo conectar con la tienda. Intenta de nuevo.',
} as const;
