/** Facturas (CFDI 4.0): the shopper's request and downloads, the e-mails, the back office, the test invoice. */

/** The Orders tab's and the confirmation's factura block (src/islands/account/InvoiceBlock.tsx). */
export const INVOICE_ORDER_TEXT = {
  title: 'Factura',
  request: 'Solicitar factura',
  requesting: 'Solicitando…',
  until: (date: string) => `Puedes solicitar la factura hasta el ${date}.`,
  needTaxData: 'Para facturar necesitas guardar tus datos de facturación.',
  fillTaxData: 'Llenar mis datos de facturación',
  status: {
    pending: 'Factura en proceso',
    issuing: 'Factura en proceso',
    failed: 'Factura en proceso (reintentando)',
    issued: 'Factura emitida',
    cancelling: 'Factura en cancelación',
    cancelled: 'Factura cancelada',
  },
  folio: (uuid: string) => `Folio fiscal: ${uuid}`,
  downloadPdf: 'Descargar PDF',
  downloadXml: 'Descargar XML',
  downloadFailed: 'No se pudo descargar la factura. Intenta de nuevo.',
  requestFailed: 'No se pudo solicitar la factura. Intenta de nuevo.',
  testMode: 'Factura de prueba, sin validez fiscal.',
  sentTo: (email: string) => `Te la enviaremos también a ${email}.`,
} as const;

/** Refusals of the factura endpoints (src/server/invoicing/endpoints.ts). */
export const INVOICE_API_TEXT = {
  invalidOrder: 'Pedido no válido.',
  invalidKey: 'Falta la clave de la solicitud.',
  orderNotFound: 'Pedido no encontrado.',
  invoiceNotFound: 'Factura no encontrada.',
  notIssued: 'La factura todavía no está lista.',
  invalidFormat: 'Formato no válido: usa pdf o xml.',
  unavailable: 'La facturación no está disponible por ahora.',
  unknownPaymentForm: 'No se conoce la forma de pago de este pedido.',
  amountsMismatch: 'Los importes del pedido no cuadran; escríbenos para facturarlo.',
  providerFailed: 'El servicio de facturación no respondió. Intenta de nuevo.',
  invalidPeriod: 'Mes no válido.',
  readFailed: 'No se pudo leer la información. Intenta de nuevo.',
} as const;

/** The concepts' descriptions the shop writes on a factura. */
export const INVOICE_CONCEPT_TEXT = {
  shipping: 'Envío',
  globalSale: 'Venta',
  /** A line whose product no longer exists. */
  product: 'Producto',
} as const;

/** Errors of the issuing queue and the providers, as logged and stored in invoices.last_error. */
export const INVOICE_PROVIDER_ERROR_TEXT = {
  unknownDownload: 'Facturapi: respuesta de descarga desconocida',
  noProviderId: 'La factura no tiene identificador del proveedor',
  noIssuerZip: 'Falta el código postal del emisor (FACTURAPI_ISSUER_ZIP) para la factura global',
  noProvider: (name: string) => `Este servidor no tiene el proveedor de facturas «${name}»`,
  attemptsExhausted: (attempts: number) => `Se agotaron los ${attempts} intentos`,
} as const;

/** The simulated provider's test factura (src/server/invoicing/simulated.ts): PDF and XML. */
export const INVOICE_SIMULATED_TEXT = {
  notValid: 'SIN VALIDEZ FISCAL',
  title: 'Factura de prueba (CFDI 4.0)',
  notice: 'Emitida por el modo de prueba de la tienda: no fue timbrada ante el SAT.',
  issuer: 'Emisor: Cartas Mx (modo de prueba)',
  issuerName: 'Cartas Mx',
  xmlIssuerName: 'CARTAS MX PRUEBA',
  xmlSeal: 'SIN-VALIDEZ-FISCAL',
  receiver: 'Receptor',
  rfc: (rfc: string) => `RFC: ${rfc}`,
  legalName: (name: string) => `Razón social: ${name}`,
  regime: (regime: string) => `Régimen fiscal: ${regime}`,
  zip: (zip: string) => `Código postal fiscal: ${zip}`,
  cfdiUse: (use: string) => `Uso del CFDI: ${use}`,
  folio: (uuid: string) => `Folio fiscal (simulado): ${uuid}`,
  order: (number: string) => `Pedido: ${number}`,
  period: (month: string, year: number) => `Factura global · Periodicidad mensual (04) · Mes ${month} · Año ${year}`,
  date: (date: string) => `Fecha: ${date}`,
  paymentForm: (form: string) => `Forma de pago: ${form}`,
  paymentMethod: (method: string) => `Método de pago: ${method}`,
  columns: ['Cant.', 'Clave', 'Unidad', 'Descripción', 'Base', 'IVA 16%', 'Importe'],
  subtotal: (amount: string) => `Subtotal: ${amount}`,
  iva: (amount: string) => `IVA 16%: ${amount}`,
  total: (amount: string) => `Total: ${amount}`,
  xmlComment: 'SIN VALIDEZ FISCAL: factura de prueba del modo de prueba de la tienda, no timbrada ante el SAT.',
} as const;

