/**
 * The footer newsletter form.
 */
import { z } from 'zod';
import { emailField, validateForm, type FormResult } from '../validation.ts';
import { VALIDATION_MESSAGES } from '../../i18n/validation.ts';

export const newsletterSchema = z.object({ email: emailField(VALIDATION_MESSAGES.newsletterEmail) });
export type NewsletterInput = z.infer<typeof newsletterSchema>;

/** Validates the footer newsletter form. */
export function validateNewsletter(input: unknown): FormResult<NewsletterInput> {
  return validateForm(newsletterSchema, input);
}
