/**
 * The address form of the account and the checkout, and the address rules the profile form shares.
 *
 * For México the form asks what a courier needs: calle, número exterior, número interior
 * (optional), código postal of exactly 5 digits, colonia, municipio o alcaldía, ciudad (optional),
 * estado, referencias (optional, at most 200 characters) and a 10-digit contact phone. Other
 * countries keep the specification's fields (street, city, state, postal code of up to 5 digits)
 * and their Mexican parts are stored empty.
 */
import { z } from 'zod';
import { emptyToNull, requiredText, trimmedText, validateForm, type FormResult } from '../validation.ts';
import { VALIDATION_MESSAGES } from '../../i18n/validation.ts';

export const COUNTRIES = ['México', 'Estados Unidos', 'Canadá', 'Otro'] as const;
export type Country = (typeof COUNTRIES)[number];
export const DEFAULT_COUNTRY: Country = 'México';

/** Whether an address's country is México (whose addresses have the Mexican parts). */
export function isMexico(country: string): boolean {
  return country.trim() === DEFAULT_COUNTRY;
}

/** Postal code outside México: digits only, at most 5. */
export const ZIP_PATTERN = /^\d{1,5}$/;
/** Mexican postal code: exactly 5 digits. */
export const MX_ZIP_PATTERN = /^\d{5}$/;

/** The parts of an address, which is stored whole. */
export const ADDRESS_PARTS = ['street', 'city', 'state', 'zip', 'country'] as const;

/** The database's limits on the Mexican parts (supabase/migrations/20261129006000_mexican_address.sql). */
export const MX_ADDRESS_LIMITS = { number: 20, neighborhood: 100, municipality: 100, references: 200 } as const;

/** A contact phone as typed ('55 1234-5678', '(55) 1234 5678') reduced to its digits. */
export function phoneDigits(value: string): string {
  return value.replace(/[\s()-]/g, '');
}

const CONTACT_PHONE = /^\d{10}$/;

const countryField = z.preprocess(
  (value) => (value === undefined ? DEFAULT_COUNTRY : value === null ? '' : value),
  z
    .string({ error: VALIDATION_MESSAGES.countryRequired })
    .trim()
    .min(1, { error: VALIDATION_MESSAGES.countryRequired })
    .pipe(z.enum(COUNTRIES, { error: VALIDATION_MESSAGES.countryInvalid })),
);

export const addressSchema = z
  .object({
    label: trimmedText.transform(emptyToNull),
    street: requiredText(VALIDATION_MESSAGES.streetRequired),
    exterior_number: trimmedText,
    interior_number: trimmedText,
    neighborhood: trimmedText,
    municipality: trimmedText,
    city: trimmedText,
    state: requiredText(VALIDATION_MESSAGES.stateRequired),
    zip: requiredText(VALIDATION_MESSAGES.zipRequired),
    country: countryField,
    references: trimmedText,
    phone: trimmedText.transform(phoneDigits),
    is_default: z.boolean({ error: VALIDATION_MESSAGES.invalidData }).default(false),
  })
  .superRefine((value, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    const tooLong = (path: 'exterior_number' | 'interior_number' | 'neighborhood' | 'municipality' | 'references', max: number) => {
      if (value[path].length > max) issue(path, VALIDATION_MESSAGES.tooLong(max));
    };
    if (!isMexico(value.country)) {
      if (value.city === '') issue('city', VALIDATION_MESSAGES.cityRequired);
      if (value.zip !== '' && !ZIP_PATTERN.test(value.zip)) issue('zip', VALIDATION_MESSAGES.zipInvalid);
      return;
    }
    if (value.zip !== '' && !MX_ZIP_PATTERN.test(value.zip)) issue('zip', VALIDATION_MESSAGES.zipMexico);
    if (value.exterior_number === '') issue('exterior_number', VALIDATION_MESSAGES.exteriorNumberRequired);
    if (value.neighborhood === '') issue('neighborhood', VALIDATION_MESSAGES.neighborhoodRequired);
    if (value.municipality === '') issue('municipality', VALIDATION_MESSAGES.municipalityRequired);
    if (!CONTACT_PHONE.test(value.phone)) issue('phone', VALIDATION_MESSAGES.contactPhone);
    tooLong('exterior_number', MX_ADDRESS_LIMITS.number);
    tooLong('interior_number', MX_ADDRESS_LIMITS.number);
    tooLong('neighborhood', MX_ADDRESS_LIMITS.neighborhood);
    tooLong('municipality', MX_ADDRESS_LIMITS.municipality);
    tooLong('references', MX_ADDRESS_LIMITS.references);
  })
  .transform((value) => {
    const mexican = isMexico(value.country);
    const part = (text: string) => (mexican ? emptyToNull(text) : null);
    return {
      label: value.label,
      street: value.street,
      exterior_number: part(value.exterior_number),
      interior_number: part(value.interior_number),
      neighborhood: part(value.neighborhood),
      municipality: part(value.municipality),
      // México: the city is optional (the municipio is what the courier needs); stored '' then.
      city: value.city,
      state: value.state,
      zip: value.zip,
      country: value.country,
      references: part(value.references),
      phone: part(value.phone),
      is_default: value.is_default,
    };
  });
