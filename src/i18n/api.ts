/**
 * What the shop's API answers for requests it refuses (session, size, format) and the errors of
 * the server's catalogue work (rebuilds, the build's snapshot, /explore, images). Objects whose
 * name says OPERATOR hold texts for whoever runs the shop (log lines, build errors), not for the
 * shopper.
 */

/** Who is calling: sign-in and admin refusals (src/server/http/auth.ts). */
export const API_AUTH_TEXT = {
  sessionInvalid: 'Tu sesión no es válida o expiró. Inicia sesión de nuevo.',
  signInToCheckout: 'Debes iniciar sesión para finalizar tu compra.',
  signInAsAdmin: 'Debes iniciar sesión como administrador.',
  accountNotVerified: 'No se pudo verificar tu cuenta. Intenta de nuevo.',
  noAccess: 'No tienes acceso',
  notAuthorized: 'No autorizado.',
} as const;

/** Reading a request and answering an unexpected failure (src/server/http/json.ts). */
export const API_REQUEST_TEXT = {
  tooLarge: 'La solicitud es demasiado grande.',
  unreadable: 'No se pudo leer la solicitud.',
  invalidJson: 'El cuerpo de la solicitud no es JSON válido.',
  invalidData: 'Datos no válidos.',
  upstream: 'El servicio de pagos no respondió. Intenta de nuevo.',
} as const;

/** A server without its service role key (src/server/context.ts). */
export const API_CONTEXT_TEXT = {
  notConfigured: 'Los pagos no están configurados en este servidor (falta SUPABASE_SERVICE_ROLE_KEY).',
} as const;

/** The product images the server passes on (src/server/media.ts). */
export const API_MEDIA_TEXT = {
  notFound: 'No encontrado',
  unavailable: 'La imagen no está disponible por ahora.',
} as const;

/** /explore's catalogue that cannot be read, for the operator (src/server/explore/catalog.ts). */
export const API_EXPLORE_OPERATOR_TEXT = {
  notExploreCatalog: 'no es el catálogo de /explore',
  fileNotExploreCatalog: (file: string) => `${file}: no es el catálogo de /explore`,
  unreadable: 'El catálogo de /explore no se pudo leer.',
  newCatalogUnreadable: (file: string, message: string) => `[explore] ${file}: no se pudo leer el catálogo nuevo; se sigue sirviendo el anterior (${message})`,
  liveStockUnreadable: (message: string) => `[explore] No se pudo leer el inventario en vivo; se sirve el anterior (${message})`,
} as const;

/** Why a rebuild is full although products were named (src/server/rebuild/build-mode.ts, incremental.ts). */
export const API_REBUILD_REASON_TEXT = {
  noServedManifest: 'no hay manifiesto de la compilación servida',
  codeChanged: 'el código cambió',
  productsChanged: (count: number) => `${count} productos cambiaron`,
  noPreviousManifest: 'no hay manifiesto de la compilación anterior',
  tooManyChanged: (count: number, max: number) => `${count} productos cambiaron (máximo ${max})`,
} as const;

/** Why the running server did not render an edit's pages itself and a build does it (src/server/rebuild/fast-edit.ts), for the operator's log. */
export const API_FAST_EDIT_FALLBACK_TEXT = {
  noSnapshot: 'no hay copia del catálogo de la compilación servida',
  listedChanged: 'un producto aparece o deja de mostrarse',
  movedProduct: 'un producto cambió de franquicia, expansión o tipo',
  newTaxonomy: 'hay una franquicia, expansión o tipo nuevo',
  removedPages: 'una lista pierde páginas',
  otherPage: (path: string) => `la página ${path} solo la genera una compilación`,
} as const;

/** The running server's rendering of an edit, for the operator's log (src/server/rebuild/fast-edit.ts). */
export const API_FAST_EDIT_OPERATOR_TEXT = {
  published: (files: number, ms: number, steps: string) => `Edición publicada por el servidor: ${files} archivos en ${ms} ms (${steps}).`,
  searchFollows: 'Los archivos del buscador cambian: los escribe la compilación parcial que sigue.',
  fallback: (reason: string) => `La edición necesita una compilación: ${reason}.`,
  failed: (message: string) => `El servidor no pudo publicar la edición (${message}); se compila.`,
  renderFailed: (path: string, status: number) => `La página ${path} no se pudo generar (HTTP ${status}).`,
  notServing: 'este servidor no sirve una compilación o no tiene base de datos',
  notListening: 'el servidor aún no escucha',
} as const;

