/**
 * The profile edit form (name, username, phone and the main address) and whether it changed anything.
 */
import { z } from 'zod';
import { emptyToNull, isValidPhone, requiredText, trimmedText, validateForm, type FormResult } from '../validation.ts';
import { VALIDATION_MESSAGES } from '../../i18n/validation.ts';
import { ADDRESS_PARTS, DEFAULT_COUNTRY, isMexico, MX_ZIP_PATTERN, ZIP_PATTERN } from './address.ts';

/**
 * The database's limits on profiles and addresses (supabase/migrations/20261122000200_shop.sql):
 * the profile form checks exactly these, so a save never reaches a check constraint.
 */
export const PROFILE_LIMITS = { username: 50, name: 100, lastname: 100, street: 200, city: 100, state: 100, country: 60 } as const;

/** 'Máximo n caracteres.' */
export function tooLongMessage(max: number): string {
  return VALIDATION_MESSAGES.tooLong(max);
}

const atMost = (max: number) => (value: string) => value.length <= max;

export const profileSchema = z
  .object({
    username: requiredText(VALIDATION_MESSAGES.usernameRequired).refine(atMost(PROFILE_LIMITS.username), { error: tooLongMessage(PROFILE_LIMITS.username) }),
    name: requiredText(VALIDATION_MESSAGES.nameRequired).refine(atMost(PROFILE_LIMITS.name), { error: tooLongMessage(PROFILE_LIMITS.name) }),
    lastname: requiredText(VALIDATION_MESSAGES.lastnameRequired).refine(atMost(PROFILE_LIMITS.lastname), { error: tooLongMessage(PROFILE_LIMITS.lastname) }),
    phone: trimmedText.refine((value) => value === '' || isValidPhone(value), { error: VALIDATION_MESSAGES.profilePhone }),
    street: trimmedText,
    city: trimmedText,
    state: trimmedText,
    zip: trimmedText.refine((value) => value === '' || ZIP_PATTERN.test(value), { error: VALIDATION_MESSAGES.zipInvalid }),
    country: trimmedText,
  })
  .superRefine((value, ctx) => {
    const anyAddress = ADDRESS_PARTS.some((part) => value[part] !== '');
    if (!anyAddress) return;
    // An address is stored whole: the database needs street, city, state and zip (country
    // defaults to México), so a partly filled address names every missing part.
    if (value.street === '') ctx.addIssue({ code: 'custom', path: ['street'], message: VALIDATION_MESSAGES.streetRequired });
    if (value.city === '') ctx.addIssue({ code: 'custom', path: ['city'], message: VALIDATION_MESSAGES.cityRequired });
    if (value.state === '') ctx.addIssue({ code: 'custom', path: ['state'], message: VALIDATION_MESSAGES.stateRequired });
    if (value.zip === '') ctx.addIssue({ code: 'custom', path: ['zip'], message: VALIDATION_MESSAGES.zipRequired });
    // México (also when the country is left empty, as it defaults to it): exactly 5 digits.
    else if ((value.country === '' || isMexico(value.country)) && ZIP_PATTERN.test(value.zip) && !MX_ZIP_PATTERN.test(value.zip)) {
      ctx.addIssue({ code: 'custom', path: ['zip'], message: VALIDATION_MESSAGES.zipMexico });
    }
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
  return validateForm(profileSchema, input, { formError: VALIDATION_MESSAGES.reviewFields });
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
