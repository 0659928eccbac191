/**
 * The sign-in, sign-up and password-reset forms.
 */
import { z } from 'zod';
import { emailField, isValidPhone, passwordField, requiredText, validateForm, type FormResult } from '../validation.ts';
import { VALIDATION_MESSAGES } from '../../i18n/validation.ts';

/** The shortest password the shop accepts (sign-up, password change). */
export const PASSWORD_MIN_LENGTH = 8;

export const loginSchema = z.object({
  email: requiredText(VALIDATION_MESSAGES.loginRequired).transform((value) => value.toLowerCase()),
  password: passwordField(VALIDATION_MESSAGES.loginRequired),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** Validates the login form; the e-mail comes back trimmed and lower-cased. */
export function validateLogin(input: unknown): FormResult<LoginInput> {
  return validateForm(loginSchema, input);
}

const REGISTRATION_FIELDS = ['username', 'email', 'password', 'name', 'lastname', 'phone'] as const;

export const registrationSchema = z.object({
  username: requiredText(VALIDATION_MESSAGES.registrationRequired),
  email: emailField(VALIDATION_MESSAGES.registrationEmail, VALIDATION_MESSAGES.registrationRequired),
  password: passwordField(VALIDATION_MESSAGES.registrationRequired).pipe(z.string().min(PASSWORD_MIN_LENGTH, { error: VALIDATION_MESSAGES.passwordTooShort })),
  name: requiredText(VALIDATION_MESSAGES.registrationRequired),
  lastname: requiredText(VALIDATION_MESSAGES.registrationRequired),
  phone: requiredText(VALIDATION_MESSAGES.registrationRequired).refine(isValidPhone, { error: VALIDATION_MESSAGES.registrationPhone }),
});
export type RegistrationInput = z.infer<typeof registrationSchema>;

/** Validates the sign-up form; a missing field wins over format problems for the form message. */
export function validateRegistration(input: unknown): FormResult<RegistrationInput> {
  const result = validateForm(registrationSchema, input);
  if (result.ok) return result;
  const missing = REGISTRATION_FIELDS.some((field) => result.fieldErrors[field] === VALIDATION_MESSAGES.registrationRequired);
  return missing ? { ...result, formError: VALIDATION_MESSAGES.registrationRequired } : result;
}

export const passwordResetSchema = z.object({ email: emailField(VALIDATION_MESSAGES.resetEmail) });
export type PasswordResetInput = z.infer<typeof passwordResetSchema>;

/** Validates the password-reset request (a valid e-mail). */
export function validatePasswordReset(input: unknown): FormResult<PasswordResetInput> {
  return validateForm(passwordResetSchema, input);
}
