/**
 * Form and request schemas with the shop's Spanish messages. The React islands use them to show
 * messages next to fields; server endpoints use the same schemas to answer 400 with the same text.
 */
import { z } from 'zod';
import { getExpansion, getProductType, isFranchiseId } from './catalog.ts';
import { tryToCentavos } from './money.ts';

export const MESSAGES = {
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
} as const;

export const PASSWORD_MIN_LENGTH = 8;
export const COUNTRIES = ['México', 'Estados Unidos', 'Canadá', 'Otro'] as const;
export type Country = (typeof COUNTRIES)[number];
export const DEFAULT_COUNTRY: Country = 'México';

/** Phone: 7–20 characters of digits, spaces, parentheses, plus and hyphen. */
export const PHONE_PATTERN = /^[0-9 ()+-]{7,20}$/;
/** Mexican postal code: digits only, at most 5. */
export const ZIP_PATTERN = /^\d{1,5}$/;

/** Whether a phone number (already trimmed) has an accepted shape. */
export function isValidPhone(phone: string): boolean {
  return PHONE_PATTERN.test(phone);
}

// A string that is trimmed; missing or non-string values become '' so "required" catches them.
const text = z.preprocess(
  (value) => (typeof value === 'string' ? value : value === null || value === undefined ? '' : value),
  z.string({ error: MESSAGES.invalidData }).trim(),
);

function required(message: string) {
  return z.preprocess(
    (value) => (value === null || value === undefined ? '' : value),
    z.string({ error: message }).trim().min(1, { error: message }),
  );
}

function emailField(message: string, requiredMessage = message) {
  return required(requiredMessage)
    .transform((value) => value.toLowerCase())
    .pipe(z.email({ error: message }));
}

// Passwords are kept as typed (no trimming), but blanks alone do not count as a password.
function passwordField(requiredMessage: string) {
  return z.preprocess(
    (value) => (value === null || value === undefined ? '' : value),
    z.string({ error: requiredMessage }).refine((value) => value.trim() !== '', { error: requiredMessage }),
  );
}

function emptyToNull(value: string): string | null {
  return value === '' ? null : value;
}

// ---------------------------------------------------------------------------------------------
// Results

/** Outcome of validating a form: the parsed data, or one Spanish message per field and for the form. */
export type FormResult<T> =
  | { ok: true; data: T }
  | { ok: false; fieldErrors: Record<string, string>; formError: string };

/**
 * Validates input with a schema and returns the first message per field (keys are top-level field
 * names) and a message for the whole form: `formError` when given, else the first message.
 */
export function validateForm<T>(
  schema: z.ZodType<T>,
  input: unknown,
  options: { formError?: string } = {},
): FormResult<T> {
  // Forms send objects; anything else is treated as an empty form so required messages show.
  const value = input !== null && typeof input === 'object' && !Array.isArray(input) ? input : {};
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, data: result.data };
  const fieldErrors: Record<string, string> = {};
  let first: string | undefined;
  for (const issue of result.error.issues) {
    first ??= issue.message;
    const key = issue.path.length > 0 ? String(issue.path[0]) : '';
    if (key !== '' && !(key in fieldErrors)) fieldErrors[key] = issue.message;
  }
  return { ok: false, fieldErrors, formError: options.formError ?? first ?? MESSAGES.invalidData };
}

// ---------------------------------------------------------------------------------------------
// Newsletter, login, registration, password reset

export const newsletterSchema = z.object({ email: emailField(MESSAGES.newsletterEmail) });
export type NewsletterInput = z.infer<typeof newsletterSchema>;

/** Validates the footer newsletter form. */
export function validateNewsletter(input: unknown): FormResult<NewsletterInput> {
  return validateForm(newsletterSchema, input);
}

