/**
 * The address form of the account and the checkout, and the address rules the profile form shares.
 */
import { z } from 'zod';
import { emptyToNull, requiredText, trimmedText, validateForm, type FormResult } from '../validation.ts';
import { VALIDATION_MESSAGES } from '../../i18n/validation.ts';

export const COUNTRIES = ['México', 'Estados Unidos', 'Canadá', 'Otro'] as const;
export type Country = (typeof COUNTRIES)[number];
export const DEFAULT_COUNTRY: Country = 'México';

/** Mexican postal code: digits only, at most 5. */
export const ZIP_PATTERN = /^\d{1,5}$/;

/** The parts of an address, which is stored whole. */
export const ADDRESS_PARTS = ['street', 'city', 'state', 'zip', 'country'] as const;

export const addressSchema = z.object({
  label: trimmedText.transform(emptyToNull),
  street: requiredText(VALIDATION_MESSAGES.streetRequired),
  city: requiredText(VALIDATION_MESSAGES.cityRequired),
  state: requiredText(VALIDATION_MESSAGES.stateRequired),
  zip: requiredText(VALIDATION_MESSAGES.zipRequired).refine((value) => ZIP_PATTERN.test(value), { error: VALIDATION_MESSAGES.zipInvalid }),
  country: z.preprocess(
    (value) => (value === undefined ? DEFAULT_COUNTRY : value === null ? '' : value),
    z
      .string({ error: VALIDATION_MESSAGES.countryRequired })
      .trim()
      .min(1, { error: VALIDATION_MESSAGES.countryRequired })
      .pipe(z.enum(COUNTRIES, { error: VALIDATION_MESSAGES.countryInvalid })),
  ),
  is_default: z.boolean({ error: VALIDATION_MESSAGES.invalidData }).default(false),
});
export type AddressInput = z.infer<typeof addressSchema>;

/** Validates an address form (account and checkout); the form message is 'Revisa los campos marcados.'. */
export function validateAddress(input: unknown): FormResult<AddressInput> {
  return validateForm(addressSchema, input, { formError: VALIDATION_MESSAGES.reviewFields });
}