/** A rebuild's build failing or being published, for the operator (src/server/rebuild/build-process.ts, publish.ts, served-folder.ts). */
export const API_REBUILD_BUILD_OPERATOR_TEXT = {
  startFailed: (message: string) => `No se pudo iniciar la compilación: ${message}`,
  failed: (cause: string) => `La compilación falló (${cause}).`,
  exitCode: (code: number | null) => `código ${code}`,
  partsMerged: (count: number, pages: number, folder: string) => `Compilación en ${count} partes: ${pages} páginas de las otras partes movidas a ${folder}.`,
  noIndex: 'La compilación terminó sin generar index.html; se conserva el sitio anterior.',
  folderBusy: (lock: string, seconds: number) => `${lock}: otro proceso prepara la carpeta desde hace más de ${seconds} s`,
  notAFolder: (link: string) => `${link} no es una carpeta`,
} as const;

/** The rebuild queue's log lines (src/server/rebuild/job-queue.ts). */
export const API_REBUILD_QUEUE_OPERATOR_TEXT = {
  databaseBack: 'reconstrucción: la base de datos responde de nuevo',
  queueUnreadable: (message: string) => `reconstrucción: no se pudo consultar la cola (${message})`,
  products: (count: number) => `${count} producto(s)`,
  whole: 'completa',
  claimed: (holder: string, jobId: number, what: string, attempts: number) =>
    `reconstrucción: ${holder} toma el trabajo ${jobId} (${what}, intento ${attempts})`,
  lost: (holder: string, jobId: number) => `reconstrucción: ${holder} perdió el trabajo ${jobId}; se detiene su compilación`,
  finishNotRecorded: (jobId: number, message: string) => `reconstrucción: no se pudo registrar el fin del trabajo ${jobId} (${message})`,
  finished: (jobId: number, error: string | null) => `reconstrucción: trabajo ${jobId} ${error !== null ? `falló: ${error}` : 'publicado'}`,
} as const;

/** The product-change watcher's log lines (src/server/rebuild/realtime.ts). */
export const API_REBUILD_REALTIME_OPERATOR_TEXT = {
  productsUnreadable: (error: string) => `reconstrucción: no se pudieron leer los productos (${error})`,
  listening: 'reconstrucción: escuchando cambios de productos',
  subscription: (status: string, message: string | null) => `reconstrucción: suscripción a productos ${status}${message !== null ? ` (${message})` : ''}`,
} as const;

/** The build's catalogue snapshot, as the build log reports it (src/server/snapshot/loader.ts). */
export const API_SNAPSHOT_OPERATOR_TEXT = {
  rowSkipped: (table: string, id: string, reason: string) => `Fila omitida de ${table} (id ${id}): ${reason}`,
  notSaved: (file: string, error: string) => `No se pudo guardar la copia del catálogo en ${file}: ${error}`,
  firstPartCopy: (fetchedAt: string, count: number) =>
    `Catálogo: la copia que la primera parte de la compilación leyó (${fetchedAt}), ${count} productos de esta parte.`,
  copyTooOld: 'La copia del catálogo en disco es anterior a esta compilación; se lee el catálogo.',
  patched: (changed: number, total: number) => `Catálogo: copia en disco y ${changed} productos leídos de Supabase; ${total} productos.`,
  changedUnreadable: (message: string) => `No se pudieron leer los productos cambiados (${message}); se lee todo el catálogo.`,
  read: (count: number) => `Catálogo leído de Supabase: ${count} productos.`,
  unreadable: (message: string) => `No se pudo leer el catálogo de Supabase (${message}).`,
  noBackend: 'PUBLIC_SUPABASE_URL o PUBLIC_SUPABASE_ANON_KEY no están definidas; no se lee el catálogo de Supabase.',
  lastCopy: (fetchedAt: string | null, count: number) => `Se usa la última copia del catálogo (${fetchedAt ?? 'sin fecha'}), ${count} productos.`,
  noCopy: 'No hay copia del catálogo: se construye solo con el catálogo estático y sin productos.',
} as const;

/** A catalogue row the snapshot rejects, without an id (src/server/snapshot/model.ts). */
export const API_SNAPSHOT_ROW_TEXT = {
  noId: '(sin id)',
} as const;
