/** Form validation: the messages under each field. */

/**
 * Every form's field and form messages (src/domain/validation.ts and the schemas of
 * src/domain/validation/): the islands show them next to the fields, and the server's endpoints
 * answer 400 with the same text.
 */
export const VALIDATION_MESSAGES = {
  newsletterEmail: 'Ingresa un correo válido.',
  loginRequired: 'Ingresa correo y contraseña.',
  registrationRequired: 'Completa todos los campos.',
  registrationEmail: 'Correo inválido.',
  registrationPhone: 'Teléfono inválido.',
  passwordTooShort: 'La contraseña debe tener al menos 8 caracteres.',
  resetEmail: 'Escribe tu correo para enviarte el enlace de recuperación.',
  usernameRequired: 'Username requerido',
  nameRequired: 'Nombre requerido',
  lastnameRequired: 'Apellido requerido',
  profilePhone: 'Teléfono inválido',
  streetRequired: 'Calle requerida',
  cityRequired: 'Ciudad requerida',
  stateRequired: 'Estado requerido',
  zipRequired: 'Código Postal requerido',
  zipInvalid: 'Código Postal inválido (máximo 5 dígitos).',
  zipMexico: 'Código Postal de 5 dígitos',
  exteriorNumberRequired: 'Número exterior requerido',
  neighborhoodRequired: 'Colonia requerida',
  municipalityRequired: 'Municipio o alcaldía requerido',
  contactPhone: 'Teléfono de 10 dígitos',
  countryRequired: 'País requerido',
  countryInvalid: 'Selecciona un país de la lista.',
  reviewFields: 'Revisa los campos marcados.',
  profileUsernameTaken: 'El username ya está en uso',
  registrationUsernameTaken: 'Ese nombre de usuario ya está en uso.',
  noChanges: 'Sin cambios por guardar',
  lastAddress: 'Debes tener al menos una dirección',
  selectAddress: 'Selecciona una dirección válida.',
  invalidData: 'Datos no válidos.',
  productFranchise: 'Selecciona una franquicia.',
  productCollection: 'Selecciona una colección.',
  productExpansion: 'Selecciona una expansión.',
  productType: 'Selecciona un tipo de producto.',
  productExpansionMismatch: 'La expansión no pertenece a esa franquicia.',
  productTypeMismatch: 'El tipo de producto no pertenece a esa franquicia.',
  productName: 'Escribe el nombre del producto.',
  productPrice: 'Precio inválido: usa un número mayor o igual a 0 con hasta 2 decimales.',
  productImage: 'Agrega una imagen del producto.',
  productStock: 'El stock debe ser un número entero mayor o igual a 0.',
  productLimit: 'El límite por cliente debe ser un número entero mayor o igual a 1.',
  productReleaseDate: 'Fecha de lanzamiento inválida (AAAA-MM-DD).',
  /** 'Máximo n caracteres.' (the profile form's length limits). */
  tooLong: (max: number) => `Máximo ${max} caracteres.`,
} as const;