export const loginSchema = z.object({
  email: required(MESSAGES.loginRequired).transform((value) => value.toLowerCase()),
  password: passwordField(MESSAGES.loginRequired),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** Validates the login form; the e-mail comes back trimmed and lower-cased. */
export function validateLogin(input: unknown): FormResult<LoginInput> {
  return validateForm(loginSchema, input);
}

const REGISTRATION_FIELDS = ['username', 'email', 'password', 'name', 'lastname', 'phone'] as const;

export const registrationSchema = z.object({
  username: required(MESSAGES.registrationRequired),
  email: emailField(MESSAGES.registrationEmail, MESSAGES.registrationRequired),
  password: passwordField(MESSAGES.registrationRequired).pipe(
    z.string().min(PASSWORD_MIN_LENGTH, { error: MESSAGES.passwordTooShort }),
  ),
  name: required(MESSAGES.registrationRequired),
  lastname: required(MESSAGES.registrationRequired),
  phone: required(MESSAGES.registrationRequired).refine(isValidPhone, { error: MESSAGES.registrationPhone }),
});
export type RegistrationInput = z.infer<typeof registrationSchema>;

/** Validates the sign-up form; a missing field wins over format problems for the form message. */
export function validateRegistration(input: unknown): FormResult<RegistrationInput> {
  const result = validateForm(registrationSchema, input);
  if (result.ok) return result;
  const missing = REGISTRATION_FIELDS.some(
    (field) => result.fieldErrors[field] === MESSAGES.registrationRequired,
  );
  return missing ? { ...result, formError: MESSAGES.registrationRequired } : result;
}

export const passwordResetSchema = z.object({ email: emailField(MESSAGES.resetEmail) });
export type PasswordResetInput = z.infer<typeof passwordResetSchema>;

/** Validates the password-reset request (a valid e-mail). */
export function validatePasswordReset(input: unknown): FormResult<PasswordResetInput> {
  return validateForm(passwordResetSchema, input);
}

// ---------------------------------------------------------------------------------------------
// Profile and addresses

const ADDRESS_PARTS = ['street', 'city', 'state', 'zip', 'country'] as const;

/**
 * The database's limits on profiles and addresses (supabase/migrations/20261122000200_shop.sql):
 * the profile form checks exactly these, so a save never reaches a check constraint.
 */
export const PROFILE_LIMITS = { username: 50, name: 100, lastname: 100, street: 200, city: 100, state: 100, country: 60 } as const;

/** 'Máximo n caracteres.' */
export function tooLongMessage(max: number): string {
  return `Máximo ${max} caracteres.`;
}

const atMost = (max: number) => (value: string) => value.length <= max;

export const profileSchema = z
  .object({
    username: required(MESSAGES.usernameRequired).refine(atMost(PROFILE_LIMITS.username), { error: tooLongMessage(PROFILE_LIMITS.username) }),
    name: required(MESSAGES.nameRequired).refine(atMost(PROFILE_LIMITS.name), { error: tooLongMessage(PROFILE_LIMITS.name) }),
    lastname: required(MESSAGES.lastnameRequired).refine(atMost(PROFILE_LIMITS.lastname), { error: tooLongMessage(PROFILE_LIMITS.lastname) }),
    phone: text.refine((value) => value === '' || isValidPhone(value), { error: MESSAGES.profilePhone }),
    street: text,
    city: text,
    state: text,
    zip: text.refine((value) => value === '' || ZIP_PATTERN.test(value), { error: MESSAGES.zipInvalid }),
    country: text,
  })
  .superRefine((value, ctx) => {
    const anyAddress = ADDRESS_PARTS.some((part) => value[part] !== '');
    if (!anyAddress) return;
    // An address is stored whole: the database needs street, city, state and zip (country
    // defaults to México), so a partly filled address names every missing part.
    if (value.street === '') ctx.addIssue({ code: 'custom', path: ['street'], message: MESSAGES.streetRequired });
    if (value.city === '') ctx.addIssue({ code: 'custom', path: ['city'], message: MESSAGES.cityRequired });
    if (value.state === '') ctx.addIssue({ code: 'custom', path: ['state'], message: MESSAGES.stateRequired });
    if (value.zip === '') ctx.addIssue({ code: 'custom', path: ['zip'], message: MESSAGES.zipRequired });
    for (const part of ['street', 'city', 'state', 'country'] as const) {
      const max = PROFILE_LIMITS[part];
      if (value[part].length > max) ctx.addIssue({ code: 'custom', path: [part], message: tooLongMessage(max) });
    }
  })
  .transform((value) => {
    const anyAddress = ADDRESS_PARTS.some((part) => value[part] !== '');
    return {
      // Username is required here, so it is never empty; the column itself allows null.
      username: value.username,
      name: value.name,
      lastname: value.lastname,
      phone: emptyToNull(value.phone),
      address: anyAddress
        ? {
            street: value.street,
            city: value.city,
            state: value.state,
            zip: value.zip,
            country: value.country === '' ? DEFAULT_COUNTRY : value.country,
          }
        : null,
    };
  });
export type ProfileInput = z.infer<typeof profileSchema>;

/** Validates the profile edit form; any problem gives the form message 'Revisa los campos marcados.'. */
export function validateProfile(input: unknown): FormResult<ProfileInput> {
  return validateForm(profileSchema, input, { formError: MESSAGES.reviewFields });
}

/** The profile as stored, to compare with an edited one. */
export interface StoredProfile {
  username: string | null;
  name: string | null;
  lastname: string | null;
  phone: string | null;
  address?: { street: string; city: string; state: string; zip: string; country: string } | null;
}

/** Whether an edited profile differs from the stored one ('Sin cambios por guardar' otherwise). */
export function profileChanged(stored: StoredProfile, edited: ProfileInput): boolean {
  const same = (a: string | null | undefined, b: string | null | undefined) => (a ?? '') === (b ?? '');
  if (!same(stored.username, edited.username) || !same(stored.name, edited.name)) return true;
  if (!same(stored.lastname, edited.lastname) || !same(stored.phone, edited.phone)) return true;
  const before = stored.address && ADDRESS_PARTS.some((part) => (stored.address?.[part] ?? '') !== '') ? stored.address : null;
  const after = edited.address;
  if (before === null || after === null) return before !== after;
  return ADDRESS_PARTS.some((part) => !same(before[part], after[part]));
}

export const addressSchema = z.object({
  label: text.transform(emptyToNull),
  street: required(MESSAGES.streetRequired),
  city: required(MESSAGES.cityRequired),
  state: required(MESSAGES.stateRequired),
  zip: required(MESSAGES.zipRequired).refine((value) => ZIP_PATTERN.test(value), { error: MESSAGES.zipInvalid }),
  country: z.preprocess(
    (value) => (value === undefined ? DEFAULT_COUNTRY : value === null ? '' : value),
    z
      .string({ error: MESSAGES.countryRequired })
      .trim()
      .min(1, { error: MESSAGES.countryRequired })
      .pipe(z.enum(COUNTRIES, { error: MESSAGES.countryInvalid })),
  ),
  is_default: z.boolean({ error: MESSAGES.invalidData }).default(false),
});
export type AddressInput = z.infer<typeof addressSchema>;

/** Validates an address form (account and checkout); the form message is 'Revisa los campos marcados.'. */
export function validateAddress(input: unknown): FormResult<AddressInput> {
  return validateForm(addressSchema, input, { formError: MESSAGES.reviewFields });
}

// ---------------------------------------------------------------------------------------------
// Admin: new product

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function isRealDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function integerField(message: string, min: number, fallback: number) {
  return z.preprocess(
    (value) => {
      if (value === undefined || value === null || value === '') return undefined;
      if (typeof value === 'string') return /^\s*-?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
      return value;
    },
    z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(1_000_000, { error: message })
      .default(fallback),
  );
}

function booleanField(fallback: boolean) {
  return z.preprocess(
    (value) => (value === 'true' || value === 'on' ? true : value === 'false' ? false : value),
    z.boolean({ error: MESSAGES.invalidData }).default(fallback),
  );
}

export const newProductSchema = z
  .object({
    franchiseId: required(MESSAGES.productFranchise).refine(isFranchiseId, { error: MESSAGES.productFranchise }),
    collectionId: required(MESSAGES.productCollection),
    expansionId: required(MESSAGES.productExpansion),
    productTypeId: required(MESSAGES.productType),
    name: required(MESSAGES.productName).pipe(z.string().max(200, { error: MESSAGES.productName })),
    price: z
      .union([z.number(), z.string()], { error: MESSAGES.productPrice })
      .refine((value) => (typeof value === 'number' ? Number.isFinite(value) : /^\s*\d+(\.\d{1,2})?\s*$/.test(value)), {
        error: MESSAGES.productPrice,
      })
      .transform((value) => tryToCentavos(value) ?? -1)
      .refine((cents) => cents >= 0, { error: MESSAGES.productPrice })
      .transform((cents) => cents / 100),
    image: required(MESSAGES.productImage),
    description: text,
    stock: integerField(MESSAGES.productStock, 0, 0),
    limitPerCustomer: integerField(MESSAGES.productLimit, 1, 1),
    preorder: booleanField(false),
    available: booleanField(true),
    releaseDate: text
      .refine((value) => value === '' || isRealDate(value), { error: MESSAGES.productReleaseDate })
      .transform(emptyToNull),
    tags: z
      .array(z.string({ error: MESSAGES.invalidData }).trim(), { error: MESSAGES.invalidData })
      .optional()
      .transform((tags) => (tags ?? []).filter((tag) => tag !== '')),
  })
  .superRefine((value, ctx) => {
    // Only catalogue entries known here are checked; expansions added later in the database pass.
    const expansion = getExpansion(value.expansionId);
    if (expansion && expansion.franchiseId !== value.franchiseId) {
      ctx.addIssue({ code: 'custom', path: ['expansionId'], message: MESSAGES.productExpansionMismatch });
    }
    const type = getProductType(value.productTypeId);
    if (type && type.franchiseId !== value.franchiseId) {
      ctx.addIssue({ code: 'custom', path: ['productTypeId'], message: MESSAGES.productTypeMismatch });
    }
  });
export type NewProductInput = z.infer<typeof newProductSchema>;

/** The product the admin form publishes: the validated fields plus id, images and tags. */
export interface NewProductPayload extends Omit<NewProductInput, 'image'> {
  id: string;
  images: string[];
}

/** Validates the admin product form. */
export function validateNewProduct(input: unknown): FormResult<NewProductInput> {
  return validateForm(newProductSchema, input, { formError: MESSAGES.reviewFields });
}

const FRANCHISE_ABBREVIATIONS: Readonly<Record<string, string>> = {
  pokemon: 'pk',
  'one-piece': 'op',
  riftbound: 'rb',
};

function slug(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * Product id 'franchise-type-expansion': franchise abbreviation (pk, op, rb), the type id without
 * its franchise prefix and without hyphens, and the expansion id.
 * @example productIdFor('pokemon', 'booster-box', 'journey-together') // 'pk-boosterbox-journey-together'
 */
export function productIdFor(franchiseId: string, typeId: string, expansionId: string): string {
  const franchise = FRANCHISE_ABBREVIATIONS[franchiseId] ?? slug(franchiseId).replace(/-/g, '');
  const typeWithoutPrefix = slug(typeId).replace(new RegExp(`^${franchise}-`), '');
  return [franchise, typeWithoutPrefix.replace(/-/g, ''), slug(expansionId)].filter((part) => part !== '').join('-');
}

/** `id` itself when free, else `id-2`, `id-3`, … — the first one not among `taken`. */
export function uniqueProductId(id: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(id)) return id;
  for (let suffix = 2; ; suffix += 1) {
    const candidate = `${id}-${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** Builds the product to publish from validated form data: unique id, one image, default tags. */
export function buildNewProductPayload(input: NewProductInput, takenIds: Iterable<string> = []): NewProductPayload {
  const { image, ...rest } = input;
  const id = uniqueProductId(productIdFor(input.franchiseId, input.productTypeId, input.expansionId), takenIds);
  const tags =
    input.tags.length > 0
      ? input.tags
      : [input.name, getProductType(input.productTypeId)?.name ?? input.productTypeId, getExpansion(input.expansionId)?.name ?? input.expansionId];
  return { ...rest, id, images: [image], tags };
}
