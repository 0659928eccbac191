/** The back office's 'Lista de compra' (/admin/lista-de-compra): the buylist's rules, the receiving address and the entries. */

/** The section's title, in the navigation too. */
export const ADMIN_BUYLIST_TEXT = {
  title: 'Lista de compra',
  intro:
    'Lo que la tienda compra a sus clientes y a qué precio: las reglas de precio, la dirección donde recibes las cartas y cada carta de la lista. Cada cambio queda registrado con quién y cuándo.',
} as const;

/** What is wrong with a field of the editor's forms (src/domain/buylist-rules.ts FieldProblem). */
export const BUYLIST_FIELD_PROBLEM_TEXT = {
  percent: 'Escribe un porcentaje entre 0 y 100, con hasta dos decimales.',
  share_order: 'Una condición peor no puede pagar más que la condición de arriba.',
  money: 'Escribe un monto en pesos, por ejemplo 100 o 99.50.',
  limit: 'Escribe un número entero entre 1 y 999.',
  days: 'Escribe un número entero de días entre 1 y 90.',
  wanted: 'Escribe un número entero de copias entre 0 y 100000.',
  price: 'Escribe el precio NM en pesos, mayor que $0 (por ejemplo 2400 o 99.50), o déjalo vacío para usar la regla.',
  required: 'Escribe este dato para publicar la dirección.',
  zip: 'El código postal son 5 dígitos.',
  phone: 'El teléfono son 10 dígitos.',
  too_long: 'Es demasiado largo.',
} as const;

/** Why a change was not saved (src/data/buylist-rules.ts SaveProblem). */
export const BUYLIST_SAVE_PROBLEM_TEXT = {
  duplicate: 'Esa carta ya está en la lista con el mismo idioma y acabado: edítala en la tabla.',
  in_use: 'Esta carta ya tiene ventas y no se puede quitar de la lista: páusala.',
  invalid: 'La base de datos rechazó un valor: revisa el formulario.',
  failed: 'No se pudo guardar. Revisa tu conexión e intenta de nuevo.',
} as const;

/** The rules form. */
export const BUYLIST_RULES_TEXT = {
  title: 'Reglas de precio',
  loading: 'Cargando las reglas…',
  loadFailed: 'No se pudieron cargar las reglas de la lista de compra.',
  sharesLegend: 'Lo que paga cada condición, en % del precio NM',
  /** 'LP (% del precio NM)'. */
  share: (condition: string) => `${condition} (% del precio NM)`,
  defaultOn: 'Usar una regla para las cartas sin precio NM propio',
  defaultPercent: 'Regla: % del precio NM más bajo de la tienda',
  bonus: 'Bono en saldo a favor (%)',
  minimum: 'Venta mínima (MXN, por transferencia)',
  defaultLimit: 'Límite por cliente de cada carta',
  reservationDays: 'Días para recibir las cartas',
  save: 'Guardar reglas',
  saving: 'Guardando…',
  saved: 'Guardado.',
} as const;

/** The receiving address form. */
export const BUYLIST_ADDRESS_TEXT = {
  title: 'Dirección de recepción',
  intro:
    'Donde los clientes envían las cartas que venden o las traen al mostrador: aparece en las instrucciones de envío y en la guía impresa. Vacía todos los campos para retirarla.',
  unpublished: 'Aún no publicas la dirección: los clientes ven un aviso para escribirte antes de enviar.',
  name: 'Destinatario',
  street: 'Calle y número',
  colonia: 'Colonia',
  zip: 'Código postal',
  municipio: 'Municipio o alcaldía',
  state: 'Estado',
  phone: 'Teléfono (10 dígitos, opcional)',
  hours: 'Horario del mostrador (opcional)',
  save: 'Guardar dirección',
  saving: 'Guardando…',
  saved: 'Guardado.',
} as const;