/** The e-mails of a factura (src/server/mail/templates/invoice.ts). `number` is the order's number as shown. */
export const MAIL_INVOICE_TEXT = {
  issuedSubject: (number: string) => `Tu factura del pedido ${number}`,
  issued: (number: string) => `Emitimos la factura de tu pedido ${number}.`,
  folio: (uuid: string) => `Folio fiscal: ${uuid}`,
  download: 'Te adjuntamos el PDF y el XML; también puedes descargarlos desde tus pedidos:',
  viewOrders: 'Ver mis pedidos',
  testMode: 'Es una factura de prueba, sin validez fiscal.',
  cancelledSubject: (number: string) => `Cancelamos la factura del pedido ${number}`,
  cancelled: (number: string) => `Tu pedido ${number} fue reembolsado, así que cancelamos su factura ante el SAT.`,
  cancelledFolio: (uuid: string) => `Folio fiscal cancelado: ${uuid}`,
  receiptLink: 'Solicitar factura',
  receiptLinkHelp: (date: string) => `¿Necesitas factura? Solicítala desde tus pedidos hasta el ${date}.`,
} as const;

/** Why an e-mail's attached factura could not be sent (the outbox's last_error; it retries). */
export const MAIL_ATTACHMENT_TEXT = {
  unavailable: 'no se pueden adjuntar archivos: la facturación no está disponible en este servidor',
  invoiceNotIssued: (id: string) => `la factura ${id} no está emitida`,
  otherProvider: (id: string, provider: string) => `la factura ${id} es de ${provider}, otro proveedor`,
  downloadFailed: (id: string, reason: string) => `no se pudo descargar la factura ${id}: ${reason}`,
} as const;

/** The back office's Facturas section (src/islands/admin/InvoicesSection.tsx). */
export const ADMIN_INVOICES_TEXT = {
  title: 'Facturas',
  intro: 'Facturas emitidas, en proceso, con error y canceladas, y la factura global de cada mes.',
  tableLabel: 'Lista de facturas',
  loading: 'Cargando facturas…',
  loadFailed: 'No se pudieron cargar las facturas.',
  empty: 'Aún no hay facturas.',
  columns: { date: 'Fecha', kind: 'Tipo', receiver: 'Receptor', total: 'Total', status: 'Estado', folio: 'Folio fiscal' },
  kind: { order: (number: string) => `Pedido ${number}`, global: (month: string, year: number) => `Global ${month}/${year}` },
  status: {
    pending: 'Pendiente',
    issuing: 'Emitiendo',
    failed: 'Con error',
    issued: 'Emitida',
    cancelling: 'Cancelando',
    cancelled: 'Cancelada',
  },
  lastError: (error: string) => `Último error: ${error}`,
  globalTitle: 'Factura global',
  globalIntro: 'Las ventas pagadas del mes que nadie facturó, a público en general (XAXX010101000). Se emite cuando el mes termina.',
  month: 'Mes',
  year: 'Año',
  preview: 'Ver vista previa',
  previewLoading: 'Calculando…',
  previewLine: (orders: number, total: string) => `${orders} ventas sin factura por ${total}`,
  previewNone: 'No hay ventas sin factura en ese mes.',
  previewIssued: 'La factura global de ese mes ya se emitió.',
  issue: 'Emitir factura global',
  issuing: 'Emitiendo…',
  issued: 'Factura global en proceso de emisión.',
  issueFailed: 'No se pudo emitir la factura global.',
  downloadPdf: 'PDF',
  downloadXml: 'XML',
} as const;
