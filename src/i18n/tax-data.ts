/**
 * The shopper's tax data (Datos de facturación in the account) and SAT's catalogues' names.
 *
 * SAT_TAX_REGIME_NAMES and SAT_CFDI_USE_NAMES are SAT's official descriptions of the c_RegimenFiscal
 * and c_UsoCFDI keys (CFDI 4.0), shown beside each key; which régimen a persona física or moral may
 * have and which uso each régimen may use are rules of src/domain/sat-catalogs.ts.
 */

/** c_RegimenFiscal: SAT's name of each régimen fiscal. */
export const SAT_TAX_REGIME_NAMES = {
  '601': 'General de Ley Personas Morales',
  '603': 'Personas Morales con Fines no Lucrativos',
  '605': 'Sueldos y Salarios e Ingresos Asimilados a Salarios',
  '606': 'Arrendamiento',
  '607': 'Régimen de Enajenación o Adquisición de Bienes',
  '608': 'Demás ingresos',
  '610': 'Residentes en el Extranjero sin Establecimiento Permanente en México',
  '611': 'Ingresos por Dividendos (socios y accionistas)',
  '612': 'Personas Físicas con Actividades Empresariales y Profesionales',
  '614': 'Ingresos por intereses',
  '615': 'Régimen de los ingresos por obtención de premios',
  '616': 'Sin obligaciones fiscales',
  '620': 'Sociedades Cooperativas de Producción que optan por diferir sus ingresos',
  '621': 'Incorporación Fiscal',
  '622': 'Actividades Agrícolas, Ganaderas, Silvícolas y Pesqueras',
  '623': 'Opcional para Grupos de Sociedades',
  '624': 'Coordinados',
  '625': 'Régimen de las Actividades Empresariales con ingresos a través de Plataformas Tecnológicas',
  '626': 'Régimen Simplificado de Confianza',
} as const;

/** c_UsoCFDI: SAT's name of each uso del CFDI a purchase may carry. */
export const SAT_CFDI_USE_NAMES = {
  G01: 'Adquisición de mercancías',
  G02: 'Devoluciones, descuentos o bonificaciones',
  G03: 'Gastos en general',
  I01: 'Construcciones',
  I02: 'Mobiliario y equipo de oficina por inversiones',
  I03: 'Equipo de transporte',
  I04: 'Equipo de cómputo y accesorios',
  I05: 'Dados, troqueles, moldes, matrices y herramental',
  I06: 'Comunicaciones telefónicas',
  I07: 'Comunicaciones satelitales',
  I08: 'Otra maquinaria y equipo',
  D01: 'Honorarios médicos, dentales y gastos hospitalarios',
  D02: 'Gastos médicos por incapacidad o discapacidad',
  D03: 'Gastos funerales',
  D04: 'Donativos',
  D05: 'Intereses reales efectivamente pagados por créditos hipotecarios (casa habitación)',
  D06: 'Aportaciones voluntarias al SAR',
  D07: 'Primas por seguros de gastos médicos',
  D08: 'Gastos de transportación escolar obligatoria',
  D09: 'Depósitos en cuentas para el ahorro, primas que tengan como base planes de pensiones',
  D10: 'Pagos por servicios educativos (colegiaturas)',
  S01: 'Sin efectos fiscales',
} as const;

/** The Datos de facturación section (src/islands/account/TaxDataSection.tsx). */
export const TAX_DATA_TEXT = {
  title: 'Datos de facturación',
  intro: 'Con estos datos emitimos la factura (CFDI 4.0) de las compras que nos pidas facturar. Escríbelos como aparecen en tu Constancia de Situación Fiscal.',
  loading: 'Cargando tus datos de facturación…',
  loadFailed: 'No se pudieron cargar tus datos de facturación.',
  rfc: 'RFC',
  rfcHint: '13 caracteres para persona física, 12 para persona moral.',
  personaFisica: 'Persona física',
  personaMoral: 'Persona moral',
  legalName: 'Razón social',
  legalNameHint: 'Tal como aparece en tu Constancia de Situación Fiscal, sin el régimen societario (p. ej. sin «S.A. de C.V.»).',
  taxRegime: 'Régimen fiscal',
  chooseRegime: 'Elige tu régimen fiscal',
  typeRfcFirst: 'Escribe tu RFC para ver los regímenes que te corresponden',
  taxZip: 'Código postal fiscal',
  cfdiUse: 'Uso del CFDI',
  invoiceEmail: 'Correo para recibir facturas',
  option: (code: string, name: string) => `${code} ${name}`,
  save: 'Guardar datos de facturación',
  saving: 'Guardando…',
  saved: 'Datos de facturación guardados',
  saveFailed: 'No se pudieron guardar tus datos de facturación. Intenta de nuevo.',
  remove: 'Borrar mis datos de facturación',
  removed: 'Datos de facturación borrados',
  removeFailed: 'No se pudieron borrar tus datos de facturación.',
} as const;

/** The Datos de facturación form's errors (src/domain/sat-catalogs.ts, src/data/rfc.ts). */
export const TAX_DATA_MESSAGES = {
  rfcRequired: 'RFC requerido',
  rfcInvalid: 'RFC no válido',
  rfcCheckDigit: 'RFC no válido: el dígito verificador no corresponde',
  rfcDate: 'RFC no válido: la fecha no existe',
  rfcGeneric: 'RFC no válido: el RFC genérico es solo para la factura global, escribe tu propio RFC',
  legalNameRequired: 'Razón social requerida',
  legalNameTooLong: 'Razón social de máximo 300 caracteres',
  taxRegimeRequired: 'Régimen fiscal requerido',
  taxRegimeInvalid: 'Régimen fiscal no válido para tu tipo de persona',
  taxZipInvalid: 'Código postal fiscal de 5 dígitos',
  cfdiUseInvalid: 'Uso del CFDI no válido para tu régimen',
  invoiceEmailInvalid: 'Correo para facturas no válido',
} as const;

/** The Datos de facturación fields' messages when the database refused them (src/islands/account/TaxDataSection.tsx). */
export const TAX_DATA_REFUSALS = {
  rfc: TAX_DATA_MESSAGES.rfcInvalid,
  legalName: TAX_DATA_MESSAGES.legalNameRequired,
  taxRegime: TAX_DATA_MESSAGES.taxRegimeInvalid,
  taxZip: TAX_DATA_MESSAGES.taxZipInvalid,
  cfdiUse: TAX_DATA_MESSAGES.cfdiUseInvalid,
  invoiceEmail: TAX_DATA_MESSAGES.invoiceEmailInvalid,
} as const;

/** The back office's SAT keys of a product (src/islands/admin/ProductEditDialog.tsx, ProductForm.tsx). */
export const ADMIN_PRODUCT_SAT_KEYS_TEXT = {
  legend: 'Claves del SAT para facturar',
  productKey: 'Clave de producto o servicio (ClaveProdServ)',
  unitKey: 'Clave de unidad (ClaveUnidad)',
  hint: 'Vacías, toman la clave del tipo de producto (60141101 Juegos de cartas) y H87 (pieza).',
  productKeyInvalid: 'La clave de producto o servicio del SAT son 8 dígitos',
  unitKeyInvalid: 'La clave de unidad del SAT son 2 o 3 letras o dígitos (H87: pieza)',
} as const;