/** The entries: the table, its search and pager, editing, pausing and removing. */
export const BUYLIST_ENTRIES_TEXT = {
  title: 'Cartas que compramos',
  search: 'Buscar en la lista por nombre o número de colección',
  loading: 'Cargando la lista…',
  loadFailed: 'No se pudo cargar la lista de compra.',
  empty: 'Ninguna carta de la lista coincide con la búsqueda.',
  emptyAll: 'La lista está vacía: agrega la primera carta.',
  count: (count: number) => (count === 1 ? '1 carta en la lista' : `${count} cartas en la lista`),
  tableLabel: 'Cartas de la lista de compra',
  pagesLabel: 'Páginas de la lista de compra',
  columns: {
    card: 'Carta',
    number: 'Número',
    language: 'Idioma',
    finish: 'Acabado',
    wanted: 'Buscamos',
    reserved: 'Apartadas',
    bought: 'Compradas',
    price: 'Precio NM',
    limit: 'Límite',
    active: 'Estado',
    actions: 'Acciones',
  },
  any: 'Cualquiera',
  /** 'Regla: 50% del precio NM'. */
  rule: (percent: string) => `Regla: ${percent} del precio NM`,
  ruleOff: 'Sin precio: la regla está apagada',
  /** The price the rule gives today: 'hoy $1,200.00'; none when the shop has no NM copy. */
  ruleToday: (amount: string) => `hoy ${amount}`,
  ruleNone: 'sin copia NM en la tienda: no se publica',
  /** A limit of its own, or the general one: '4 (general)'. */
  limitDefault: (count: number) => `${count} (general)`,
  active: 'Activa',
  paused: 'Pausada',
  edit: 'Editar',
  editOf: (name: string) => `Editar ${name}`,
  pause: 'Pausar',
  pauseOf: (name: string) => `Pausar ${name}`,
  resume: 'Reanudar',
  resumeOf: (name: string) => `Reanudar ${name}`,
  remove: 'Quitar',
  removeOf: (name: string) => `Quitar ${name}`,
  confirmRemove: (name: string) => `¿Quitar ${name} de la lista?`,
  confirmRemoveYes: 'Sí, quitar',
  confirmRemoveNo: 'No',
  editTitle: (name: string) => `Editar ${name}`,
  wanted: 'Copias que buscamos',
  nmPrice: 'Precio NM (MXN; vacío = la regla)',
  limit: 'Límite por cliente (vacío = el general)',
  save: 'Guardar',
  saving: 'Guardando…',
  cancel: 'Cancelar',
  saved: 'Guardado.',
  pausedDone: (name: string) => `${name}: pausada.`,
  resumedDone: (name: string) => `${name}: reanudada.`,
  removedDone: (name: string) => `${name}: quitada de la lista.`,
} as const;

/** Adding a printing to the buylist. */
export const BUYLIST_ADD_TEXT = {
  open: 'Agregar carta',
  title: 'Agregar una carta a la lista',
  search: 'Busca la carta por nombre o número de colección',
  searching: 'Buscando…',
  searchFailed: 'No se pudo buscar. Intenta de nuevo.',
  typeMore: 'Escribe al menos 2 letras o dígitos.',
  none: 'Ninguna carta coincide.',
  resultsLabel: 'Cartas encontradas',
  /** 'Monkey.D.Luffy (OP05-119) · OP05-119'. */
  choice: (name: string, number: string) => `${name} · ${number}`,
  pick: 'Elegir',
  pickOf: (name: string) => `Elegir ${name}`,
  picked: (name: string) => `Carta elegida: ${name}`,
  change: 'Cambiar de carta',
  pickFirst: 'Elige una carta de la búsqueda.',
  language: 'Idioma',
  finish: 'Acabado',
  anyLanguage: 'Cualquier idioma',
  anyFinish: 'Cualquier acabado',
  add: 'Agregar a la lista',
  adding: 'Agregando…',
  added: (name: string) => `${name}: agregada a la lista.`,
  cancel: 'Cancelar',
} as const;