export type AddressInput = z.infer<typeof addressSchema>;

/** Validates an address form (account and checkout); the form message is 'Revisa los campos marcados.'. */
export function validateAddress(input: unknown): FormResult<AddressInput> {
  return validateForm(addressSchema, input, { formError: VALIDATION_MESSAGES.reviewFields });
}

/** A stored address's parts that the Mexican rules look at. */
export interface StoredAddressParts {
  street: string;
  zip: string;
  country: string;
  exterior_number: string | null;
  neighborhood: string | null;
  municipality: string | null;
  phone: string | null;
}

/** A part a shipping address lacks before it can be paid for (the database's shipping_address_gap). */
type ShippingAddressGap = 'street' | 'city' | 'exterior_number' | 'zip' | 'neighborhood' | 'municipality' | 'state' | 'phone';

/** An address as the order copies it: the Mexican parts may be missing on an old one. */
interface ShippingAddressParts extends Partial<Omit<StoredAddressParts, 'street' | 'zip' | 'country'>> {
  street?: string | null;
  zip?: string | null;
  country?: string | null;
  city?: string | null;
  state?: string | null;
}

/**
 * The first part an address lacks before its order can be paid, in the form's order, or null:
 * for México calle, número exterior, a 5-digit postal code, colonia, municipio, estado and a
 * 10-digit phone; elsewhere the specification's street and city. The same rule as the database's
 * public.shipping_address_gap, which refuses the order's address copy without them.
 */
export function shippingAddressGap(address: ShippingAddressParts): ShippingAddressGap | null {
  const blank = (text: string | null | undefined) => text == null || text.trim() === '';
  if (blank(address.street)) return 'street';
  // Any spelling of México, as the database reads it ('mexico', 'MÉXICO').
  const mexico = (address.country ?? '').trim().toLowerCase().replace(/é/g, 'e') === 'mexico';
  if (!mexico) return blank(address.city) && blank(address.municipality) ? 'city' : null;
  if (blank(address.exterior_number)) return 'exterior_number';
  if (!MX_ZIP_PATTERN.test((address.zip ?? '').trim())) return 'zip';
  if (blank(address.neighborhood)) return 'neighborhood';
  if (blank(address.municipality)) return 'municipality';
  if (blank(address.state)) return 'state';
  if (!CONTACT_PHONE.test(address.phone ?? '')) return 'phone';
  return null;
}

/** The form's message for each missing part: the payment step says what the address form says. */
export const SHIPPING_ADDRESS_GAP_MESSAGES: Record<ShippingAddressGap, string> = {
  street: VALIDATION_MESSAGES.streetRequired,
  city: VALIDATION_MESSAGES.cityRequired,
  exterior_number: VALIDATION_MESSAGES.exteriorNumberRequired,
  zip: VALIDATION_MESSAGES.zipMexico,
  neighborhood: VALIDATION_MESSAGES.neighborhoodRequired,
  municipality: VALIDATION_MESSAGES.municipalityRequired,
  state: VALIDATION_MESSAGES.stateRequired,
  phone: VALIDATION_MESSAGES.contactPhone,
};

/**
 * Whether a stored address lacks what a Mexican delivery needs (saved before those parts were
 * asked, or with a short postal code): the checkout asks for them before the purchase. Addresses
 * in other countries are never incomplete here.
 */
export function needsMexicanParts(address: StoredAddressParts): boolean {
  if (!isMexico(address.country)) return false;
  const blank = (text: string | null) => text === null || text.trim() === '';
  return (
    !MX_ZIP_PATTERN.test(address.zip.trim()) ||
    blank(address.exterior_number) ||
    blank(address.neighborhood) ||
    blank(address.municipality) ||
    !CONTACT_PHONE.test(address.phone ?? '')
  );
}
