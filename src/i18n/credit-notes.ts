/** Credit notes (CFDI de egreso) against the factura global: the concept, the test files, the back office. */

/** The concept of a credit note (src/server/invoicing/credit-notes.ts). `number` is the order's number as shown. */
export const CREDIT_NOTE_CONCEPT_TEXT = {
  refund: (number: string) => `Devolución del pedido ${number}`,
} as const;

/** The simulated provider's test credit note (PDF and XML). */
export const CREDIT_NOTE_SIMULATED_TEXT = {
  title: 'Nota de crédito de prueba (CFDI 4.0 de egreso)',
  related: (uuid: string) => `CFDI relacionado (01 Nota de crédito de los documentos relacionados): ${uuid}`,
  period: (month: string, year: number) => `Factura global relacionada · Periodicidad mensual (04) · Mes ${month} · Año ${year}`,
  xmlComment: 'SIN VALIDEZ FISCAL: nota de crédito de prueba del modo de prueba de la tienda, no timbrada ante el SAT.',
} as const;

/** The back office's list of facturas: a credit note's row. */
export const ADMIN_CREDIT_NOTES_TEXT = {
  kind: 'Nota de crédito',
  detail: (number: string, month: string, year: number) => `Pedido ${number} · factura global ${month}/${year}`,
} as const;

/** Why a credit note could not be issued (stored as the note's last error). */
export const CREDIT_NOTE_PROVIDER_ERROR_TEXT = {
  noRelatedDocument: 'La nota de crédito no tiene el folio fiscal de la factura global a la que se relaciona.',
} as const;
