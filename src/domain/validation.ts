/**
 * The shop's form validation: the shared field rules and validateForm, which turns a schema's
 * verdict into one message per field and one for the form (the Spanish messages are in
 * src/i18n/validation.ts). Each form's schema lives with its subject in ./validation/
 * (newsletter, auth, profile, address, product); the React islands use them to show messages
 * next to fields, and server endpoints the same schemas to answer 400 with the same text.
 */
import { z } from 'zod';
import { VALIDATION_MESSAGES } from '../i18n/validation.ts';

/** Phone: 7–20 characters of digits, spaces, parentheses, plus and hyphen. */
export const PHONE_PATTERN = /^[0-9 ()+-]{7,20}$/;
/** Whether a phone number (already trimmed) has an accepted shape. */
export function isValidPhone(phone: string): boolean {
  return PHONE_PATTERN.test(phone);
}

/** A trimmed string; missing values become '' so a required rule catches them. */
export const trimmedText = z.preprocess(
  (value) => (typeof value === 'string' ? value : value === null || value === undefined ? '' : value),
  z.string({ error: VALIDATION_MESSAGES.invalidData }).trim(),
);

/** A required string, trimmed; blank or missing gives `message`. */
export function requiredText(message: string) {
  return z.preprocess((value) => (value === null || value === undefined ? '' : value), z.string({ error: message }).trim().min(1, { error: message }));
}

/** A required e-mail, trimmed and lower-cased. */
export function emailField(message: string, requiredMessage = message) {
  return requiredText(requiredMessage)
    .transform((value) => value.toLowerCase())
    .pipe(z.email({ error: message }));
}

/** A password, kept as typed (no trimming); blanks alone do not count as a password. */
export function passwordField(requiredMessage: string) {
  return z.preprocess(
    (value) => (value === null || value === undefined ? '' : value),
    z.string({ error: requiredMessage }).refine((value) => value.trim() !== '', { error: requiredMessage }),
  );
}

/** '' as null, for optional columns. */
export function emptyToNull(value: string): string | null {
  return value === '' ? null : value;
}

// ---------------------------------------------------------------------------------------------
// Results

/** Outcome of validating a form: the parsed data, or one Spanish message per field and for the form. */
export type FormResult<T> = { ok: true; data: T } | { ok: false; fieldErrors: Record<string, string>; formError: string };

/**
 * Validates input with a schema and returns the first message per field (keys are top-level field
 * names) and a message for the whole form: `formError` when given, else the first message.
 */
export function validateForm<T>(schema: z.ZodType<T>, input: unknown, options: { formError?: string } = {}): FormResult<T> {
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
  return { ok: false, fieldErrors, formError: options.formError ?? first ?? VALIDATION_MESSAGES.invalidData };
}
