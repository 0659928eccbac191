/**
 * The sign-in, sign-up and password-reset forms.
 */
import { z } from 'zod';
import { emailField, isValidPhone, MESSAGES, passwordField, requiredText, validateForm, type FormResult } from '../validation.ts';

/** The shortest password the shop accepts (sign-up, password change). */
export const PASSWORD_MIN_LENGTH = 8;

export const loginSchema = z.object({
  email: requiredText(MESSAGES.loginRequired).transform((value) => value.toLowerCase()),
  password: passwordField(MESSAGES.loginRequired),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** Validates the login form; the e-mail comes back trimmed and lower-cased. */
export function validateLogin(input: unknown): FormResult<LoginInput> {
  return validateForm(loginSchema, input);
}

const REGISTRATION_FIELDS = ['username', 'email', 'password', 'name', 'lastname', 'phone'] as const;

export const registrationSchema = z.object({
  username: requiredText(MESSAGES.registrationRequired),
  email: emailField(MESSAGES.registrationEmail, MESSAGES.registrationRequired),
  password: passwordField(MESSAGES.registrationRequired).pipe(z.string().min(PASSWORD_MIN_LENGTH, { error: MESSAGES.passwordTooShort })),
  name: requiredText(MESSAGES.registrationRequired),
  lastname: requiredText(MESSAGES.registrationRequired),
  phone: requiredText(MESSAGES.registrationRequired).refine(isValidPhone, { error: MESSAGES.registrationPhone }),
});
export type RegistrationInput = z.infer<typeof registrationSchema>;

/** Validates the sign-up form; a missing field wins over format problems for the form message. */
export function validateRegistration(input: unknown): FormResult<RegistrationInput> {
  const result = validateForm(registrationSchema, input);
  if (result.ok) return result;
  const missing = REGISTRATION_FIELDS.some((field) => result.fieldErrors[field] === MESSAGES.registrationRequired);
  return missing ? { ...result, formError: MESSAGES.registrationRequired } : result;
}

export const passwordResetSchema = z.object({ email: emailField(MESSAGES.resetEmail) });
export type PasswordResetInput = z.infer<typeof passwordResetSchema>;

/** Validates the password-reset request (a valid e-mail). */
export function validatePasswordReset(input: unknown): FormResult<PasswordResetInput> {
  return validateForm(passwordResetSchema, input);
}
