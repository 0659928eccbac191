/** The Mexican address: its form's extra fields, the postal-code lookup, and how an address is written for the courier. */

/** The address form's Mexican fields and the postal-code lookup (src/islands/ui/AddressForm.tsx). */
export const ADDRESS_FORM_MX_TEXT = {
  street: 'Calle',
  exteriorNumber: 'Número exterior',
  interiorNumber: 'Número interior (opcional)',
  neighborhood: 'Colonia',
  neighborhoodChoose: 'Elige tu colonia',
  neighborhoodOther: 'Otra',
  neighborhoodOtherName: 'Nombre de la colonia',
  municipality: 'Municipio o alcaldía',
  city: 'Ciudad (opcional)',
  references: 'Referencias (opcional)',
  referencesPlaceholder: 'Entre calles, color de fachada, indicaciones para la paquetería',
  phone: 'Teléfono de contacto',
  phonePlaceholder: '10 dígitos',
  lookingUp: 'Buscando el código postal…',
  /** The lookup found the postal code's colonias. */
  found: (count: number) => (count === 1 ? 'Encontramos 1 colonia para este código postal.' : `Encontramos ${count} colonias para este código postal.`),
  notFound: 'No encontramos este código postal: escribe los datos de tu dirección.',
} as const;

/** An address written the way a courier reads it (src/domain/address-copy.ts). */
export const ADDRESS_LINES_TEXT = {
  phone: (phone: string) => `Tel. ${phone}`,
  interior: (number: string) => `Int. ${number}`,
  neighborhood: (name: string) => `Col. ${name}`,
  zip: (zip: string) => `C.P. ${zip}`,
  references: (text: string) => `Referencias: ${text}`,
} as const;

/** The checkout's request for an old address's missing parts (src/islands/checkout/ShippingStep.tsx). */
export const CHECKOUT_ADDRESS_COMPLETE_TEXT = {
  title: 'Completa tu dirección',
  intro: 'Para enviar a México la paquetería necesita número exterior, colonia, municipio o alcaldía, un código postal de 5 dígitos y un teléfono de contacto.',
  save: 'Guardar y usar esta dirección',
  incomplete: 'Faltan datos para el envío',
} as const;

/** The back office's order address (src/islands/admin/OrderDetail.tsx). */
export const ADMIN_ORDER_ADDRESS_TEXT = {
  copy: 'Copiar dirección',
  copied: 'Dirección copiada',
  copyFailed: 'No se pudo copiar: selecciona el texto y cópialo.',
} as const;

/** The confirmation e-mail's address block (src/server/mail/templates/receipt.ts). */
export const MAIL_ADDRESS_TEXT = {
  shipTo: 'Envío a:',
} as const;

/** The payment step's refusal of an address a courier cannot deliver to (src/server/orders/order.ts). */
export const ADDRESS_INCOMPLETE_TEXT = {
  missing: (part: string) => `Completa tu dirección de envío: ${part}.`,
  generic: 'Completa tu dirección de envío antes de pagar.',
} as const;
